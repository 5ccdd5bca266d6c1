import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError, ValidationError } from '../errors/errors.js';
import type { SaltHashFunction, SaltHashPreset } from '../model/declarations.js';
import { floorMod, javaStringHashBucket, javaStringHashSignedBucket } from './java-hash.js';
import { md5Bucket, md5Int32Bucket } from './md5.js';

/**
 * Most salt buckets an entity may declare.
 */
const MAX_SALT_BUCKETS = 1000;

/**
 * The built-in hash presets, default first.
 * @internal
 */
export const SALT_HASH_PRESETS: readonly SaltHashPreset[] = Object.freeze([
  'md5',
  'md5-int32',
  'java-string-hashcode',
  'java-string-hashcode-signed',
]);

const PRESET_BUCKETS: Readonly<Record<SaltHashPreset, (input: string, buckets: number) => number>> = {
  md5: md5Bucket,
  'md5-int32': md5Int32Bucket,
  'java-string-hashcode': javaStringHashBucket,
  'java-string-hashcode-signed': javaStringHashSignedBucket,
};

/**
 * A salt hash bound to a bucket count.
 */
interface ResolvedSaltHash {
  /** Preset name, or `custom` for a function. */
  readonly name: SaltHashPreset | 'custom';
  /** Salt input text → bucket. */
  readonly bucketOf: (input: string) => number;
  /** Every bucket `bucketOf` can return, ascending: `0..N-1`, or `-(N-1)..N-1` for the signed preset. */
  readonly allBuckets: readonly number[];
}

/**
 * True when `value` names a built-in hash preset.
 * @internal
 */
export function isSaltHashPreset(value: unknown): value is SaltHashPreset {
  return typeof value === 'string' && (SALT_HASH_PRESETS as readonly string[]).includes(value);
}

/**
 * Validates `@Salt`'s `buckets` and `hash` (MetadataError naming the entity) and
 * binds the hash to the bucket count. A custom function's result must be a
 * safe integer (ValidationError at use); its bucket is the floor modulo.
 * @internal
 */
export function resolveSaltHash(
  entity: string,
  hash: SaltHashPreset | SaltHashFunction | undefined,
  buckets: number,
): ResolvedSaltHash {
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > MAX_SALT_BUCKETS) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt buckets must be an integer from 1 to ${MAX_SALT_BUCKETS}, got ${preview(buckets)}`,
      `declare @Salt({ buckets: 8 }), for example 2 to 3 buckets per cluster node`,
    );
  }
  if (typeof hash === 'function') {
    return Object.freeze({
      name: 'custom',
      bucketOf: customBucketOf(entity, hash, buckets),
      allBuckets: range(0, buckets - 1),
    });
  }
  const name = hash ?? 'md5';
  if (!isSaltHashPreset(name)) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt hash ${preview(hash)} is not a known preset`,
      `use one of ${SALT_HASH_PRESETS.map((p) => `'${p}'`).join(', ')}, or a function (input: string) => number`,
    );
  }
  const preset = PRESET_BUCKETS[name];
  const low = name === 'java-string-hashcode-signed' ? -(buckets - 1) : 0;
  return Object.freeze({
    name,
    bucketOf: (input: string) => preset(input, buckets),
    allBuckets: range(low, buckets - 1),
  });
}

function customBucketOf(entity: string, hash: SaltHashFunction, buckets: number): (input: string) => number {
  return (input) => {
    const value: unknown = hash(input);
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new ValidationError(
        `${entity}: the custom @Salt hash returned ${preview(value)} for ${preview(input)}, not a safe integer. ` +
          `Fix: make the function return an integer, for example \`hash >>> 0\` of a 32-bit hash.`,
        { entity, input: preview(input), value: preview(value) },
      );
    }
    return floorMod(value, buckets);
  };
}

function range(low: number, high: number): readonly number[] {
  return Object.freeze(Array.from({ length: high - low + 1 }, (_, i) => low + i));
}
