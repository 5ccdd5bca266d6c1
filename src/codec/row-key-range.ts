import { ValidationError } from '../errors/validation-error.js';
import { describeKeyLayout, encodeKeyComponents, joinLogicalKey, type KeySchema } from './row-key-components.js';

/**
 * One end of a key range.
 *
 * @example
 * ```ts
 * const start: KeyBound = { key: Buffer.from('sensor123#'), inclusive: true };
 * ```
 */
export interface KeyBound {
  /** The boundary row key. */
  readonly key: Buffer;
  /** Whether a row whose key equals `key` is inside the range. */
  readonly inclusive: boolean;
}

/**
 * A range of row keys between two bounds; `end: undefined` means up to the
 * end of the table. Scan planning computes it over logical keys (without the
 * salt segment); {@link KeyRange}, the same shape, holds the physical keys
 * a driver reads.
 *
 * @example
 * ```ts
 * const r: LogicalKeyRange = { start: { key: Buffer.from('a#'), inclusive: true }, end: { key: Buffer.from('a$'), inclusive: false } };
 * ```
 */
export interface LogicalKeyRange {
  /** Lower bound; an empty key starts at the first row. */
  readonly start: KeyBound;
  /** Upper bound; `undefined` reads to the end of the table. */
  readonly end: KeyBound | undefined;
}

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
 * The logical key range of a scan that fixes leading key properties and
 * optionally bounds the next one (DESIGN.md §2). Literals between fixed parts
 * are included. Bounds on a descending component are flipped, since its
 * encoding reverses the order. When every key part is fixed, the range is the
 * single key. Throws `ValidationError` when the range is not on the property
 * right after the fixed ones or gives two lower (or two upper) bounds.
 *
 * @example
 * ```ts
 * logicalKeyRange(schema, { sensorId: 's1' }, { property: 'ts', gte: new Date('2023-05-01T00:00:00Z') });
 * // { start: { key: 's1#2023-05-01T00:00:00.000Z', inclusive: true }, end: { key: 's1$', inclusive: false } } (as Buffers)
 * ```
 */
export function logicalKeyRange(schema: KeySchema, fixed: Readonly<Record<string, unknown>>, range?: KeyRangeCondition): LogicalKeyRange {
  const { components, separator } = schema.key;
  const encoded = encodeKeyComponents(schema, fixed, 'prefix');
  const invalid = (problem: string, fix: string): ValidationError =>
    new ValidationError(`${schema.name}: ${problem} (key order ${describeKeyLayout(schema)}). Fix: ${fix}.`, { entity: schema.name, property: range?.property });
  if (encoded.length === components.length) {
    if (range !== undefined) throw invalid(`cannot range over "${range.property}": every key part is already fixed`, `leave "${range.property}" out of the fixed values`);
    const key = Buffer.from(joinLogicalKey(separator, encoded, true), 'utf8');
    return { start: { key, inclusive: true }, end: { key, inclusive: true } };
  }
  const prefix = Buffer.from(joinLogicalKey(separator, encoded, false), 'utf8');
  if (range === undefined) return { start: { key: prefix, inclusive: true }, end: openEnd(prefix) };
  const next = components[encoded.length] as (typeof components)[number];
  if (range.property !== next.property) {
    throw invalid(`a key range must be on "${next.property}", the key part right after the fixed ones, not on "${range.property}"`, `give every key part before "${range.property}" in the fixed values, or put the range on "${next.property}"`);
  }
  if (range.gt !== undefined && range.gte !== undefined) throw invalid(`the range on "${range.property}" gives both gt and gte`, 'give only one lower bound');
  if (range.lt !== undefined && range.lte !== undefined) throw invalid(`the range on "${range.property}" gives both lt and lte`, 'give only one upper bound');
  const codec = next.codec as NonNullable<typeof next.codec>;
  const { gt, gte, lt, lte } = codec.descending ? { gt: range.lt, gte: range.lte, lt: range.gt, lte: range.gte } : range;
  const isLast = encoded.length === components.length - 1;
  const at = (value: unknown): Buffer => Buffer.concat([prefix, Buffer.from(codec.encode(value), 'utf8')]);
  const after = (value: unknown): Buffer => Buffer.concat([at(value), Buffer.from([separator.charCodeAt(0) + 1])]);
  let start: KeyBound = { key: prefix, inclusive: true };
  if (gte !== undefined) start = { key: at(gte), inclusive: true };
  else if (gt !== undefined) start = isLast ? { key: at(gt), inclusive: false } : { key: after(gt), inclusive: true };
  let end = openEnd(prefix);
  if (lt !== undefined) end = { key: at(lt), inclusive: false };
  else if (lte !== undefined) end = isLast ? { key: at(lte), inclusive: true } : { key: after(lte), inclusive: false };
  return { start, end };
}
