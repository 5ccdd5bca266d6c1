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
