import { alternate, ratio, type Variant } from '../alternate.js';
import { bareDataClient, countRows } from '../bare-read-rows.js';
import type { BenchContext } from '../context.js';
import { wideDataset } from '../datasets.js';
import { measureRead } from '../read-sample.js';
import { mapperIterateVariant } from './scan-hydrate.js';
import type { ThroughputResult } from '../results.js';

/**
 * Node's ceiling for a full scan: the wide table of scan-hydrate read by the
 * mapper's `iterate()` (typed entities) against a bare ReadRows loop on the
 * client's exported generated `v2.BigtableClient` (its own channel, insecure
 * credentials) that only counts rows by their `commitRow` chunks: gRPC and
 * protobuf decoding and nothing else, no chunk merging, no objects built, no
 * filter sent. What is left between the two is everything the mapper (and
 * any client) adds on top of the RPC.
 * @example `const result = await nodeCeiling(ctx);`
 */
export async function nodeCeiling(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows } = ctx.options;
  ctx.log('node-ceiling:');
  const data = await wideDataset(ctx);
  const repo = ctx.mapper().getRepository(data.Wide);
  const tableName = ctx.table(data.tableId).name;
  const limitOf = (warmup: boolean): number | undefined => (warmup ? Math.min(warmupRows, data.rows) : undefined);
  const expected = (warmup: boolean): number => limitOf(warmup) ?? data.rows;
  const client = bareDataClient(ctx.options.emulatorHost, ctx.bigtable.projectId);
  try {
    const variants: Variant[] = [
      mapperIterateVariant(repo, limitOf, expected),
      {
        id: 'raw-bare-read-rows',
        label: 'bare ReadRows RPC (v2.BigtableClient), rows counted by commitRow',
        side: 'raw',
        run: (warmup) =>
          measureRead(expected(warmup), async (onRow) => {
            const limit = limitOf(warmup);
            await countRows(client, limit === undefined ? { tableName } : { tableName, rowsLimit: limit }, onRow);
          }),
      },
    ];
    const results = await alternate(variants, repeats, (line) => ctx.log(line));
    return {
      kind: 'throughput',
      id: 'node-ceiling',
      title: `Node ceiling: full scan, ${data.rows.toLocaleString('en-US')} rows x 10 cells, against a bare ReadRows loop`,
      rows: data.rows,
      repeats,
      variants: results,
      ratios: [
        ratio(results, 'mapper-iterate', 'raw-bare-read-rows', "mapper iterate / bare ReadRows loop (Node's ceiling)"),
      ],
    };
  } finally {
    await client.close();
  }
}
