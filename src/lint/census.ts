import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import { isSaltedKey } from '../key/physical-key.js';
import { evenness, parseSaltSegment } from '../key/salt.js';
import { toSpread, type Spread } from './spread.js';

/** Default and largest number of distinct key prefixes a census tells apart. */
const DEFAULT_MAX_PREFIXES = 1000;
const MAX_PREFIXES_LIMIT = 100_000;
/** Distinct prefixes past `maxPrefixes` counted before `otherPrefixes.prefixes` stops growing. */
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
 * const p: CensusPrefix = { prefix: 'sensor-7', rows: 310, bytes: 24_800 };
 * ```
 */
export interface CensusPrefix extends CensusTally {
  /** The leading logical key components, as key text. */
  readonly prefix: string;
}

/**
 * The rows of a {@link Census} whose prefix came after `maxPrefixes` distinct ones.
 *
 * @example
 * ```ts
 * const o: CensusOverflow = { prefixes: 12, rows: 40, bytes: 3_200 };
 * ```
 */
export interface CensusOverflow extends CensusTally {
  /** Distinct prefixes among them, counted up to 10,000. */
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
  /** Distinct prefixes counted one by one; rows of any further prefix go to `otherPrefixes`. Default 1,000. */
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
  /** Per logical key prefix (the first `prefixComponents` components, as key text), in key order. */
  readonly prefixes: readonly CensusPrefix[];
  /** Rows whose prefix came after `maxPrefixes` distinct ones. */
  readonly otherPrefixes: CensusOverflow;
  /** `max / min` rows and bytes per salt bucket; `undefined` for an unsalted entity. */
  readonly evenness: CensusEvenness | undefined;
}

/**
 * Counts rows and bytes per salt bucket and per key prefix from a table's
 * physical keys, the data of a bucket-evenness check after the fact (seed 002:
 * "verify your distribution"). Pure and streaming: the caller feeds it, for
 * example, a scan's keys and sizes; memory stays bounded by the bucket count
 * and `maxPrefixes`.
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
  readonly #prefixes = new Map<string, { rows: number; bytes: number }>();
  readonly #unsalted = { rows: 0, bytes: 0 };
  readonly #other = { prefixes: 0, rows: 0, bytes: 0 };
  readonly #otherSeen = new Set<string>();
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
  }

  /** Counts one row: its physical key and its size in bytes. */
  add(row: { readonly key: Uint8Array; readonly bytes: number }): void {
    const schema = this.#schema;
    const { salt, separator } = schema.key;
    const { key, bytes } = checkRow(schema.name, row, this.#total.rows);
    const text = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('utf8');
    const parsed = salt === undefined ? undefined : parseSaltSegment(salt, text);
    const salted = parsed !== undefined && isSaltedKey(schema, text);
    add(salted ? (this.#buckets.get(parsed.bucket) as { rows: number; bytes: number }) : this.#unsalted, bytes);
    const prefix = (salted ? parsed.rest : text).split(separator).slice(0, this.#prefixComponents).join(separator);
    const group = this.#prefixes.get(prefix);
    if (group !== undefined) add(group, bytes);
    else if (this.#prefixes.size < this.#maxPrefixes) this.#prefixes.set(prefix, { rows: 1, bytes });
    else {
      if (this.#otherSeen.size < MAX_OTHER_COUNTED) this.#otherSeen.add(prefix);
      this.#other.prefixes = this.#otherSeen.size;
      add(this.#other, bytes);
    }
    add(this.#total, bytes);
  }

  /** The census of the rows counted so far. */
  result(): Census {
    const bucketList = [...this.#buckets].map(([bucket, t]) => ({ bucket, rows: t.rows, bytes: t.bytes }));
    return {
      entity: this.#schema.name,
      rows: this.#total.rows,
      bytes: this.#total.bytes,
      buckets: bucketList,
      unsalted: { ...this.#unsalted },
      prefixes: [...this.#prefixes]
        .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        .map(([prefix, t]) => ({ prefix, rows: t.rows, bytes: t.bytes })),
      otherPrefixes: { ...this.#other },
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
