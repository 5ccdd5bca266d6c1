import type { BenchContext } from '../context.js';
import { defineSmallRow } from '../entities.js';
import { pad10, smallValue } from '../dataset.js';
import { collectGarbage, MemorySampler, round, settle, startClock } from '../measure.js';
import { smallEntry } from '../raw-entries.js';
import { loadPrebuilt } from '../raw-writes.js';
import { keep } from '../read-sample.js';
import { forEachRow } from '../raw-rows.js';
import type { MemoryResult, MemoryVariant, Side } from '../results.js';

const MB = 1024 * 1024;
const EIGHTHS = 8;
const MAX_SAMPLE_EVERY_ROWS = 2_048;
const LIVE_GROWTH_LIMIT_MB = 16;

/** The rule behind `MemoryResult.bounded`. @example `BOUNDED_RULE` */
export const BOUNDED_RULE = `live heap (after a full GC) at the end of every eighth of the scan <= first eighth + ${LIVE_GROWTH_LIMIT_MB} MiB`;

async function scan(
  id: string,
  label: string,
  side: Side,
  rows: number,
  iterate: (onRow: (row: unknown) => void) => Promise<void>,
): Promise<MemoryVariant> {
  await settle();
  const sampler = MemorySampler.start();
  const baseline = process.memoryUsage().heapUsed;
  const peaks = new Array<number>(EIGHTHS).fill(0);
  const live: number[] = [];
  const every = Math.max(1, Math.min(MAX_SAMPLE_EVERY_ROWS, Math.floor(rows / 64)));
  const clock = startClock();
  let count = 0;
  let peak;
  try {
    await iterate((row) => {
      keep(row);
      count += 1;
      const slot = Math.min(EIGHTHS - 1, Math.floor(((count - 1) * EIGHTHS) / rows));
      if (count % every === 0) peaks[slot] = Math.max(peaks[slot] as number, sampler.sample() - baseline);
      if (count === Math.ceil(((slot + 1) * rows) / EIGHTHS)) {
        collectGarbage();
        live.push(process.memoryUsage().heapUsed - baseline);
      }
    });
  } finally {
    peak = sampler.stop();
  }
  const time = clock.stop();
  if (count !== rows) throw new Error(`${label}: read ${count} rows, expected ${rows}`);
  const mb = (bytes: number): number => round(Math.max(0, bytes) / MB);
  return {
    id,
    label,
    side,
    rows,
    ms: round(time.ms),
    rowsPerSec: round((rows * 1000) / time.ms),
    baselineHeapMB: peak.baselineHeapMB,
    peakHeapDeltaMB: peak.peakHeapDeltaMB,
    peakRssMB: peak.peakRssMB,
    heapByEighthMB: peaks.map(mb),
    liveByEighthMB: live.map((bytes) => round(bytes / MB, 1)),
  };
}

/** Whether a scan's live heap stayed flat: see {@link BOUNDED_RULE}. @example `isBounded(variant)` */
export function isBounded(variant: MemoryVariant): boolean {
  const first = variant.liveByEighthMB[0] ?? 0;
  return variant.liveByEighthMB.every((mb) => mb <= first + LIVE_GROWTH_LIMIT_MB);
}

/**
 * Memory check: `memoryRows` small rows (written once with the raw pre-built
 * loop), iterated whole with the mapper and, for reference, the raw stream.
 * Records the peak heapUsed above the pre-scan baseline in each eighth of the
 * scan (garbage included), and the live heap after a full GC at the end of
 * each eighth: a bounded scan stays flat, one that held rows would grow with them.
 * @example `const result = await memoryIterate(ctx);`
 */
export async function memoryIterate(ctx: BenchContext): Promise<MemoryResult> {
  const rows = ctx.options.memoryRows;
  ctx.log(`memory: ${rows} small rows`);
  const tableId = await ctx.createTable('memory');
  try {
    const micros = Date.now() * 1000;
    ctx.log('  loading (raw pre-built loop, untimed)');
    await loadPrebuilt(ctx.table(tableId), rows, (i) => smallEntry(`m#${pad10(i)}`, smallValue(i), micros), 1000, 2);
    const repo = ctx.mapper().getRepository(defineSmallRow(tableId));
    const mapper = await scan('mapper-iterate', 'mapper iterate', 'mapper', rows, async (onRow) => {
      for await (const entity of repo.iterate()) onRow(entity);
    });
    ctx.log(
      `  mapper iterate: peak heap +${mapper.peakHeapDeltaMB} MiB, live after GC by eighth ${mapper.liveByEighthMB.join(' ')}`,
    );
    const raw = await scan('raw-read-stream', 'raw createReadStream + plain object', 'raw', rows, async (onRow) => {
      await forEachRow(ctx.table(tableId).createReadStream({ decode: false }), (row) => {
        const v = row.data['f']?.['v']?.[0]?.value as Buffer;
        onRow({ id: Number((row.id as Buffer).toString('latin1', 2)), v: v.toString('utf8') });
      });
    });
    ctx.log(
      `  raw stream: peak heap +${raw.peakHeapDeltaMB} MiB, live after GC by eighth ${raw.liveByEighthMB.join(' ')}`,
    );
    return {
      kind: 'memory',
      id: 'memory',
      title: `Peak memory of a ${rows.toLocaleString('en-US')}-row iterate (small rows)`,
      rows,
      variants: [mapper, raw],
      bounded: isBounded(mapper),
      boundedRule: BOUNDED_RULE,
    };
  } finally {
    await ctx.dropTable(tableId);
  }
}
