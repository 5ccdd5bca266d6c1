import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import { bucketOfRowKey, decodeRowKey } from '../key/physical-key.js';
import { orderedSaltLength } from '../key/ordered-key.js';
import { evenness, saltSegmentLength } from '../key/salt.js';
import { toSpread, type Spread } from './spread.js';
import { TopPrefixes } from './top-prefixes.js';

/** Default and largest number of key prefixes a census reports. */
const DEFAULT_MAX_PREFIXES = 1000;
const MAX_PREFIXES_LIMIT = 100_000;
/** Candidates tracked per reported prefix: a count's error is at most the rows counted / (4 × `maxPrefixes`). */
const CANDIDATES_PER_PREFIX = 4;
/** Distinct prefixes past the candidates counted before `otherPrefixes.prefixes` stops growing. */
const MAX_OTHER_COUNTED = 10_000;

/**
 * Rows and bytes of one group of a {@link Census}.
 *
 * @example
 * ```ts
 * const t: CensusTally = { rows: 1200, bytes: 96_000 };
 * ```
 */
export interface CensusTally {
  /** Rows counted. */
  readonly rows: number;
  /** Their bytes, as given. */
  readonly bytes: number;
}

/**
 * One salt bucket of a {@link Census}.
 *
 * @example
 * ```ts
 * const b: CensusBucket = { bucket: 3, rows: 1200, bytes: 96_000 };
 * ```
 */
export interface CensusBucket extends CensusTally {
  /** The bucket number. */
  readonly bucket: number;
}

/**
 * One key prefix of a {@link Census}.
 *
 * @example
 * ```ts
 * const p: CensusPrefix = { prefix: 'sensor-7', rows: 310, bytes: 24_800, rowsError: 0, bytesError: 0 };
 * ```
 */
export interface CensusPrefix extends CensusTally {
  /** The leading logical key components, as key text. */
  readonly prefix: string;
  /** How many of `rows` may belong to other prefixes (0: exact); `rows - rowsError` is a lower bound. */
  readonly rowsError: number;
  /** Likewise for `bytes`. */
  readonly bytesError: number;
}

/**
 * The rows of a {@link Census} outside its reported prefixes.
 *
 * @example
 * ```ts
 * const o: CensusOverflow = { prefixes: 12, rows: 40, bytes: 3_200 };
 * ```
 */
export interface CensusOverflow extends CensusTally {
  /** Distinct prefixes among them, counted up to 10,000 past the tracked ones. */
  readonly prefixes: number;
}

/**
 * The spread of rows and of bytes over the salt buckets of a {@link Census}.
 *
 * @example
 * ```ts
 * const e: CensusEvenness = { rows: { min: 90, max: 110, ratio: 1.22 }, bytes: { min: 9e3, max: 1.1e4, ratio: 1.22 } };
 * ```
 */
export interface CensusEvenness {
  /** Rows per bucket. */
  readonly rows: Spread;
  /** Bytes per bucket. */
  readonly bytes: Spread;
}

/**
 * Options of {@link censusOf}.
 *
 * @example
 * ```ts
 * censusOf(Reading, rows, { prefixComponents: 2, maxPrefixes: 500 });
 * ```
 */
export interface CensusOptions {
  /** Leading logical key components that make a prefix group. Default 1. */
  readonly prefixComponents?: number;
  /**
   * The largest prefixes (most rows) to report; the rest go to `otherPrefixes`. Default 1,000. Counted
   * in one pass over 4 × `maxPrefixes` candidates (Space-Saving): exact while the distinct prefixes fit,
   * otherwise each count may overestimate by its `rowsError`, at most rows / (4 × `maxPrefixes`).
   */
  readonly maxPrefixes?: number;
}

/**
 * Where a table's rows and bytes sit: per salt bucket and per logical key
 * prefix, with the spread over the buckets. Plain JSON.
 *
 * @example
 * ```ts
 * const census: Census = censusOf(Reading, scannedRows);
 * census.evenness?.rows.ratio; // 1.07
 * ```
 */
export interface Census extends CensusTally {
  /** The entity class name. */
  readonly entity: string;
  /** One entry per salt bucket, in `allBuckets` order; empty for an unsalted entity. */
  readonly buckets: readonly CensusBucket[];
  /** Rows without a salt segment: every row of an unsalted entity, or rows older than `@Salt` `since`. */
  readonly unsalted: CensusTally;
  /** The `maxPrefixes` largest logical key prefixes (the first `prefixComponents` components, as key text), in key order. */
  readonly prefixes: readonly CensusPrefix[];
  /** The rows of every other prefix. */
  readonly otherPrefixes: CensusOverflow;
  /** `max / min` rows and bytes per salt bucket; `undefined` for an unsalted entity. */
  readonly evenness: CensusEvenness | undefined;
}

/**
 * Counts rows and bytes per salt bucket and per key prefix from a table's
 * physical keys, the data of a bucket-evenness check after the fact (verify
 * the distribution a salt gives real rows). Pure and streaming: the caller feeds it, for
 * example, a scan's keys and sizes; memory stays bounded by the bucket count
 * and `maxPrefixes`. Reads text and `ordered-code` keys alike.
 *
 * @example
 * ```ts
 * const census = censusOf(Reading, [{ key: Buffer.from('03#s1#2023-05-01T12:00:00.000Z'), bytes: 120 }]);
 * census.buckets.find((b) => b.bucket === 3)?.rows; // 1
 * ```
 */
export function censusOf(
  entity: Constructor | EntitySchema,
  rows: Iterable<{ readonly key: Uint8Array; readonly bytes: number }>,
  options: CensusOptions = {},
): Census {
  const counter = new CensusCounter(entity, options);
  for (const row of rows) counter.add(row);
  return counter.result();
}

/**
 * The counting behind {@link censusOf}, fed one row at a time, so a caller
 * reading a table as a stream (the `census` command) keeps only the tallies.
 * @internal
 */
export class CensusCounter {
  readonly #schema: EntitySchema;
  readonly #prefixComponents: number;
  readonly #maxPrefixes: number;
  readonly #buckets: Map<number, { rows: number; bytes: number }>;
  readonly #top: TopPrefixes;
  readonly #unsalted = { rows: 0, bytes: 0 };
  readonly #seen = new Set<string>();
  readonly #seenLimit: number;
  readonly #total = { rows: 0, bytes: 0 };

  constructor(entity: Constructor | EntitySchema, options: CensusOptions = {}) {
    const schema = typeof entity === 'function' ? compileEntity(entity) : entity;
    this.#schema = schema;
    this.#prefixComponents = checkCount(schema.name, 'prefixComponents', options.prefixComponents, 1, 64);
    this.#maxPrefixes = checkCount(
      schema.name,
      'maxPrefixes',
      options.maxPrefixes ?? DEFAULT_MAX_PREFIXES,
      1,
      MAX_PREFIXES_LIMIT,
    );
    this.#buckets = new Map((schema.key.salt?.allBuckets ?? []).map((b) => [b, { rows: 0, bytes: 0 }]));
    this.#top = new TopPrefixes(this.#maxPrefixes * CANDIDATES_PER_PREFIX);
    this.#seenLimit = this.#maxPrefixes * CANDIDATES_PER_PREFIX + MAX_OTHER_COUNTED;
  }

  /** Counts one row: its physical key and its size in bytes. */
  add(row: { readonly key: Uint8Array; readonly bytes: number }): void {
    const schema = this.#schema;
    const { key, bytes } = checkRow(schema.name, row, this.#total.rows);
    const buffer = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
    const bucket = bucketOfRowKey(schema, buffer);
    add(bucket === undefined ? this.#unsalted : (this.#buckets.get(bucket) as { rows: number; bytes: number }), bytes);
    const prefix = this.#prefixOf(buffer, bucket !== undefined);
    this.#top.add(prefix, bytes);
    if (this.#seen.size < this.#seenLimit) this.#seen.add(prefix);
    add(this.#total, bytes);
  }

  /** The first `prefixComponents` key components as key text (decoded for `ordered-code` keys). */
  #prefixOf(key: Buffer, salted: boolean): string {
    const { salt, separator, format } = this.#schema.key;
    if (format === 'ordered-code') {
      const start = salted && salt !== undefined ? orderedSaltLength(salt, key) : 0;
      let values: Record<string, unknown>;
      try {
        values = decodeRowKey(this.#schema, key);
      } catch {
        return key.subarray(start).toString('hex');
      }
      return this.#schema.key.properties
        .slice(0, this.#prefixComponents)
        .map((p) => keyText(values[p]))
        .join(separator);
    }
    const rest = salted && salt !== undefined ? key.subarray(Math.max(0, saltSegmentLength(salt, key))) : key;
    return rest.toString('utf8').split(separator).slice(0, this.#prefixComponents).join(separator);
  }

  /** The census of the rows counted so far. */
  result(): Census {
    const bucketList = [...this.#buckets].map(([bucket, t]) => ({ bucket, rows: t.rows, bytes: t.bytes }));
    const prefixes: CensusPrefix[] = this.#top
      .top(this.#maxPrefixes)
      .sort((a, b) => Buffer.compare(Buffer.from(a.prefix), Buffer.from(b.prefix)));
    return {
      entity: this.#schema.name,
      rows: this.#total.rows,
      bytes: this.#total.bytes,
      buckets: bucketList,
      unsalted: { ...this.#unsalted },
      prefixes,
      otherPrefixes: {
        prefixes: Math.max(0, this.#seen.size - prefixes.length),
        rows: Math.max(0, this.#total.rows - prefixes.reduce((n, p) => n + p.rows, 0)),
        bytes: Math.max(0, this.#total.bytes - prefixes.reduce((n, p) => n + p.bytes, 0)),
      },
      evenness:
        bucketList.length === 0
          ? undefined
          : {
              rows: toSpread(evenness(new Map(bucketList.map((b) => [b.bucket, b.rows])))),
              bytes: toSpread(evenness(new Map(bucketList.map((b) => [b.bucket, b.bytes])))),
            },
    };
  }
}

/** A decoded key value as prefix text: bytes as hex, dates as ISO text. */
function keyText(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function add(tally: { rows: number; bytes: number }, bytes: number): void {
  tally.rows++;
  tally.bytes += bytes;
}

function checkRow(entity: string, row: unknown, index: number): { key: Uint8Array; bytes: number } {
  const r = row as { key?: unknown; bytes?: unknown } | null;
  if (
    r === null ||
    typeof r !== 'object' ||
    !(r.key instanceof Uint8Array) ||
    typeof r.bytes !== 'number' ||
    !Number.isFinite(r.bytes) ||
    r.bytes < 0
  ) {
    throw new ValidationError(
      `${entity}: censusOf row ${index} is ${preview(row)}, not { key: Uint8Array, bytes: non-negative number }. ` +
        'Fix: pass each row key as bytes with its size in bytes.',
      { entity, index },
    );
  }
  return { key: r.key, bytes: r.bytes };
}

function checkCount(entity: string, name: string, value: number | undefined, low: number, high: number): number {
  const n = value ?? low;
  if (!Number.isInteger(n) || n < low || n > high) {
    throw new ValidationError(
      `${entity}: censusOf ${name} ${preview(value)} is not an integer from ${low} to ${high}. Fix: pass one, or leave it out.`,
      { entity, [name]: preview(value) },
    );
  }
  return n;
}

/**
 * One census from the censuses of disjoint parts of a table (the tasks of a sharded `census` job, each
 * over its own rows): rows, bytes, buckets and unsalted rows are summed exactly; prefixes are summed per
 * prefix and the `maxPrefixes` largest kept. A prefix a part did not report may still hold some of that
 * part's other rows: its count then adds the part's bound (the smaller of its smallest reported prefix
 * and its other rows) to both `rows` and `rowsError`, so every count stays an upper bound and `rows -
 * rowsError` a lower one. When every part is exact and the distinct prefixes fit in `maxPrefixes`, the
 * result equals the census of one pass over the whole table. `otherPrefixes.prefixes` is then exact too,
 * otherwise an upper bound (a prefix may be counted by several parts).
 * @internal
 */
export function mergeCensuses(parts: readonly Census[], maxPrefixes: number): Census {
  const first = parts[0];
  if (first === undefined)
    throw new ValidationError('mergeCensuses needs at least one census. Fix: pass the reports of every task.', {});
  const buckets = new Map(first.buckets.map((b) => [b.bucket, { rows: 0, bytes: 0 }]));
  const unsalted = { rows: 0, bytes: 0 };
  const total = { rows: 0, bytes: 0 };
  const prefixes = new Map<string, { rows: number; bytes: number; rowsError: number; bytesError: number }>();
  for (const part of parts) {
    total.rows += part.rows;
    total.bytes += part.bytes;
    unsalted.rows += part.unsalted.rows;
    unsalted.bytes += part.unsalted.bytes;
    for (const b of part.buckets) {
      const tally = buckets.get(b.bucket);
      if (tally === undefined)
        throw new ValidationError(
          `${part.entity}: census bucket ${b.bucket} is not a bucket of the first census. Fix: merge censuses of one entity with one salt.`,
          { entity: part.entity, bucket: b.bucket },
        );
      tally.rows += b.rows;
      tally.bytes += b.bytes;
    }
    for (const p of part.prefixes) {
      const sum = prefixes.get(p.prefix) ?? { rows: 0, bytes: 0, rowsError: 0, bytesError: 0 };
      sum.rows += p.rows;
      sum.bytes += p.bytes;
      sum.rowsError += p.rowsError;
      sum.bytesError += p.bytesError;
      prefixes.set(p.prefix, sum);
    }
  }
  for (const part of parts) {
    if (part.otherPrefixes.rows === 0) continue;
    const listed = new Set(part.prefixes.map((p) => p.prefix));
    const rowsBound = Math.min(part.otherPrefixes.rows, ...part.prefixes.map((p) => p.rows));
    const bytesBound = Math.min(part.otherPrefixes.bytes, ...part.prefixes.map((p) => p.bytes));
    for (const [prefix, sum] of prefixes) {
      if (listed.has(prefix)) continue;
      sum.rows += rowsBound;
      sum.rowsError += rowsBound;
      sum.bytes += bytesBound;
      sum.bytesError += bytesBound;
    }
  }
  const kept: CensusPrefix[] = [...prefixes]
    .map(([prefix, sum]) => ({ prefix, ...sum }))
    .sort((a, b) => b.rows - a.rows || Buffer.compare(Buffer.from(a.prefix), Buffer.from(b.prefix)))
    .slice(0, maxPrefixes)
    .sort((a, b) => Buffer.compare(Buffer.from(a.prefix), Buffer.from(b.prefix)));
  const keptRows = kept.reduce((n, p) => n + p.rows, 0);
  const keptBytes = kept.reduce((n, p) => n + p.bytes, 0);
  const others = parts.reduce((n, p) => n + p.otherPrefixes.prefixes, 0);
  const bucketList = [...buckets].map(([bucket, t]) => ({ bucket, rows: t.rows, bytes: t.bytes }));
  return {
    entity: first.entity,
    rows: total.rows,
    bytes: total.bytes,
    buckets: bucketList,
    unsalted,
    prefixes: kept,
    otherPrefixes: {
      prefixes: prefixes.size - kept.length + others,
      rows: Math.max(0, total.rows - keptRows),
      bytes: Math.max(0, total.bytes - keptBytes),
    },
    evenness:
      bucketList.length === 0
        ? undefined
        : {
            rows: toSpread(evenness(new Map(bucketList.map((b) => [b.bucket, b.rows])))),
            bytes: toSpread(evenness(new Map(bucketList.map((b) => [b.bucket, b.bytes])))),
          },
  };
}
