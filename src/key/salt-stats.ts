import { ValidationError } from '../errors/validation-error.js';
import type { SaltSchema } from '../metadata/entity-schema.js';

/**
 * Spread of rows over buckets: fewest and most rows in a bucket, and
 * `max / min` (`Infinity` when a bucket is empty). Near 1 is even; under 1.5
 * is usually good enough.
 *
 * @example
 * ```ts
 * const e: Evenness = { min: 95, max: 104, ratio: 1.09 };
 * ```
 */
export interface Evenness {
  /** Rows in the emptiest bucket. */
  readonly min: number;
  /** Rows in the fullest bucket. */
  readonly max: number;
  /** `max / min`; `Infinity` when a bucket is empty. */
  readonly ratio: number;
}

/**
 * Rows per bucket for the given salt inputs; every bucket of `allBuckets` is
 * present, empty ones with 0.
 *
 * @example
 * ```ts
 * const counts = bucketCounts(salt, keys.map((k) => saltInput(salt, k, '#')));
 * ```
 */
export function bucketCounts(salt: SaltSchema, inputs: Iterable<string>): Map<number, number> {
  const counts = new Map<number, number>(salt.allBuckets.map((bucket) => [bucket, 0]));
  for (const input of inputs) {
    const bucket = salt.bucketOf(input);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return counts;
}

/**
 * Min, max and max/min of per-bucket counts (the seed's distribution check).
 *
 * @example
 * ```ts
 * evenness(new Map([[0, 10], [1, 12]])); // { min: 10, max: 12, ratio: 1.2 }
 * ```
 */
export function evenness(counts: ReadonlyMap<number, number>): Evenness {
  if (counts.size === 0) {
    throw new ValidationError(
      'evenness() needs at least one bucket count. Fix: pass the result of bucketCounts(salt, inputs).',
    );
  }
  const values = [...counts.values()];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { min, max, ratio: min > 0 ? max / min : Infinity };
}
