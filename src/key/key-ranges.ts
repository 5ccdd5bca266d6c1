import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { KeyBound, LogicalKeyRange } from '../model/key-range.js';
import type { KeyComponentSchema } from '../metadata/entity-schema.js';
import { describeKeyLayout, encodeKeyPrefix, joinLogicalKey, type KeySchema } from './logical-key.js';
import { orderedLogicalKey } from './ordered-key.js';
import { encodeStructField } from '../codec/ordered-code.js';

/**
 * Bounds on the key property right after the fixed ones; at most one lower and one upper bound.
 * @internal
 */
export interface KeyRangeCondition {
  readonly property: string;
  readonly gt?: unknown;
  readonly gte?: unknown;
  readonly lt?: unknown;
  readonly lte?: unknown;
}

/**
 * Smallest byte string greater than every key that starts with `prefix`:
 * trailing `0xff` bytes are dropped and the last byte incremented.
 * `undefined` means there is none (empty or all-`0xff` prefix): scan to the end.
 * @internal
 */
export function prefixEnd(prefix: Buffer): Buffer | undefined {
  let length = prefix.length;
  while (length > 0 && prefix[length - 1] === 0xff) length -= 1;
  if (length === 0) return undefined;
  const end = Buffer.from(prefix.subarray(0, length));
  end[length - 1] = (end[length - 1] as number) + 1;
  return end;
}

function openEnd(prefix: Buffer): KeyBound | undefined {
  const key = prefixEnd(prefix);
  return key === undefined ? undefined : { key, inclusive: false };
}

/**
 * A scan's logical key range, and whether it holds exactly the rows of the
 * condition. A range on a string key part is widened when its bounds hold
 * characters that sort at or below the separator or `%` (see
 * `stringLowerBound`): then `exact` is false and rows must be checked
 * against the condition after reading.
 */
interface PlannedKeyRange {
  readonly range: LogicalKeyRange;
  readonly exact: boolean;
}

/**
 * The logical key range of a scan that fixes leading key properties and
 * optionally bounds the next one (docs/row-key-design.md). Literals between fixed parts
 * are included. Bounds on a descending component are flipped, since its
 * encoding reverses the order. When every key part is fixed, the range is the
 * single key. Throws `ValidationError` when the range is not on the property
 * right after the fixed ones, gives two lower (or two upper) bounds, or is
 * inverted (lower above upper, or equal with an exclusive bound); a bound
 * that does not encode throws `KeyEncodingError`.
 *
 * A range on a string key part may cover more rows than the condition (see
 * {@link planKeyRange}); scans drop those after reading.
 * @internal
 */
export function logicalKeyRange(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
  range?: KeyRangeCondition,
): LogicalKeyRange {
  return planKeyRange(schema, fixed, range).range;
}

/**
 * {@link logicalKeyRange}, and whether the range holds only rows of the
 * condition (`exact`).
 * @internal
 */
export function planKeyRange(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
  range?: KeyRangeCondition,
): PlannedKeyRange {
  const { components, separator } = schema.key;
  const { encoded, next } = encodeKeyPrefix(schema, fixed);
  const part = range === undefined ? schema.name : `${schema.name}.${range.property}`;
  const invalid = (problem: string, fix: string): ValidationError =>
    new ValidationError(`${part}: ${problem} (key order ${describeKeyLayout(schema)}). Fix: ${fix}.`, {
      entity: schema.name,
      property: range?.property,
    });
  if (next === undefined) {
    if (range !== undefined)
      throw invalid(
        `cannot range over "${range.property}": every key part is already fixed`,
        `leave "${range.property}" out of the fixed values`,
      );
    const key = logicalKeyBytes(schema, encoded, true);
    return { range: { start: { key, inclusive: true }, end: { key, inclusive: true } }, exact: true };
  }
  const prefix = logicalKeyBytes(schema, encoded, false);
  if (range === undefined)
    return { range: { start: { key: prefix, inclusive: true }, end: openEnd(prefix) }, exact: true };
  if (range.property !== next.property) {
    throw invalid(
      `a key range must be on "${next.property}", the key part right after the fixed ones, not on "${range.property}"`,
      `give every key part before "${range.property}" in the fixed values, or put the range on "${next.property}"`,
    );
  }
  if (range.gt !== undefined && range.gte !== undefined)
    throw invalid(`the range on "${range.property}" gives both gt and gte`, 'give only one lower bound');
  if (range.lt !== undefined && range.lte !== undefined)
    throw invalid(`the range on "${range.property}" gives both lt and lte`, 'give only one upper bound');
  const { codec } = next;
  const texts = encodeBounds(codec, range);
  checkNotInverted(range, invalid);
  const isLast = encoded.length === components.length - 1;
  if (schema.key.format === 'ordered-code') return { range: orderedKeyRange(next, prefix, texts, isLast), exact: true };
  // A verbatim part that is last or fixed-width sorts by its raw UTF-8 bytes, which is code point order
  // (a width makes the separator after it come only once the values already differ): the digits path is exact.
  const rawOrder = codec.verbatim !== undefined && (isLast || codec.verbatim.width !== undefined);
  if (codec.type === 'string' && !rawOrder) return stringKeyRange(prefix, range, isLast, separator);
  const { gt, gte, lt, lte } = codec.descending
    ? { gt: texts.lt, gte: texts.lte, lt: texts.gt, lte: texts.gte }
    : texts;
  const at = (text: string): Buffer => Buffer.concat([prefix, Buffer.from(text, 'utf8')]);
  const after = (text: string): Buffer => Buffer.concat([at(text), Buffer.from([separator.charCodeAt(0) + 1])]);
  let start: KeyBound = { key: prefix, inclusive: true };
  if (gte !== undefined) start = { key: at(gte), inclusive: true };
  else if (gt !== undefined) start = isLast ? { key: at(gt), inclusive: false } : { key: after(gt), inclusive: true };
  let end = openEnd(prefix);
  if (lt !== undefined) end = { key: at(lt), inclusive: false };
  else if (lte !== undefined) end = isLast ? { key: at(lte), inclusive: true } : { key: after(lte), inclusive: false };
  return { range: { start, end }, exact: true };
}

/** The logical key (complete) or key prefix of encoded components, in the schema's key format. */
function logicalKeyBytes(schema: KeySchema, encoded: readonly string[], complete: boolean): Buffer {
  if (schema.key.format === 'ordered-code') return orderedLogicalKey(schema, encoded, complete);
  return Buffer.from(joinLogicalKey(schema.key.separator, encoded, complete), 'utf8');
}

/**
 * The range of an `ordered-code` key part after the fixed `prefix`. A field
 * that is not last, or is descending, ends with a terminator, so the rows of
 * one value are exactly the keys that start with its field; a last ascending
 * field ends the key. Bounds on a descending field are flipped. Exact: the
 * field bytes sort as the values do.
 */
function orderedKeyRange(
  next: Extract<KeyComponentSchema, { kind: 'property' }>,
  prefix: Buffer,
  bounds: EncodedBounds,
  isLast: boolean,
): LogicalKeyRange {
  const { descending } = next.codec;
  const { gt, gte, lt, lte } = descending ? { gt: bounds.lt, gte: bounds.lte, lt: bounds.gt, lte: bounds.gte } : bounds;
  const terminated = !isLast || descending;
  const at = (text: string): Buffer =>
    Buffer.concat([prefix, encodeStructField(Buffer.from(text, 'latin1'), descending, isLast)]);
  // A terminated field never ends in 0xff, so the end of its keys always exists.
  const after = (text: string): Buffer => prefixEnd(at(text)) as Buffer;
  let start: KeyBound = { key: prefix, inclusive: true };
  if (gte !== undefined) start = { key: at(gte), inclusive: true };
  else if (gt !== undefined)
    start = terminated ? { key: after(gt), inclusive: true } : { key: at(gt), inclusive: false };
  let end = openEnd(prefix);
  if (lt !== undefined) end = { key: at(lt), inclusive: false };
  else if (lte !== undefined)
    end = terminated ? { key: after(lte), inclusive: false } : { key: at(lte), inclusive: true };
  return { start, end };
}

interface EncodedBounds {
  readonly gt?: string;
  readonly gte?: string;
  readonly lt?: string;
  readonly lte?: string;
}

/** Encodes every given bound (the codec rejects values of the wrong type). */
function encodeBounds(codec: { encode(value: unknown): string }, range: KeyRangeCondition): EncodedBounds {
  const encode = (value: unknown): string | undefined => (value === undefined ? undefined : codec.encode(value));
  return { gt: encode(range.gt), gte: encode(range.gte), lt: encode(range.lt), lte: encode(range.lte) };
}

function checkNotInverted(range: KeyRangeCondition, invalid: (problem: string, fix: string) => ValidationError): void {
  const lower = range.gte ?? range.gt;
  const upper = range.lte ?? range.lt;
  if (lower === undefined || upper === undefined) return;
  const order = compareKeyValues(lower, upper);
  const bothInclusive = range.gte !== undefined && range.lte !== undefined;
  if (order > 0 || (order === 0 && !bothInclusive)) {
    throw invalid(
      `the range on "${range.property}" is inverted or empty: its lower bound ${preview(lower)} is not below its upper bound ${preview(upper)}`,
      'give the lower bound in gt/gte and the upper one in lt/lte, or use equality for a single value',
    );
  }
}

/** A string key part's range: widened where its bounds hold low characters (see `stringLowerBound`). */
function stringKeyRange(prefix: Buffer, range: KeyRangeCondition, isLast: boolean, separator: string): PlannedKeyRange {
  const lowerValue = (range.gte ?? range.gt) as string | undefined;
  const upperValue = (range.lte ?? range.lt) as string | undefined;
  const lower =
    lowerValue === undefined
      ? { bound: { key: prefix, inclusive: true }, exact: true }
      : stringLowerBound(prefix, lowerValue, range.gte !== undefined, isLast, separator);
  const upper =
    upperValue === undefined
      ? { bound: openEnd(prefix), exact: true }
      : stringUpperBound(prefix, upperValue, range.lte !== undefined, isLast, separator);
  return { range: { start: lower.bound as KeyBound, end: upper.bound }, exact: lower.exact && upper.exact };
}

/**
 * A physical bound of a string range, and whether it admits exactly the logical bound.
 */
interface StringBound {
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
 */
function stringLowerBound(
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
 */
function stringUpperBound(
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

/**
 * Compares two strings by Unicode code point, the order of their UTF-8 bytes
 * (and so of Bigtable row keys). JavaScript's `<` compares UTF-16 code units,
 * which differs for characters above U+FFFF against U+E000–U+FFFF.
 */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (U+D800–DFFF) above U+E000–FFFF, so code units compare like code points. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Logical order of two key-part values of the same type: strings by code
 * point, numbers, booleans and bigints numerically, `Date`s by time, bytes
 * byte by byte. Values must already have passed the key part's codec.
 * @internal
 */
export function compareKeyValues(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}
