import type { Table } from '@google-cloud/bigtable';
import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { wideDataset } from '../datasets.js';
import { sampleIds, wideKey } from '../dataset.js';
import { measureRead } from '../read-sample.js';
import { toWideValues, type RawRow } from '../raw-rows.js';
import { bounded } from '../raw-writes.js';
import type { ThroughputResult } from '../results.js';

/** Point reads in flight. @example `POINT_CONCURRENCY // 16` */
export const POINT_CONCURRENCY = 16;

/**
 * The raw baseline of point-reads and find-many: `row(key).get({ decode: false })`
 * with {@link POINT_CONCURRENCY} in flight, building the same plain object.
 * @example `rawRowGetVariant(ctx.table(data.tableId), idsFor)`
 */
export function rawRowGetVariant(table: Table, idsFor: (warmup: boolean) => number[]): Variant {
  return {
    id: 'raw-row-get',
    label: `raw row.get + plain object (${POINT_CONCURRENCY} in flight)`,
    side: 'raw',
    run: (warmup) => {
      const keys = idsFor(warmup);
      return measureRead(keys.length, (onRow) =>
        bounded(keys.length, POINT_CONCURRENCY, async (i) => {
          const key = wideKey(keys[i] as number);
          const [row] = await table.row(key).get({ decode: false });
          onRow(toWideValues({ id: key, data: row.data as RawRow['data'] }, 4));
        }),
      );
    },
  };
}

/**
 * Workload 4: point reads of pseudo-random keys of the wide table, 16 in
 * flight: mapper `findOne` against raw `row.get({ decode: false })` building
 * the same plain object.
 * @example `const result = await pointReads(ctx);`
 */
export async function pointReads(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats, warmupRows, pointReads: count } = ctx.options;
  ctx.log('point-reads:');
  const data = await wideDataset(ctx);
  const repo = ctx.mapper().getRepository(data.Wide);
  const table = ctx.table(data.tableId);
  const ids = sampleIds(data.rows, count);
  const idsFor = (warmup: boolean): number[] => (warmup ? ids.slice(0, Math.min(warmupRows, ids.length)) : ids);

  const variants: Variant[] = [
    {
      id: 'mapper-find-one',
      label: `mapper findOne (${POINT_CONCURRENCY} in flight)`,
      side: 'mapper',
      run: (warmup) => {
        const keys = idsFor(warmup);
        return measureRead(keys.length, (onRow) =>
          bounded(keys.length, POINT_CONCURRENCY, async (i) => {
            const found = await repo.findOne({ id: keys[i] as number });
            if (found === undefined) throw new Error(`findOne: row ${String(keys[i])} missing`);
            onRow(found);
          }),
        );
      },
    },
    rawRowGetVariant(table, idsFor),
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'point-reads',
    title: `Point reads, ${count.toLocaleString('en-US')} keys, ${POINT_CONCURRENCY} in flight`,
    rows: count,
    repeats,
    variants: results,
    ratios: [ratio(results, 'mapper-find-one', 'raw-row-get', 'mapper findOne / raw row.get')],
  };
}
