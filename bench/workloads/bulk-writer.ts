import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, ratio, sample, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { defineWideRow, FAMILY, type WideValues } from '../entities.js';
import { entities, plainRows, wideKey, wideValues } from '../dataset.js';
import { collectGarbage, MemorySampler, round, settle, startClock } from '../measure.js';
import type { BackpressureResult, RunSample, ThroughputResult } from '../results.js';

/** The Go importer's settings the issue compares with: `batch-size=500 workers=8` (and `workers=1`). @example `CBT.batchSize // 500` */
export const CBT = { batchSize: 500, workers: [8, 1] } as const;

/** The ten qualifiers of a wide row, in the CSV's column order. */
const COLUMNS = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 'count', 'score'] as const;

/** One wide row as a CSV line: the row key, then the ten values as text (none holds a comma or a quote). */
function csvLine(v: WideValues): string {
  return [wideKey(v.id), ...COLUMNS.map((c) => String(v[c]))].join(',');
}

/** Runs `cbt` against the emulator; resolves when the process has exited with 0. */
function runCbt(ctx: BenchContext, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'cbt',
      ['-project', 'bench-project', '-instance', ctx.options.instance, ...args],
      { env: { ...process.env, BIGTABLE_EMULATOR_HOST: ctx.options.emulatorHost }, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        error === null ? resolve() : reject(new Error(`cbt ${args.join(' ')} failed: ${error.message}\n${stderr}`)),
    );
  });
}

/** Rows of a table, counted through the raw client (checks that every variant wrote everything). */
async function countRows(ctx: BenchContext, tableId: string): Promise<number> {
  let n = 0;
  const stream = ctx.table(tableId).createReadStream({
    decode: false,
    filter: [{ row: { cellLimit: 1 } }, { value: { strip: true } }],
  });
  for await (const _row of stream) n += 1;
  return n;
}

/**
 * The BulkWriter against Google's own Go importer, `cbt import` (batch-size
 * 500, 8 workers and 1), writing the same `rows` wide rows (the same keys and
 * ten cells each; cbt writes every value as text, the mapper the int and the
 * float as 8 bytes) into fresh tables of the same emulator. cbt is timed as a
 * whole process, its start included, from a CSV written before the clock
 * starts; the BulkWriter from its first `add()` to `close()` resolving, the
 * entities made before the clock starts, as for saveMany.
 * @example `const result = await bulkWriterImport(ctx);`
 */
export async function bulkWriterImport(ctx: BenchContext): Promise<ThroughputResult> {
  const { rows, warmupRows, repeats } = ctx.options;
  const size = (warmup: boolean): number => (warmup ? Math.min(warmupRows, rows) : rows);
  const dir = await mkdtemp(join(tmpdir(), 'bench-cbt-'));
  const csvOf = new Map<number, string>();
  const csv = async (n: number): Promise<string> => {
    const existing = csvOf.get(n);
    if (existing !== undefined) return existing;
    const file = join(dir, `rows-${n}.csv`);
    await writeFile(file, [`,${COLUMNS.join(',')}`, ...plainRows(0, n).map(csvLine), ''].join('\n'));
    csvOf.set(n, file);
    return file;
  };
  const timed = async (tag: string, n: number, write: (tableId: string) => Promise<void>): Promise<RunSample> => {
    const tableId = await ctx.createTable(tag);
    try {
      const clock = startClock();
      await write(tableId);
      const time = clock.stop();
      const written = await countRows(ctx, tableId);
      if (written !== n) throw new Error(`${tag}: the table holds ${written} rows, expected ${n}`);
      return sample(n, time);
    } finally {
      await ctx.dropTable(tableId);
    }
  };
  const cbtVariant = (workers: number): Variant => ({
    id: `cbt-import-w${workers}`,
    label: `cbt import (batch-size=${CBT.batchSize}, workers=${workers}, whole process)`,
    side: 'raw',
    run: async (warmup) => {
      const n = size(warmup);
      const file = await csv(n);
      return timed(`w-cbt${workers}`, n, (tableId) =>
        runCbt(ctx, [
          'import',
          tableId,
          file,
          `column-family=${FAMILY}`,
          `batch-size=${CBT.batchSize}`,
          `workers=${workers}`,
        ]),
      );
    },
  });
  const variants: Variant[] = [
    {
      id: 'mapper-bulk-writer',
      label: 'mapper BulkWriter (defaults)',
      side: 'mapper',
      run: async (warmup) => {
        const n = size(warmup);
        const tableId = await ctx.createTable('w-writer');
        try {
          const Wide = defineWideRow(tableId);
          const repo = ctx.mapper().getRepository(Wide);
          const input = entities(Wide, 0, n);
          const clock = startClock();
          const writer = repo.bulkWriter();
          for (const entity of input) await writer.add(entity);
          const totals = await writer.close();
          const time = clock.stop();
          if (totals.persisted !== n) throw new Error(`BulkWriter persisted ${totals.persisted} of ${n} rows`);
          return sample(n, time);
        } finally {
          await ctx.dropTable(tableId);
        }
      },
    },
    ...CBT.workers.map(cbtVariant),
  ];
  ctx.log(`bulk-writer: ${rows} rows x 10 cells, BulkWriter vs cbt import, ${repeats} alternated runs`);
  try {
    const results = await alternate(variants, repeats, (line) => ctx.log(line));
    return {
      kind: 'throughput',
      id: 'bulk-writer',
      title: `BulkWriter vs cbt import, ${rows.toLocaleString('en-US')} rows x 10 cells`,
      rows,
      repeats,
      variants: results,
      ratios: CBT.workers.map((workers) =>
        ratio(results, 'mapper-bulk-writer', `cbt-import-w${workers}`, `BulkWriter / cbt import workers=${workers}`),
      ),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The outstanding-bytes cap of the back-pressure run: 8 MiB, so that it, not the row cap, binds. */
const CAP_BYTES = 8 * 1024 * 1024;
/**
 * What the live heap (after a full GC) may hold beyond the cap: the batch
 * requests the client serialises for the calls in flight, gRPC's buffers, the
 * latency array (8 bytes a row). The peak heap with garbage not yet collected
 * is reported beside it; it depends on when V8 collects, not on the writer.
 */
const HEAP_CONSTANT_MB = 16;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * A producer far faster than the server: `memoryRows` wide rows made on the
 * fly (never held in an array) and added to one BulkWriter with
 * `maxOutstandingBytes` 8 MiB (and no row cap to speak of). Reports how much
 * faster the producer alone is than the write, the peak heap above the
 * baseline (garbage included), the live heap after a full GC at the end of
 * each eighth (what the writer really holds; its largest must stay within the
 * cap plus a constant), and the `add()` latency
 * percentiles (the time the producer was held back).
 * @example `const result = await bulkWriterBackpressure(ctx);`
 */
export async function bulkWriterBackpressure(ctx: BenchContext): Promise<BackpressureResult> {
  const rows = ctx.options.memoryRows;
  ctx.log(`bulk-writer-memory: ${rows} rows through one BulkWriter capped at ${CAP_BYTES / 1024 / 1024} MiB`);
  // The producer alone: how fast it makes entities.
  const probe = Math.min(rows, 200_000);
  const produceClock = startClock();
  let sink = 0;
  for (let i = 0; i < probe; i++) sink += wideValues(i).count;
  const producerRowsPerSec = (probe * 1000) / Math.max(1, produceClock.stop().ms);
  if (sink < 0) throw new Error('unreachable');
  const tableId = await ctx.createTable('w-pressure');
  try {
    const Wide = defineWideRow(tableId);
    const repo = ctx.mapper().getRepository(Wide);
    await settle();
    const sampler = MemorySampler.start();
    const baseline = process.memoryUsage().heapUsed;
    let liveHeapMaxMB = 0;
    const eighth = Math.max(1, Math.floor(rows / 8));
    const latencies = new Float64Array(rows);
    const clock = startClock();
    const writer = repo.bulkWriter({ maxOutstandingBytes: CAP_BYTES, maxOutstandingRows: 10_000_000 });
    for (let i = 0; i < rows; i++) {
      const entity = Object.assign(new Wide(), wideValues(i));
      const t0 = performance.now();
      await writer.add(entity);
      latencies[i] = performance.now() - t0;
      if (i % 1_024 === 0) sampler.sample();
      if (i > 0 && i % eighth === 0) {
        collectGarbage();
        liveHeapMaxMB = Math.max(liveHeapMaxMB, round((process.memoryUsage().heapUsed - baseline) / 1024 / 1024, 1));
      }
    }
    const totals = await writer.close();
    const time = clock.stop();
    const peak = sampler.stop();
    if (totals.persisted !== rows) throw new Error(`BulkWriter persisted ${totals.persisted} of ${rows} rows`);
    latencies.sort();
    const writeRowsPerSec = (rows * 1000) / time.ms;
    const capMB = CAP_BYTES / 1024 / 1024;
    const result: BackpressureResult = {
      kind: 'backpressure',
      id: 'bulk-writer-memory',
      title: `BulkWriter back-pressure: ${rows.toLocaleString('en-US')} rows from a producer faster than the server`,
      rows,
      producerRowsPerSec: round(producerRowsPerSec),
      writeRowsPerSec: round(writeRowsPerSec),
      producerSpeedup: round(producerRowsPerSec / writeRowsPerSec, 1),
      capMB,
      heapConstantMB: HEAP_CONSTANT_MB,
      peakHeapDeltaMB: peak.peakHeapDeltaMB,
      liveHeapMaxMB,
      addLatencyMs: {
        p50: round(percentile(latencies, 50), 3),
        p90: round(percentile(latencies, 90), 3),
        p99: round(percentile(latencies, 99), 3),
        p999: round(percentile(latencies, 99.9), 3),
        max: round(percentile(latencies, 100), 3),
      },
      bounded: liveHeapMaxMB <= capMB + HEAP_CONSTANT_MB,
    };
    ctx.log(
      `  producer ${result.producerSpeedup}x the write; peak heap +${result.peakHeapDeltaMB} MiB, live (after GC, max of eighths) +${liveHeapMaxMB} MiB (cap ${capMB} + ${HEAP_CONSTANT_MB}); add() p50 ${result.addLatencyMs.p50} ms p99 ${result.addLatencyMs.p99} ms max ${result.addLatencyMs.max} ms`,
    );
    return result;
  } finally {
    await ctx.dropTable(tableId);
  }
}
