import type { KeyBound } from '../model/key-range.js';
import { prefixEnd } from './row-key-range.js';

/**
 * A physical bound of a string range, and whether it admits exactly the logical bound.
 * @internal
 * @example
 * ```ts
 * const lower: StringBound = { bound: { key: Buffer.from('t1#a'), inclusive: true }, exact: false };
 * ```
 */
export interface StringBound {
  /** The bound on row keys; `undefined` for the end of the table. */
  readonly bound: KeyBound | undefined;
  /** False when rows outside the logical bound can fall inside it: they must be filtered after reading. */
  readonly exact: boolean;
}

/**
 * The highest code point whose escaped text can sort out of step with the raw
 * text: the separator, `%` (both escaped to `%XX`) and anything below them
 * sort differently once a separator follows the component. Characters above
 * it are kept as they are and compare as they do raw.
 */
function orderThreshold(separator: string): number {
  return Math.max(separator.charCodeAt(0), 0x25);
}

/** The longest leading run of `value` whose characters all sort above the threshold. */
function safePrefix(value: string, separator: string): string {
  const threshold = orderThreshold(separator);
  let end = 0;
  while (end < value.length && value.charCodeAt(end) > threshold) end += 1;
  return value.slice(0, end);
}

/**
 * Lower bound (`gt`/`gte` on `value`) of a string key part after the fixed
 * `prefix`: every key whose component is at or above `value` sorts at or
 * after it. When `value` holds a character at or below the separator or `%`,
 * only the run before it is used (a wider range, filtered after reading).
 *
 * @example
 * ```ts
 * stringLowerBound(Buffer.from('t1#'), 'a!', true, false, '#'); // { bound: 't1#a' inclusive, exact: false }
 * ```
 * @internal
 */
export function stringLowerBound(
  prefix: Buffer,
  value: string,
  inclusive: boolean,
  isLast: boolean,
  separator: string,
): StringBound {
  const safe = safePrefix(value, separator);
  const key = Buffer.concat([prefix, Buffer.from(safe, 'utf8')]);
  if (safe !== value) return { bound: { key, inclusive: true }, exact: false };
  if (inclusive) return { bound: { key, inclusive: true }, exact: true };
  // gt on an inner component: rows of `value` itself sort between rows of values
  // that extend it with low characters (`value!…`), so they are read and dropped.
  return isLast ? { bound: { key, inclusive: false }, exact: true } : { bound: { key, inclusive: true }, exact: false };
}

/**
 * Upper bound (`lt`/`lte` on `value`) of a string key part after the fixed
 * `prefix`: every key whose component is at or below `value` sorts before
 * (or at) it. Like {@link stringLowerBound}, a value with low characters is
 * cut to the run before them and the range end moved past every key that
 * starts with that run.
 *
 * @example
 * ```ts
 * stringUpperBound(Buffer.from('t1#'), 'a', true, false, '#'); // { bound: 't1#a$' exclusive, exact: false }
 * ```
 * @internal
 */
export function stringUpperBound(
  prefix: Buffer,
  value: string,
  inclusive: boolean,
  isLast: boolean,
  separator: string,
): StringBound {
  const safe = safePrefix(value, separator);
  const key = Buffer.concat([prefix, Buffer.from(safe, 'utf8')]);
  if (safe !== value) {
    const end = prefixEnd(key);
    return { bound: end === undefined ? undefined : { key: end, inclusive: false }, exact: false };
  }
  if (!inclusive) return { bound: { key, inclusive: false }, exact: true };
  if (isLast) return { bound: { key, inclusive: true }, exact: true };
  // lte on an inner component: values extending `value` with low characters
  // (`value!…`) sort before `value#…` and fall inside; they are dropped after reading.
  return {
    bound: { key: Buffer.concat([key, Buffer.from([separator.charCodeAt(0) + 1])]), inclusive: false },
    exact: false,
  };
}
