import type { KeyProperty } from '../metadata/key-type.js';
import type { KeyPartRange } from './key-part-range.js';
import type { ReadOptions } from './read-options.js';

/**
 * The bounds given to `range()`: at most one lower (`gt`/`gte`) and one
 * upper (`lt`/`lte`) bound, in logical order (descending key parts are flipped
 * for you). A `where` never takes this plain object itself: wrap it in
 * `range(...)`.
 *
 * @example
 * ```ts
 * const lastHour: RangeCondition<Date> = { gte: new Date(Date.now() - 3600_000), lt: new Date() };
 * repo.scan({ where: { sensorId: 's1', ts: range(lastHour) } });
 * ```
 */
export interface RangeCondition<V> {
  /** Greater than (exclusive lower bound). */
  gt?: V;
  /** Greater than or equal to (inclusive lower bound). */
  gte?: V;
  /** Less than (exclusive upper bound). */
  lt?: V;
  /** Less than or equal to (inclusive upper bound). */
  lte?: V;
}

/**
 * Key conditions of a scan: equality on leading key parts (a key prefix),
 * optionally a {@link KeyPartRange} made by `range()` on the next one.
 * Every other value must have the key part's own type: a plain object (say,
 * from `JSON.parse`) is rejected with a `ValidationError`, so untrusted input
 * can never turn an equality into a range.
 *
 * @example
 * ```ts
 * const where: KeyWhere<Reading> = { sensorId: 's1', ts: range({ gte: from, lt: to }) };
 * ```
 */
export type KeyWhere<T> = { [K in KeyProperty<T>]?: T[K] | KeyPartRange<NonNullable<T[K]>> };

/**
 * A scan: which rows (by key prefix and range), which columns, how many, in
 * which order, and where to resume.
 *
 * @example
 * ```ts
 * repo.scan({ where: { sensorId: 's1' }, limit: 100, select: ['temperature'] });
 * ```
 */
export interface ScanQuery<T> extends ReadOptions<T> {
  /** Key prefix and range. Omit to scan the whole table. */
  where?: KeyWhere<T>;
  /** Maximum rows returned in total (over every salt bucket). */
  limit?: number;
  /** `key` (default): logical key order, merged across buckets. `none`: fastest, unordered. */
  order?: 'key' | 'none';
  /** Maximum bucket reads in flight for `order: 'none'` (an ordered merge opens every bucket). Default 8. */
  concurrency?: number;
  /** Resume after the last row of a previous page (from `repo.page()`). */
  cursor?: string;
}
