import { alternate, ratio, sample, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { defineWideRow, type WideValues } from '../entities.js';
import { entities, plainRows, wideKey } from '../dataset.js';
import { startClock } from '../measure.js';
import type { Table } from '@google-cloud/bigtable';
import { objectEntry, prebuiltEntry, PrebuiltInstance, rowData, type PrebuiltEntry } from '../raw-entries.js';
import { bounded, inBatches } from '../raw-writes.js';
import type { RunSample, ThroughputResult } from '../results.js';

/** Rows per MutateRows call and calls in flight: the raw client's best settings, also the mapper's defaults. @example `BULK.batchSize // 500` */
export const BULK = { batchSize: 500, concurrency: 2 } as const;

/** Rows in flight for the seeds' one-`row.save`-per-entity recipe. @example `RECIPE_CONCURRENCY // 16` */
export const RECIPE_CONCURRENCY = 16;

/**
 * Workload 1: bulk write of wide entities (10 cells), each run into a fresh
 * table. Every variant starts from the same domain objects, and its clock
 * covers turning them into requests and sending them: mapper `saveMany`;
 * raw `table.insert` with object entries; raw pre-built `rawMutation` entries;
 * the same pre-built entries sent the way the mapper's driver sends them
 * (class instances the client does not deep-copy, in one nested list it
 * flattens in O(n)): the best a hand-written loop does; and the seeds' recipe,
 * one `row.save` per entity (on fewer rows).
 * @example `const result = await bulkWrite(ctx);`
 */
export async function bulkWrite(ctx: BenchContext): Promise<ThroughputResult> {
  const { rows, recipeRows, warmupRows, repeats } = ctx.options;
  const size = (warmup: boolean, n: number): number => (warmup ? Math.min(warmupRows, n) : n);

  /** Creates a fresh table, prepares untimed, times `write`, drops the table. */
  const timedWrite = async (
    tag: string,
    n: number,
    prepare: (tableId: string) => () => Promise<void>,
  ): Promise<RunSample> => {
    const tableId = await ctx.createTable(tag);
    try {
      const write = prepare(tableId);
      const clock = startClock();
      await write();
      return sample(n, clock.stop());
    } finally {
      await ctx.dropTable(tableId);
    }
  };

  /** A raw variant that sends pre-built entries of the same rows through `send`. */
  const prebuiltVariant = (
    id: string,
    label: string,
    send: (table: Table, entries: PrebuiltEntry[]) => Promise<unknown>,
  ): Variant => ({
    id,
    label,
    side: 'raw',
    run: (warmup) => {
      const n = size(warmup, rows);
      return timedWrite(`w-${id}`, n, (tableId) => {
        const table = ctx.table(tableId);
        const input = plainRows(0, n);
        return () => {
          const micros = Date.now() * 1000;
          return inBatches(n, BULK.batchSize, BULK.concurrency, (from, to) =>
            send(
              table,
              input.slice(from, to).map((v) => prebuiltEntry(wideKey(v.id), v, micros)),
            ),
          );
        };
      });
    },
  });

  const variants: Variant[] = [
    {
      id: 'mapper-save-many',
      label: 'mapper saveMany',
      side: 'mapper',
      run: (warmup) => {
        const n = size(warmup, rows);
        return timedWrite('w-mapper', n, (tableId) => {
          const Wide = defineWideRow(tableId);
          const repo = ctx.mapper().getRepository(Wide);
          const input = entities(Wide, 0, n);
          return async () => {
            const { written } = await repo.saveMany(input, BULK);
            if (written !== n) throw new Error(`saveMany wrote ${written} of ${n} rows`);
          };
        });
      },
    },
    {
      id: 'raw-insert-objects',
      label: 'raw insert (object entries)',
      side: 'raw',
      run: (warmup) => {
        const n = size(warmup, rows);
        return timedWrite('w-objects', n, (tableId) => {
          const table = ctx.table(tableId);
          const input = plainRows(0, n);
          return () =>
            inBatches(n, BULK.batchSize, BULK.concurrency, (from, to) =>
              table.insert(input.slice(from, to).map((v) => objectEntry(wideKey(v.id), v))),
            );
        });
      },
    },
    prebuiltVariant('raw-mutate-prebuilt', 'raw mutate (pre-built rawMutation)', (table, entries) =>
      table.mutate(entries, { rawMutation: true }),
    ),
    prebuiltVariant(
      'raw-mutate-tuned',
      "raw mutate (pre-built, with the mapper's two client workarounds)",
      (table, entries) =>
        table.mutate([entries.map((entry) => new PrebuiltInstance(entry))] as unknown as PrebuiltInstance[], {
          rawMutation: true,
        }),
    ),
    {
      id: 'seed-row-save',
      label: `seed recipe: row.save each (${RECIPE_CONCURRENCY} in flight)`,
      side: 'raw',
      run: (warmup) => {
        const n = size(warmup, recipeRows);
        return timedWrite('w-recipe', n, (tableId) => {
          const table = ctx.table(tableId);
          const input = plainRows(0, n);
          return () =>
            bounded(n, RECIPE_CONCURRENCY, (i) => {
              const v = input[i] as WideValues;
              return table.row(wideKey(v.id)).save(rowData(v));
            });
        });
      },
    },
  ];
  ctx.log(`bulk-write: ${rows} rows (${recipeRows} for the row.save recipe), ${repeats} alternated runs`);
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'bulk-write',
    title: `Bulk write, ${rows.toLocaleString('en-US')} entities x 10 cells (batches of ${BULK.batchSize}, ${BULK.concurrency} in flight)`,
    rows,
    repeats,
    variants: results,
    ratios: [
      ratio(results, 'mapper-save-many', 'raw-insert-objects', 'saveMany / raw object-entry insert'),
      ratio(results, 'mapper-save-many', 'raw-mutate-prebuilt', 'saveMany / raw pre-built loop'),
      ratio(
        results,
        'mapper-save-many',
        'raw-mutate-tuned',
        "saveMany / raw pre-built loop with the mapper's client workarounds",
      ),
      ratio(results, 'mapper-save-many', 'seed-row-save', 'saveMany / seed row.save recipe'),
    ],
  };
}
