import type { Repository } from '../../src/index.js';
import type { WideValues } from '../entities.js';
import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { wideDataset } from '../datasets.js';
import { measureRead, withLimit } from '../read-sample.js';
import { toClientFilter } from '../../test/support/client-filter.js';
import { forEachRow, toWideValues } from '../raw-rows.js';
import type { ThroughputResult } from '../results.js';

/**
 * The mapper side of scan-hydrate and node-ceiling: `iterate()` over the wide
 * table, whole or cut to the warm-up's rows.
 * @example `mapperIterateVariant(repo, limitOf, expected)`
 */
export function mapperIterateVariant(
  repo: Repository<WideValues>,
  limitOf: (warmup: boolean) => number | undefined,
  expected: (warmup: boolean) => number,
): Variant {
  return {
    id: 'mapper-iterate',
    label: 'mapper iterate',
    side: 'mapper',
    run: (warmup) =>
      measureRead(expected(warmup), async (onRow) => {
        for await (const entity of repo.iterate(withLimit({}, limitOf(warmup)))) onRow(entity);
      }),
  };
}

/**
 * Workload 2: full scan + hydrate of the wide table: mapper `iterate()` (typed
 * entities) against the raw `createReadStream({ decode: false })` building a
 * plain object with the same typed fields per row; and the raw stream given
 * the very filter the mapper sends, to separate the emulator's cost of
 * evaluating that filter from the mapper's own.
 * @example `const result = await scanHydrate(ctx);`
 */
export async function scanHydrate(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows } = ctx.options;
  ctx.log('scan-hydrate:');
  const data = await wideDataset(ctx);
  const repo = ctx.mapper().getRepository(data.Wide);
  const table = ctx.table(data.tableId);
  const mapperFilter = toClientFilter(repo.planScan().filter) as unknown as object;
  const limitOf = (warmup: boolean): number | undefined => (warmup ? Math.min(warmupRows, data.rows) : undefined);
  const expected = (warmup: boolean): number => limitOf(warmup) ?? data.rows;

  const variants: Variant[] = [
    mapperIterateVariant(repo, limitOf, expected),
    {
      id: 'raw-read-stream',
      label: 'raw createReadStream + plain object',
      side: 'raw',
      run: (warmup) =>
        measureRead(expected(warmup), async (onRow) => {
          await forEachRow(table.createReadStream(withLimit({ decode: false }, limitOf(warmup))), (row) =>
            onRow(toWideValues(row, 4)),
          );
        }),
    },
    {
      id: 'raw-read-stream-filtered',
      label: "raw createReadStream + the mapper's filter",
      side: 'raw',
      run: (warmup) =>
        measureRead(expected(warmup), async (onRow) => {
          await forEachRow(
            table.createReadStream(withLimit({ decode: false, filter: mapperFilter }, limitOf(warmup))),
            (row) => onRow(toWideValues(row, 4)),
          );
        }),
    },
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'scan-hydrate',
    title: `Full scan + hydrate, ${data.rows.toLocaleString('en-US')} rows x 10 cells`,
    rows: data.rows,
    repeats,
    variants: results,
    ratios: [
      ratio(results, 'mapper-iterate', 'raw-read-stream', 'mapper iterate / raw createReadStream'),
      ratio(
        results,
        'mapper-iterate',
        'raw-read-stream-filtered',
        "mapper iterate / raw createReadStream with the mapper's filter",
      ),
      ratio(
        results,
        'raw-read-stream-filtered',
        'raw-read-stream',
        "raw with the mapper's filter / raw without (emulator filter cost)",
      ),
    ],
  };
}
