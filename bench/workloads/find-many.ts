import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { wideDataset } from '../datasets.js';
import { sampleIds } from '../dataset.js';
import { measureRead } from '../read-sample.js';
import type { ThroughputResult } from '../results.js';
import { POINT_CONCURRENCY, rawRowGetVariant } from './point-reads.js';

/**
 * Batched key reads: the same pseudo-random keys of the wide table as
 * point-reads, read by one mapper `findMany` (one ReadRows per 1,000 keys,
 * results in input order) against the raw loop a user writes without it,
 * `row(key).get({ decode: false })` with 16 in flight, building the same
 * plain object.
 * @example `const result = await findMany(ctx);`
 */
export async function findMany(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows, pointReads: count } = ctx.options;
  ctx.log('find-many:');
  const data = await wideDataset(ctx);
  const repo = ctx.mapper().getRepository(data.Wide);
  const table = ctx.table(data.tableId);
  const ids = sampleIds(data.rows, count);
  const idsFor = (warmup: boolean): number[] => (warmup ? ids.slice(0, Math.min(warmupRows, ids.length)) : ids);

  const variants: Variant[] = [
    {
      id: 'mapper-find-many',
      label: `mapper findMany (${count.toLocaleString('en-US')} keys in one call)`,
      side: 'mapper',
      run: (warmup) => {
        const keys = idsFor(warmup);
        return measureRead(keys.length, async (onRow) => {
          const found = await repo.findMany(keys.map((id) => ({ id })));
          for (const [i, entity] of found.entries()) {
            if (entity === undefined) throw new Error(`findMany: row ${String(keys[i])} missing`);
            onRow(entity);
          }
        });
      },
    },
    rawRowGetVariant(table, idsFor),
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'find-many',
    title: `Batched key reads, ${count.toLocaleString('en-US')} keys: findMany vs ${POINT_CONCURRENCY} row.get in flight`,
    rows: count,
    repeats,
    variants: results,
    ratios: [ratio(results, 'mapper-find-many', 'raw-row-get', 'mapper findMany / raw row.get loop')],
  };
}
