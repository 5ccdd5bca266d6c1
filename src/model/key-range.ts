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
 * A contiguous range of physical row keys (salt segment included), between
 * two bounds; `end: undefined` means up to the end of the table. It is what
 * a driver reads (`ReadRowsRequest.ranges`) and what a scan plan holds per
 * source.
 *
 * @example
 * ```ts
 * const r: KeyRange = { start: { key: Buffer.from('a#'), inclusive: true }, end: { key: Buffer.from('a$'), inclusive: false } };
 * ```
 */
export interface KeyRange {
  /** Lower bound; an empty key starts at the first row. */
  readonly start: KeyBound;
  /** Upper bound; `undefined` reads to the end of the table. */
  readonly end: KeyBound | undefined;
}

/**
 * A {@link KeyRange} over logical keys (without the salt segment), as scan
 * planning computes it before each salt bucket's prefix is put in front.
 * Not part of the public API.
 *
 * @example
 * ```ts
 * const r: LogicalKeyRange = { start: { key: Buffer.from('a#'), inclusive: true }, end: undefined };
 * ```
 */
export type LogicalKeyRange = KeyRange;
