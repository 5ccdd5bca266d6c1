import type { EntityProperty, KeyProperty } from '../metadata/compile-key-plan.js';
import { READ_OPTION_NAMES, type ReadOptions } from './read-options.js';
import { ValidationError } from '../errors/errors.js';

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
 * which order, and where to resume. `S` is the union of the selected
 * properties, inferred from `select`.
 *
 * @example
 * ```ts
 * repo.scan({ where: { sensorId: 's1' }, limit: 100, select: ['temperature'] });
 * ```
 */
export interface ScanQuery<T, S extends EntityProperty<T> = EntityProperty<T>> extends ReadOptions<T, S> {
  /** Key prefix and range. Omit to scan the whole table. */
  where?: KeyWhere<T>;
  /** Maximum rows returned in total (over every salt bucket). */
  limit?: number;
  /**
   * The order rows come in:
   * - `key` (default): ascending logical key order, merged across buckets.
   * - `key-desc`: descending logical key order (largest key first). Each range
   *   is read reversed by Bigtable itself (one RPC per range, the limit applied
   *   by the server), and buckets are merged largest key first, so `limit: 10`
   *   returns the 10 largest keys: "the latest N" without reverse-timestamp keys.
   * - `none`: fastest, unordered.
   *
   * Descending is a value of `order` rather than a separate `reverse: true`
   * flag because it is one more ordering, not a modifier: a reversed unordered
   * scan would mean nothing, and `planScan()` shows the direction in
   * `plan.order`. A cursor resumes only a query of the same `order`.
   *
   * @example
   * ```ts
   * // the 10 newest readings of sensor s1 (ts ascending in the key), newest first
   * repo.iterate({ where: { sensorId: 's1' }, order: 'key-desc', limit: 10 });
   * ```
   */
  order?: 'key' | 'key-desc' | 'none';
  /** Maximum bucket reads in flight for `order: 'none'` (an ordered merge opens every bucket). Default 8. */
  concurrency?: number;
  /** Resume after the last row of a previous page (from `repo.page()`). */
  cursor?: string;
}

/** The names of {@link ScanQuery}'s options, its read options included. @internal */
export const SCAN_QUERY_OPTION_NAMES: readonly string[] = [
  ...Object.keys({ where: true, limit: true, order: true, concurrency: true, cursor: true } satisfies Record<
    Exclude<keyof ScanQuery<unknown>, keyof ReadOptions>,
    true
  >),
  ...READ_OPTION_NAMES,
];

const BOUND_NAMES = ['gt', 'gte', 'lt', 'lte'] as const;

/**
 * Bounds on one key part of a scan, made by {@link range}. A `where` value is
 * a range only when it is an instance of this class, which `JSON.parse` (or
 * any request body) cannot produce: a plain object such as `{ "gt": "" }`
 * where a key value is expected is rejected instead of widening the scan.
 * Instances are frozen.
 *
 * @example
 * ```ts
 * const lastHour = range({ gte: new Date(Date.now() - 3_600_000), lt: new Date() });
 * lastHour instanceof KeyPartRange; // true
 * repo.scan({ where: { sensorId: 's1', ts: lastHour } });
 * ```
 */
export class KeyPartRange<V = unknown> {
  /** Greater than (exclusive lower bound). */
  declare readonly gt: V | undefined;
  /** Greater than or equal to (inclusive lower bound). */
  declare readonly gte: V | undefined;
  /** Less than (exclusive upper bound). */
  declare readonly lt: V | undefined;
  /** Less than or equal to (inclusive upper bound). */
  declare readonly lte: V | undefined;

  /** Makes the type nominal: an object literal with the same bounds is not a `KeyPartRange`. */
  declare private readonly brand: 'KeyPartRange';

  /** Use {@link range}. */
  private constructor() {}
}

/**
 * Builds the range condition of one key part for a scan's `where`: at most one
 * lower bound (`gt` or `gte`) and one upper bound (`lt` or `lte`), in logical
 * order (bounds on a descending key part are flipped for you). A bound left
 * out is open. Each bound must have the key part's own type; an inverted range
 * (lower above upper, or equal with an exclusive end) is rejected when the scan
 * is planned. Throws `ValidationError` for anything but an object of those four
 * bounds.
 *
 * String key parts compare by Unicode code point (UTF-8 byte order), and a
 * string range returns exactly the values inside it, whatever characters they hold.
 *
 * @example
 * ```ts
 * repo.scan({ where: { sensorId: 's1', ts: range({ gte: from, lt: to }) } });
 * repo.scan({ where: { name: range({ gte: 'a', lte: 'a' }) } }); // exactly the rows whose name is 'a'
 * ```
 */
export function range<V>(bounds: RangeCondition<V>): KeyPartRange<V> {
  if (bounds === null || typeof bounds !== 'object' || Array.isArray(bounds)) {
    throw new ValidationError(
      `range(): expected an object of bounds such as { gte: from, lt: to }, got ${bounds === null ? 'null' : Array.isArray(bounds) ? 'an array' : typeof bounds}. Fix: pass { gt | gte, lt | lte }`,
      { argument: 'range' },
    );
  }
  const unknown = Reflect.ownKeys(bounds).filter(
    (key) => typeof key !== 'string' || !(BOUND_NAMES as readonly string[]).includes(key),
  );
  if (unknown.length > 0) {
    throw new ValidationError(`range(): unknown bound ${String(unknown[0])}. Fix: use only gt, gte, lt and lte`, {
      argument: 'range',
      bound: String(unknown[0]),
    });
  }
  if (bounds.gt !== undefined && bounds.gte !== undefined)
    throw new ValidationError('range(): gives both gt and gte. Fix: give only one lower bound', { argument: 'range' });
  if (bounds.lt !== undefined && bounds.lte !== undefined)
    throw new ValidationError('range(): gives both lt and lte. Fix: give only one upper bound', { argument: 'range' });
  const made = Object.create(KeyPartRange.prototype) as { -readonly [B in keyof KeyPartRange<V>]: KeyPartRange<V>[B] };
  made.gt = bounds.gt;
  made.gte = bounds.gte;
  made.lt = bounds.lt;
  made.lte = bounds.lte;
  return Object.freeze(made) as KeyPartRange<V>;
}
