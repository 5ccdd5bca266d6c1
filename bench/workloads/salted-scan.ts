import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { saltedDataset } from '../datasets.js';
import type { WideValues } from '../entities.js';
import { measureRead, withLimit } from '../read-sample.js';
import { forEachRow, toWideValues, type RawRow } from '../raw-rows.js';
import type { ThroughputResult } from '../results.js';

/**
 * Workload 3: a salted entity over 8 buckets, read whole in logical key order.
 * Mapper `iterate()` (one read per bucket, k-way merge) against one raw scan
 * of the same rows stored unsalted; the client's own cost of reading the 8
 * buckets at once, with no ordering (what any merge starts from); and
 * seed 002's recipe: `getRows` on every bucket in parallel, collect
 * everything, sort by the logical key at the end (no row before the sort).
 * One more mapper variant reads the same rows in descending order
 * (`order: 'key-desc'`: every bucket read reversed by the server, merged
 * largest key first), to compare a reversed scan with the forward one.
 * @example `const result = await saltedScan(ctx);`
 */
export async function saltedScan(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows } = ctx.options;
  ctx.log('salted-scan:');
  const data = await saltedDataset(ctx);
  const repo = ctx.mapper().getRepository(data.Salted);
  const segments = repo.planScan().sources.map((s) => s.segment);
  const saltedTable = ctx.table(data.saltedTableId);
  const unsaltedTable = ctx.table(data.unsaltedTableId);
  const limitOf = (warmup: boolean): number | undefined => (warmup ? Math.min(warmupRows, data.rows) : undefined);

  const variants: Variant[] = [
    {
      id: 'mapper-ordered',
      label: 'mapper iterate, ordered merge of 8 buckets',
      side: 'mapper',
      run: (warmup) =>
        measureRead(limitOf(warmup) ?? data.rows, async (onRow) => {
          for await (const entity of repo.iterate(withLimit({}, limitOf(warmup)))) onRow(entity);
        }),
    },
    {
      id: 'mapper-ordered-desc',
      label: "mapper iterate, order: 'key-desc' (8 reversed bucket reads merged)",
      side: 'mapper',
      run: (warmup) =>
        measureRead(limitOf(warmup) ?? data.rows, async (onRow) => {
          for await (const entity of repo.iterate(withLimit({ order: 'key-desc' as const }, limitOf(warmup))))
            onRow(entity);
        }),
    },
    {
      id: 'raw-unsalted',
      label: 'raw single scan of the unsalted copy',
      side: 'raw',
      run: (warmup) =>
        measureRead(limitOf(warmup) ?? data.rows, async (onRow) => {
          await forEachRow(unsaltedTable.createReadStream(withLimit({ decode: false }, limitOf(warmup))), (row) =>
            onRow(toWideValues(row, 'event#'.length)),
          );
        }),
    },
    {
      id: 'raw-8-streams',
      label: 'raw: the 8 bucket streams read at once, unordered',
      side: 'raw',
      run: (warmup) =>
        measureRead(warmup ? undefined : data.rows, async (onRow) => {
          await Promise.all(
            segments.map((prefix) =>
              forEachRow(saltedTable.createReadStream(withLimit({ prefix, decode: false }, limitOf(warmup))), (row) =>
                onRow(toWideValues(row, prefix.length + 'event#'.length)),
              ),
            ),
          );
        }),
    },
    {
      id: 'seed-collect-sort',
      label: 'seed recipe: getRows per bucket in parallel, sort at end',
      side: 'raw',
      run: (warmup) =>
        measureRead(warmup ? undefined : data.rows, async (onRow) => {
          const perBucket = await Promise.all(
            segments.map((prefix) => saltedTable.getRows(withLimit({ prefix, decode: false }, limitOf(warmup)))),
          );
          const all: { logical: string; value: WideValues }[] = [];
          for (const [rows] of perBucket) {
            for (const row of rows) {
              const key = (row.id as unknown as Buffer).toString('utf8');
              all.push({
                logical: key.slice(key.indexOf('#') + 1),
                value: toWideValues(row as unknown as RawRow, key.indexOf('#') + 1 + 'event#'.length),
              });
            }
          }
          all.sort((a, b) => (a.logical < b.logical ? -1 : a.logical > b.logical ? 1 : 0));
          for (const item of all) onRow(item.value);
        }),
    },
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'salted-scan',
    title: `Salted scan in key order, ${data.rows.toLocaleString('en-US')} rows x 10 cells over ${segments.length} buckets`,
    rows: data.rows,
    repeats,
    variants: results,
    ratios: [
      ratio(results, 'mapper-ordered', 'raw-unsalted', 'mapper ordered salted scan / raw unsalted scan'),
      ratio(
        results,
        'raw-8-streams',
        'raw-unsalted',
        'raw 8 bucket streams, unordered / raw unsalted scan (the client alone)',
      ),
      ratio(results, 'mapper-ordered', 'raw-8-streams', 'mapper ordered salted scan / raw 8 bucket streams unordered'),
      ratio(results, 'seed-collect-sort', 'raw-unsalted', 'seed collect+sort / raw unsalted scan'),
      ratio(
        results,
        'mapper-ordered-desc',
        'mapper-ordered',
        "mapper order: 'key-desc' salted scan / mapper ordered (forward) salted scan",
      ),
    ],
  };
}
