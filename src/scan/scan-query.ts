import type { KeyProperty } from '../metadata/key-type.js';
import type { ReadOptions } from './read-options.js';

/**
 * Bounds on one key part: at most one lower (`gt`/`gte`) and one upper
 * (`lt`/`lte`) bound, in logical order (descending key parts are flipped for you).
 *
 * @example
 * ```ts
 * const lastHour: RangeCondition<Date> = { gte: new Date(Date.now() - 3600_000), lt: new Date() };
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
 * optionally a {@link RangeCondition} on the next one.
 *
 * @example
 * ```ts
 * const where: KeyWhere<Reading> = { sensorId: 's1', ts: { gte: from, lt: to } };
 * ```
 */
export type KeyWhere<T> = { [K in KeyProperty<T>]?: T[K] | RangeCondition<NonNullable<T[K]>> };

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

/** Range operators. @internal */
export const RANGE_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;

/**
 * Whether a `where` value is a range condition rather than a key value: a
 * plain object whose keys are all range operators.
 * @internal
 */
export function isRangeCondition(value: unknown): value is RangeCondition<unknown> {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => (RANGE_OPERATORS as readonly string[]).includes(k));
}
