import { sample } from './alternate.js';
import { collectGarbage, MemorySampler, round, settle, startClock } from './measure.js';

const MB = 1024 * 1024;
import type { RunSample } from './results.js';

let sink: unknown;

/** Keeps a value reachable so the engine cannot skip building it. @example `keep(row)` */
export function keep(value: unknown): void {
  sink = value;
}

/** The last value given to {@link keep} (only to defeat dead-code elimination). @example `kept()` */
export function kept(): unknown {
  return sink;
}

/** `options` with `limit` added when there is one (warm-up runs read a few rows). @example `withLimit({ decode: false }, 100)` */
export function withLimit<T extends object>(options: T, limit: number | undefined): T & { limit?: number } {
  return limit === undefined ? options : { ...options, limit };
}

/**
 * Times one read: `read(onRow)` must call `onRow(row)` for every row the
 * consumer receives. Records wall and CPU time, time to the first row, peak
 * memory (heapUsed above the pre-read baseline, uncollected garbage included;
 * RSS), and the live heap halfway through: a full GC when half of `expected`
 * rows were delivered, whose pause is taken off the wall and CPU times.
 * Checks the row count when `expected` is given.
 * @example `await measureRead(n, async (onRow) => { for await (const r of repo.iterate()) onRow(r); })`
 */
export async function measureRead(
  expected: number | undefined,
  read: (onRow: (row: unknown) => void) => Promise<void>,
): Promise<RunSample> {
  await settle();
  const sampler = MemorySampler.start();
  const baseline = process.memoryUsage().heapUsed;
  const halfway = expected === undefined ? -1 : Math.ceil(expected / 2);
  const clock = startClock();
  let rows = 0;
  let firstRowMs: number | undefined;
  let liveHeapMidMB: number | undefined;
  let pausedMs = 0;
  let memory;
  try {
    await read((row) => {
      if (rows === 0) firstRowMs = clock.elapsed();
      rows += 1;
      keep(row);
      if (rows === halfway) {
        const before = clock.elapsed();
        sampler.sample();
        collectGarbage();
        liveHeapMidMB = round((process.memoryUsage().heapUsed - baseline) / MB, 1);
        pausedMs = clock.elapsed() - before;
      }
    });
  } finally {
    memory = sampler.stop();
  }
  const raw = clock.stop();
  const time = { ms: raw.ms - pausedMs, cpuMs: Math.max(0, raw.cpuMs - pausedMs) };
  if (expected !== undefined && rows !== expected) throw new Error(`read returned ${rows} rows, expected ${expected}`);
  const live = liveHeapMidMB === undefined ? {} : { liveHeapMidMB };
  return sample(rows, time, {
    firstRowMs: firstRowMs ?? time.ms,
    peakHeapDeltaMB: memory.peakHeapDeltaMB,
    peakRssMB: memory.peakRssMB,
    ...live,
  });
}
