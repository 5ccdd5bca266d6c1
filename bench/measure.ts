import { performance } from 'node:perf_hooks';

const MB = 1024 * 1024;
const SAMPLE_INTERVAL_MS = 10;

/** Median of a non-empty list. @example `median([3, 1, 2]) // 2` */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Runs a full GC when node was started with `--expose-gc`; otherwise does nothing. @example `collectGarbage()` */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
}

/**
 * Lets pending callbacks of the previous run finish (closing streams release
 * their buffers a few ticks later), then collects garbage twice, so a baseline
 * taken next does not include the previous run's leftovers.
 * @example `await settle(); const sampler = MemorySampler.start();`
 */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 25));
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
}

/** Whether {@link collectGarbage} really collects (node `--expose-gc`). @example `gcExposed() // true under npm run bench` */
export function gcExposed(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** Peak memory seen by a {@link MemorySampler}, in MiB. @example `{ baselineHeapMB: 30, peakHeapMB: 52, peakHeapDeltaMB: 22, peakRssMB: 310 }` */
export interface MemoryPeak {
  /** heapUsed just before the run (after a GC when exposed). */
  readonly baselineHeapMB: number;
  readonly peakHeapMB: number;
  /** peakHeapMB − baselineHeapMB: what the run itself held at its worst. */
  readonly peakHeapDeltaMB: number;
  /** Highest resident set size of the whole node process during the run. */
  readonly peakRssMB: number;
}

/**
 * Samples `process.memoryUsage()` every 10 ms (and on every `sample()`), keeping
 * the peak heapUsed and RSS. Interval samples only run when the event loop is
 * free, so callers also sample at their own checkpoints (e.g. after a sort).
 * @example
 * ```ts
 * const sampler = MemorySampler.start();
 * await work();
 * const peak = sampler.stop();
 * ```
 */
export class MemorySampler {
  readonly #baselineHeap: number;
  #peakHeap: number;
  #peakRss: number;
  readonly #timer: NodeJS.Timeout;

  private constructor() {
    collectGarbage();
    const usage = process.memoryUsage();
    this.#baselineHeap = usage.heapUsed;
    this.#peakHeap = usage.heapUsed;
    this.#peakRss = usage.rss;
    this.#timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
  }

  /** GCs (when exposed), records the baseline and starts sampling. */
  static start(): MemorySampler {
    return new MemorySampler();
  }

  /** Takes one sample now and returns the current heapUsed in bytes. */
  sample(): number {
    const usage = process.memoryUsage();
    if (usage.heapUsed > this.#peakHeap) this.#peakHeap = usage.heapUsed;
    if (usage.rss > this.#peakRss) this.#peakRss = usage.rss;
    return usage.heapUsed;
  }

  /** Stops sampling and returns the peaks. */
  stop(): MemoryPeak {
    this.sample();
    clearInterval(this.#timer);
    return {
      baselineHeapMB: round(this.#baselineHeap / MB),
      peakHeapMB: round(this.#peakHeap / MB),
      peakHeapDeltaMB: round((this.#peakHeap - this.#baselineHeap) / MB),
      peakRssMB: round(this.#peakRss / MB),
    };
  }
}

/** Wall and node-CPU time of one run. @example `const t = startClock(); ...; const { ms, cpuMs } = t.stop();` */
export interface Clock {
  /** Milliseconds since start. */
  elapsed(): number;
  /** Wall and CPU (user + system of this process) milliseconds since start. */
  stop(): { ms: number; cpuMs: number };
}

/** Starts a wall + CPU clock. @example `const clock = startClock();` */
export function startClock(): Clock {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  return {
    elapsed: () => performance.now() - t0,
    stop: () => {
      const cpu = process.cpuUsage(cpu0);
      return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
    },
  };
}

/** Rounds to 2 decimals (for reports). @example `round(1.23456) // 1.23` */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
