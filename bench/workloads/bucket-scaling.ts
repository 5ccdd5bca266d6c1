import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { saltedDataset, saltedEvents, type SaltedEvents } from '../datasets.js';
import { measureRead, withLimit } from '../read-sample.js';
import { forEachRow, toWideValues } from '../raw-rows.js';
import type { Ratio, ThroughputResult } from '../results.js';

/** Bucket counts of the ordered scans, each its own salted copy of the same rows. @example `SCALING_BUCKETS[2] // 64` */
export const SCALING_BUCKETS = [8, 32, 64] as const;

/** Variant id of the ordered scan over `buckets` buckets. @example `orderedVariantId(32) // 'mapper-ordered-32'` */
export function orderedVariantId(buckets: number): string {
  return `mapper-ordered-${buckets}`;
}

/**
 * Bucket scaling: the same events salted over 8, 32 and 64 md5 buckets, each
 * read whole in logical key order with the mapper's `iterate()` (one read per
 * bucket, every one open at once, k-way merge), against one raw scan of the
 * same rows stored unsalted. Shows what each further bucket costs the merge
 * (more reads in flight, a deeper heap, more rows buffered at once).
 * @example `const result = await bucketScaling(ctx);`
 */
export async function bucketScaling(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows } = ctx.options;
  ctx.log('bucket-scaling:');
  const data = await saltedDataset(ctx);
  const salted: SaltedEvents[] = [];
  for (const buckets of SCALING_BUCKETS) salted.push(await saltedEvents(ctx, buckets));
  const unsaltedTable = ctx.table(data.unsaltedTableId);
  const limitOf = (warmup: boolean): number | undefined => (warmup ? Math.min(warmupRows, data.rows) : undefined);
  const expected = (warmup: boolean): number => limitOf(warmup) ?? data.rows;

  const ordered = (set: SaltedEvents): Variant => {
    const repo = ctx.mapper().getRepository(set.Salted);
    const sources = repo.planScan().sources.length;
    if (sources !== set.buckets) throw new Error(`${set.buckets}-bucket entity plans ${sources} reads`);
    return {
      id: orderedVariantId(set.buckets),
      label: `mapper iterate, ordered merge of ${set.buckets} buckets`,
      side: 'mapper',
      run: (warmup) =>
        measureRead(expected(warmup), async (onRow) => {
          for await (const entity of repo.iterate(withLimit({}, limitOf(warmup)))) onRow(entity);
        }),
    };
  };

  const variants: Variant[] = [
    {
      id: 'raw-unsalted',
      label: 'raw single scan of the unsalted copy',
      side: 'raw',
      run: (warmup) =>
        measureRead(expected(warmup), async (onRow) => {
          await forEachRow(unsaltedTable.createReadStream(withLimit({ decode: false }, limitOf(warmup))), (row) =>
            onRow(toWideValues(row, 'event#'.length)),
          );
        }),
    },
    ...salted.map(ordered),
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  const ratios: Ratio[] = salted.map((set) =>
    ratio(
      results,
      orderedVariantId(set.buckets),
      'raw-unsalted',
      `mapper ordered merge of ${set.buckets} buckets / raw unsalted scan`,
    ),
  );
  return {
    kind: 'throughput',
    id: 'bucket-scaling',
    title: `Ordered salted scans over ${SCALING_BUCKETS.join(', ')} buckets, ${data.rows.toLocaleString('en-US')} rows x 10 cells`,
    rows: data.rows,
    repeats,
    variants: results,
    ratios,
  };
}
