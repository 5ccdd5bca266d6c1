import type { BigtableMapper, Repository } from '../../src/index.js';
import { rawKeys } from '../shared/raw-keys.js';

/**
 * Rows stored per salt bucket, counted in the table: one keys-only read per
 * source of the whole-table scan plan (each source is one bucket's range).
 * Also returns the first physical keys, in stored order.
 *
 * @example
 * ```ts
 * const { counts } = await bucketCensus(mapper, events); // Map { 0 => 1003, 1 => 987, ... }
 * ```
 */
export async function bucketCensus<T extends object>(
  mapper: BigtableMapper,
  repo: Repository<T>,
  sample = 3,
): Promise<{ counts: Map<number, number>; firstKeys: string[] }> {
  const salt = repo.schema.key.salt;
  if (salt === undefined) throw new Error(`${repo.schema.name} is not salted`);
  const plan = repo.planScan();
  const counts = new Map<number, number>();
  const firstKeys: string[] = [];
  await Promise.all(
    plan.sources.map(async (source) => {
      const bucket = Number(source.segment.slice(0, -salt.separator.length));
      const keys = await rawKeys(mapper, plan.table, source.range);
      if (bucket === salt.allBuckets[0]) firstKeys.push(...keys.slice(0, sample));
      counts.set(bucket, keys.length);
    }),
  );
  return { counts: new Map([...counts].sort(([a], [b]) => a - b)), firstKeys };
}
