import type { BenchContext } from '../context.js';
import { alternate, ratio, type Variant } from '../alternate.js';
import { pad10, smallValue } from '../dataset.js';
import { defineSmallRow } from '../entities.js';
import { smallEntry } from '../raw-entries.js';
import { loadPrebuilt } from '../raw-writes.js';
import { measureRead, withLimit } from '../read-sample.js';
import { forEachRow } from '../raw-rows.js';
import type { ThroughputResult } from '../results.js';

/** The `parallelism` settings measured, each against the raw single stream. @example `PARALLELISM_LEVELS.map(parallelVariantId)` */
export const PARALLELISM_LEVELS = [1, 2, 4, 8] as const;

/** The variant id of the mapper's scan at `parallelism`. @example `parallelVariantId(4) // 'mapper-parallel-4'` */
export function parallelVariantId(parallelism: number): string {
  return `mapper-parallel-${parallelism}`;
}

/** Checks that ids arrive in key order, each once, from `0` to `count - 1`: the ordered output is exact. */
class OrderCheck {
  #next = 0;
  constructor(readonly label: string) {}

  see(id: number): void {
    if (id !== this.#next) throw new Error(`${this.label}: row ${this.#next} expected in key order, got ${id}`);
    this.#next += 1;
  }

  finish(count: number): void {
    if (this.#next !== count) throw new Error(`${this.label}: read ${this.#next} rows, expected ${count}`);
  }
}

/**
 * Workload: a full scan of `parallelRows` unsalted small rows (written once
 * with the raw pre-built loop, untimed) in key order with `parallelism` 1, 2,
 * 4 and 8, against the raw single-stream `createReadStream({ decode: false })`
 * building a plain object per row. Every mapper run checks its output is
 * exact: every id once, in key order (so the count and the first and last
 * keys). At most 2 timed runs per variant: the table is large.
 * @example `const result = await parallelScan(ctx);`
 */
export async function parallelScan(ctx: BenchContext): Promise<ThroughputResult> {
  const rows = ctx.options.parallelRows;
  const repeats = Math.min(ctx.options.repeats, 2);
  ctx.log(`parallel-scan: ${rows} small rows`);
  const tableId = await ctx.createTable('parallel');
  try {
    const micros = Date.now() * 1000;
    ctx.log('  loading (raw pre-built loop, untimed)');
    await loadPrebuilt(ctx.table(tableId), rows, (i) => smallEntry(`m#${pad10(i)}`, smallValue(i), micros), 1000, 2);
    const repo = ctx.mapper().getRepository(defineSmallRow(tableId));
    const table = ctx.table(tableId);
    const samples = await ctx.mapper().driver.sampleRowKeys({ table: tableId });
    ctx.log(`  the emulator sampled ${samples.length} row keys`);
    const limitOf = (warmup: boolean): number | undefined =>
      warmup ? Math.min(ctx.options.warmupRows, rows) : undefined;
    const expected = (warmup: boolean): number => limitOf(warmup) ?? rows;
    const variants: Variant[] = [
      {
        id: 'raw-read-stream',
        label: 'raw createReadStream (one stream) + plain object',
        side: 'raw',
        run: (warmup) =>
          measureRead(expected(warmup), async (onRow) => {
            await forEachRow(table.createReadStream(withLimit({ decode: false }, limitOf(warmup))), (row) => {
              const v = row.data['f']?.['v']?.[0]?.value as Buffer;
              onRow({ id: Number((row.id as Buffer).toString('latin1', 2)), v: v.toString('utf8') });
            });
          }),
      },
      ...PARALLELISM_LEVELS.map((parallelism): Variant => ({
        id: parallelVariantId(parallelism),
        label: `mapper iterate, parallelism ${parallelism}`,
        side: 'mapper',
        run: async (warmup) => {
          const order = new OrderCheck(`parallelism ${parallelism}`);
          const sample = await measureRead(expected(warmup), async (onRow) => {
            for await (const entity of repo.iterate(withLimit({ parallelism }, limitOf(warmup)))) {
              order.see(entity.id);
              onRow(entity);
            }
          });
          order.finish(expected(warmup));
          return sample;
        },
      })),
    ];
    const results = await alternate(variants, repeats, (line) => ctx.log(line));
    return {
      kind: 'throughput',
      id: 'parallel-scan',
      title: `Parallel full scan in key order, ${rows.toLocaleString('en-US')} unsalted rows (${samples.length} sampled keys)`,
      rows,
      repeats,
      variants: results,
      ratios: PARALLELISM_LEVELS.map((parallelism) =>
        ratio(
          results,
          parallelVariantId(parallelism),
          'raw-read-stream',
          `mapper iterate, parallelism ${parallelism} / raw single stream`,
        ),
      ),
    };
  } finally {
    await ctx.dropTable(tableId);
  }
}
