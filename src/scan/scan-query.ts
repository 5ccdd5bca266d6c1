import type { EntityProperty, KeyProperty } from '../metadata/compile-key-plan.js';
import { READ_OPTION_NAMES, type ReadOptions } from '../read/read-options.js';
import { ValidationError } from '../errors/errors.js';
import type { ScanShard } from './shards.js';

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
  /**
   * How many reads a full scan runs at once, from 1 (default) to 64. Above 1,
   * the scan first asks for the table's sample row keys (`SampleRowKeys`), cuts
   * each range it reads at them, and reads the pieces concurrently:
   * - `order: 'key'` or `'key-desc'`: still in key order, exactly as a
   *   sequential scan. The piece being delivered and the next `parallelism - 1`
   *   are read at once, each ahead of the reader by at most 8,192 rows or about
   *   2 MiB (per salt bucket of a salted entity, `parallelism` is shared among
   *   the buckets).
   * - `order: 'none'`: the pieces of every range interleave, `parallelism` at a time.
   *
   * A range without a sample inside it (a small table) is read by one stream.
   * Cursors, `limit`, deadlines and cancellation work as for every scan.
   *
   * @example
   * ```ts
   * for await (const reading of readings.iterate({ parallelism: 8 })) handle(reading); // in key order
   * ```
   */
  parallelism?: number;
  /**
   * Read only this shard of the query: one of the objects `mapper.planShards()`
   * returned for the same `where` (as is, or after a JSON round trip). A shard
   * of another query, edited, or reaching outside the query's range is a
   * `ValidationError`. Works with every other option: `order`, `limit` and
   * `cursor` apply within the shard.
   *
   * @example
   * ```ts
   * const shards = await mapper.planShards(Reading, { shards: 4 });
   * for await (const r of readings.iterate({ shard: shards[Number(process.env.CLOUD_RUN_TASK_INDEX)] })) handle(r);
   * ```
   */
  shard?: ScanShard;
}

/** The names of {@link ScanQuery}'s options, its read options included. @internal */
export const SCAN_QUERY_OPTION_NAMES: readonly string[] = [
  ...Object.keys({
    where: true,
    limit: true,
    order: true,
    concurrency: true,
    cursor: true,
    shard: true,
    parallelism: true,
  } satisfies Record<Exclude<keyof ScanQuery<unknown>, keyof ReadOptions>, true>),
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
 * What is wrong with the bounds given to a `range()` call. `range()` cannot
 * know which key part it is for, so it keeps the problem, and the scan that
 * puts the range on a key part throws it as a `ValidationError` naming
 * `Entity.property`.
 * @internal
 */
export interface RangeProblem {
  /** What is wrong, e.g. `gives both gt and gte`. */
  readonly problem: string;
  /** How to fix it. */
  readonly fix: string;
  /** The offending bound's name, when one bound is to blame. */
  readonly bound?: string;
}

const PROBLEMS = new WeakMap<KeyPartRange<unknown>, RangeProblem>();

/**
 * The problem of a range built from bad bounds, or `undefined` for a good one.
 * @internal
 */
export function rangeProblem(value: KeyPartRange<unknown>): RangeProblem | undefined {
  return PROBLEMS.get(value);
}

/**
 * Builds the range condition of one key part for a scan's `where`: at most one
 * lower bound (`gt` or `gte`) and one upper bound (`lt` or `lte`), in logical
 * order (bounds on a descending key part are flipped for you). A bound left
 * out is open. Each bound must have the key part's own type.
 *
 * `range()` itself never throws: it does not know which key part it is for.
 * Bad bounds (not an object, an unknown bound, both `gt` and `gte` or both
 * `lt` and `lte`), an inverted range (lower above upper, or equal with an
 * exclusive end) and a bound of the wrong type are rejected when the scan is
 * planned, before anything is sent, with an error naming `Entity.property`
 * and the fix. A range built from bad bounds can never be read as an open
 * range: reading its bounds throws.
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
  const made = Object.create(KeyPartRange.prototype) as KeyPartRange<V>;
  const problem = boundsProblem(bounds);
  if (problem === undefined) {
    const fields = made as { -readonly [B in keyof KeyPartRange<V>]: KeyPartRange<V>[B] };
    fields.gt = bounds.gt;
    fields.gte = bounds.gte;
    fields.lt = bounds.lt;
    fields.lte = bounds.lte;
  } else {
    const refuse = (): never => {
      throw new ValidationError(`range() ${problem.problem}. Fix: ${problem.fix}`, {
        argument: 'range',
        ...(problem.bound === undefined ? {} : { bound: problem.bound }),
      });
    };
    for (const name of BOUND_NAMES) Object.defineProperty(made, name, { get: refuse, enumerable: true });
    PROBLEMS.set(made as KeyPartRange<unknown>, problem);
  }
  return Object.freeze(made) as KeyPartRange<V>;
}

function boundsProblem(bounds: unknown): RangeProblem | undefined {
  if (bounds === null || typeof bounds !== 'object' || Array.isArray(bounds)) {
    return {
      problem: `takes an object of bounds such as { gte: from, lt: to }, got ${bounds === null ? 'null' : Array.isArray(bounds) ? 'an array' : typeof bounds}`,
      fix: 'pass range({ gt | gte, lt | lte }), e.g. range({ gte: from, lt: to })',
    };
  }
  const unknown = Reflect.ownKeys(bounds).find(
    (key) => typeof key !== 'string' || !(BOUND_NAMES as readonly string[]).includes(key),
  );
  if (unknown !== undefined) {
    const name = typeof unknown === 'string' ? JSON.stringify(unknown) : String(unknown);
    return { problem: `has an unknown bound ${name}`, fix: 'use only gt, gte, lt and lte', bound: String(unknown) };
  }
  const given = bounds as RangeCondition<unknown>;
  if (given.gt !== undefined && given.gte !== undefined)
    return { problem: 'gives both gt and gte', fix: 'give only one lower bound' };
  if (given.lt !== undefined && given.lte !== undefined)
    return { problem: 'gives both lt and lte', fix: 'give only one upper bound' };
  return undefined;
}
