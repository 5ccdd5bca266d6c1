import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { resolveSaltHash } from '../codec/hash-presets.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { EntitySchema, SaltSchema } from '../metadata/entity-schema.js';
import type { Constructor, SaltHashPreset } from '../model/declarations.js';
import { encodeKeyComponents } from '../key/logical-key.js';
import { evenness, saltInput } from '../key/salt.js';
import { GOOD_RATIO, toSpread, type Spread } from './spread.js';

/** The bucket counts a study compares by default. */
const DEFAULT_COUNTS: readonly number[] = [5, 10, 20, 50];
/** Most bucket counts one study compares (each costs a hash per key). */
const MAX_COUNTS = 64;
/** Most salt buckets `@Salt` allows. */
const MAX_BUCKETS = 1000;

/**
 * One bucket count of a {@link BucketStudy}: the spread of the keys over that
 * many buckets and the verdict on it.
 *
 * @example
 * ```ts
 * const row: BucketStudyRow = { buckets: 10, min: 95, max: 108, ratio: 1.14, emptyBuckets: 0, verdict: 'good' };
 * ```
 */
export interface BucketStudyRow extends Spread {
  /** The bucket count studied. */
  readonly buckets: number;
  /** Buckets no key hashed to. */
  readonly emptyBuckets: number;
  /** `good` when `ratio` is under the threshold, else `uneven` (an empty bucket is always `uneven`). */
  readonly verdict: 'good' | 'uneven';
}

/**
 * What {@link bucketStudy} returns: plain JSON.
 *
 * @example
 * ```ts
 * const study: BucketStudy = bucketStudy(Reading, keys);
 * console.table(study.rows);
 * ```
 */
export interface BucketStudy {
  /** The entity class name. */
  readonly entity: string;
  /** The hash preset studied (the entity's, or `md5` for an unsalted entity). */
  readonly hash: SaltHashPreset;
  /** The key properties hashed, in key order. */
  readonly on: readonly string[];
  /** Keys read. */
  readonly keys: number;
  /** The `max / min` under which a count is `good`: 1.5, "good enough" for hash-salted buckets. */
  readonly threshold: number;
  /** One row per bucket count, in the order given. */
  readonly rows: readonly BucketStudyRow[];
}

/**
 * A bucket-count study of your own keys, to pick a bucket count before
 * salting: hashes each logical key the way the entity's `@Salt` does (same
 * `on`, same hash preset; the whole key with `md5` when the entity is not
 * salted) into each bucket count, and reports min, max and `max / min` rows
 * per bucket with a verdict (under 1.5 is good). Keys are objects of key
 * property values, read once, one at a time; only the properties the salt
 * hashes are needed. Empty buckets count as 0 (leaving them out would hide them).
 *
 * @example
 * ```ts
 * const keys = sensorIds.map((sensorId) => ({ sensorId, ts: new Date() }));
 * const study = bucketStudy(Reading, keys, [4, 8, 16]);
 * study.rows.filter((r) => r.verdict === 'good').map((r) => r.buckets);
 * ```
 */
export function bucketStudy(
  entity: Constructor | EntitySchema,
  logicalKeys: Iterable<Readonly<Record<string, unknown>>>,
  counts: readonly number[] = DEFAULT_COUNTS,
): BucketStudy {
  const schema = typeof entity === 'function' ? compileEntity(entity) : entity;
  const base = studiedSalt(schema);
  const salts = checkCounts(schema.name, counts).map((n) => withBuckets(schema.name, base, n));
  const tallies = salts.map((salt) => new Map<number, number>(salt.allBuckets.map((b) => [b, 0])));
  let keys = 0;
  for (const key of logicalKeys) {
    if (key === null || typeof key !== 'object') {
      throw new ValidationError(
        `${schema.name}: bucketStudy key ${keys} is ${preview(key)}, not an object of key properties. ` +
          `Fix: pass objects such as { ${base.on.map((p) => `${p}: …`).join(', ')} }.`,
        { entity: schema.name, index: keys },
      );
    }
    const input = saltInput(base, encodeKeyComponents(schema, key, 'prefix'), schema.key.separator, schema.name);
    salts.forEach((salt, i) => {
      const tally = tallies[i] as Map<number, number>;
      const bucket = salt.bucketOf(input);
      tally.set(bucket, (tally.get(bucket) ?? 0) + 1);
    });
    keys++;
  }
  const rows = salts.map((salt, i): BucketStudyRow => {
    const tally = tallies[i] as Map<number, number>;
    const spread = toSpread(evenness(tally));
    const emptyBuckets = [...tally.values()].filter((n) => n === 0).length;
    const verdict = spread.ratio !== null && spread.ratio < GOOD_RATIO ? 'good' : 'uneven';
    return { buckets: salt.buckets, ...spread, emptyBuckets, verdict };
  });
  return { entity: schema.name, hash: base.hash as SaltHashPreset, on: base.on, keys, threshold: GOOD_RATIO, rows };
}

/** The entity's salt, or for an unsalted entity an `md5` salt over the whole key. */
function studiedSalt(schema: EntitySchema): SaltSchema {
  const salt = schema.key.salt;
  if (salt?.hash === 'custom') {
    throw new ValidationError(
      `${schema.name}: bucketStudy cannot re-bucket a custom @Salt hash function, only the presets. ` +
        `Fix: study the preset you would use, e.g. @Salt({ hash: 'md5' }), or count your function's buckets with bucketCounts().`,
      { entity: schema.name },
    );
  }
  if (salt !== undefined) return salt;
  return {
    buckets: 1,
    on: schema.key.properties,
    prefixLength: schema.key.components.length,
    hash: 'md5',
    bucketOf: () => 0,
    width: 2,
    separator: schema.key.separator,
    allBuckets: [0],
    since: undefined,
  };
}

function withBuckets(entity: string, salt: SaltSchema, buckets: number): SaltSchema {
  const hash = resolveSaltHash(entity, salt.hash as SaltHashPreset, buckets);
  return { ...salt, buckets, bucketOf: hash.bucketOf, allBuckets: hash.allBuckets };
}

function checkCounts(entity: string, counts: readonly number[]): readonly number[] {
  const ok =
    Array.isArray(counts) &&
    counts.length > 0 &&
    counts.length <= MAX_COUNTS &&
    counts.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_BUCKETS);
  if (!ok) {
    throw new ValidationError(
      `${entity}: bucketStudy counts ${preview(counts)} must be 1 to ${MAX_COUNTS} integers from 1 to ${MAX_BUCKETS}. ` +
        `Fix: pass bucket counts such as [5, 10, 20, 50], or leave them out for those.`,
      { entity, counts: preview(counts) },
    );
  }
  return counts;
}
