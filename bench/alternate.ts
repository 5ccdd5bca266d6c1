import { median } from './measure.js';
import type { Ratio, RunSample, Side, VariantResult } from './results.js';

/** One contender of a workload. `run(true)` is a small untimed warm-up; `run(false)` a timed run that does its own setup and teardown outside its clock. @example `{ id: 'raw-insert', label: 'raw insert', side: 'raw', run }` */
export interface Variant {
  readonly id: string;
  readonly label: string;
  readonly side: Side;
  run(warmup: boolean): Promise<RunSample>;
}

/**
 * Warms every variant up once, then runs them round-robin `repeats` times
 * (mapper, raw, mapper, raw, … in the same process), so drift of the machine
 * or the emulator hits every variant alike. Each round starts one variant
 * later than the one before, so no variant always runs right after the same
 * other one (and meets, say, the emulator still freeing the table that one
 * dropped).
 * @example `const results = await alternate(variants, 3, (line) => console.log(line));`
 */
export async function alternate(
  variants: readonly Variant[],
  repeats: number,
  log: (line: string) => void,
): Promise<VariantResult[]> {
  for (const v of variants) await v.run(true);
  const runs = new Map<string, RunSample[]>(variants.map((v) => [v.id, []]));
  for (let r = 0; r < repeats; r++) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(r + i) % variants.length] as Variant;
      const sample = await v.run(false);
      runs.get(v.id)?.push(sample);
      log(
        `  ${v.label} [${r + 1}/${repeats}]: ${Math.round(sample.rowsPerSec).toLocaleString('en-US')} rows/s (${sample.rows} rows, ${Math.round(sample.ms)} ms)`,
      );
    }
  }
  return variants.map((v) => {
    const list = runs.get(v.id) ?? [];
    return { id: v.id, label: v.label, side: v.side, runs: list, median: medianSample(list) };
  });
}

/** Per-metric medians of runs (each field on its own). @example `medianSample(runs).rowsPerSec` */
export function medianSample(runs: readonly RunSample[]): RunSample {
  const pick = (f: (s: RunSample) => number | undefined): number | undefined => {
    const values = runs.map(f).filter((x): x is number => x !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  const base = {
    rows: pick((s) => s.rows) ?? 0,
    ms: pick((s) => s.ms) ?? 0,
    rowsPerSec: pick((s) => s.rowsPerSec) ?? 0,
    cpuMs: pick((s) => s.cpuMs) ?? 0,
  };
  const optional = {
    firstRowMs: pick((s) => s.firstRowMs),
    peakHeapDeltaMB: pick((s) => s.peakHeapDeltaMB),
    liveHeapMidMB: pick((s) => s.liveHeapMidMB),
    peakRssMB: pick((s) => s.peakRssMB),
  };
  return { ...base, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) };
}

/** Ratio of two variants' median rows/s. @example `ratio(results, 'mapper', 'raw', 'mapper / raw')` */
export function ratio(results: readonly VariantResult[], numerator: string, denominator: string, label: string): Ratio {
  const a = results.find((r) => r.id === numerator)?.median.rowsPerSec;
  const b = results.find((r) => r.id === denominator)?.median.rowsPerSec;
  if (a === undefined || b === undefined || b === 0)
    throw new Error(`ratio ${numerator}/${denominator}: missing variant`);
  return { id: `${numerator}/${denominator}`, label, value: Math.round((a / b) * 1000) / 1000 };
}

/** A run sample from a row count and a stopped clock. @example `sample(rows, clock.stop())` */
export function sample(rows: number, time: { ms: number; cpuMs: number }, extra: Partial<RunSample> = {}): RunSample {
  return { rows, ms: time.ms, rowsPerSec: time.ms > 0 ? (rows * 1000) / time.ms : 0, cpuMs: time.cpuMs, ...extra };
}
