import { ValidationError } from '../errors/validation-error.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { compareKeyValues } from './key-value-order.js';
import { describeKeyLayout, encodeKeyPrefix, joinLogicalKey, type KeySchema } from './row-key-components.js';
import type { KeyBound, LogicalKeyRange } from '../model/key-range.js';
import { stringLowerBound, stringUpperBound } from './string-range-bounds.js';

/**
 * Bounds on the key property right after the fixed ones; at most one lower and one upper bound.
 *
 * @example
 * ```ts
 * const cond: KeyRangeCondition = { property: 'ts', gte: new Date('2023-05-01'), lt: new Date('2023-05-02') };
 * ```
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
 *
 * @example
 * ```ts
 * prefixEnd(Buffer.from('a#'));           // <Buffer 61 24> ('a$')
 * prefixEnd(Buffer.from([0x61, 0xff]));   // <Buffer 62>
 * prefixEnd(Buffer.alloc(0));             // undefined
 * ```
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
 * @internal
 */
export interface PlannedKeyRange {
  readonly range: LogicalKeyRange;
  readonly exact: boolean;
}

/**
 * The logical key range of a scan that fixes leading key properties and
 * optionally bounds the next one (DESIGN.md §2). Literals between fixed parts
 * are included. Bounds on a descending component are flipped, since its
 * encoding reverses the order. When every key part is fixed, the range is the
 * single key. Throws `ValidationError` when the range is not on the property
 * right after the fixed ones, gives two lower (or two upper) bounds, or is
 * inverted (lower above upper, or equal with an exclusive bound); a bound
 * that does not encode throws `KeyEncodingError`.
 *
 * A range on a string key part may cover more rows than the condition (see
 * {@link planKeyRange}); scans drop those after reading.
 *
 * @example
 * ```ts
 * logicalKeyRange(schema, { sensorId: 's1' }, { property: 'ts', gte: new Date('2023-05-01T00:00:00Z') });
 * // { start: { key: 's1#2023-05-01T00:00:00.000Z', inclusive: true }, end: { key: 's1$', inclusive: false } } (as Buffers)
 * ```
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
 * @example
 * ```ts
 * planKeyRange(schema, {}, { property: 'name', gte: 'a', lte: 'a' }).exact; // false: 'a!' rows sort inside
 * ```
 */
export function planKeyRange(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
  range?: KeyRangeCondition,
): PlannedKeyRange {
  const { components, separator } = schema.key;
  const { encoded, next } = encodeKeyPrefix(schema, fixed);
  const invalid = (problem: string, fix: string): ValidationError =>
    new ValidationError(`${schema.name}: ${problem} (key order ${describeKeyLayout(schema)}). Fix: ${fix}.`, {
      entity: schema.name,
      property: range?.property,
    });
  if (next === undefined) {
    if (range !== undefined)
      throw invalid(
        `cannot range over "${range.property}": every key part is already fixed`,
        `leave "${range.property}" out of the fixed values`,
      );
    const key = Buffer.from(joinLogicalKey(separator, encoded, true), 'utf8');
    return { range: { start: { key, inclusive: true }, end: { key, inclusive: true } }, exact: true };
  }
  const prefix = Buffer.from(joinLogicalKey(separator, encoded, false), 'utf8');
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
  if (codec.type === 'string') return stringKeyRange(prefix, range, isLast, separator);
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
