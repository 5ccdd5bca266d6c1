import { describe, expect, it } from 'vitest';
import { runBench, type BenchResults } from '../../../bench/bench.js';
import { WORKLOAD_IDS } from '../../../bench/options.js';
import type { ThroughputResult, WorkloadResult } from '../../../bench/results.js';
import { emulatorHost } from '../../support/emulator.js';

const SIZES = {
  rows: 120,
  recipeRows: 30,
  repeats: 1,
  warmupRows: 10,
  pointReads: 20,
  cpuIterations: 200,
  evennessKeys: 20_000,
  memoryRows: 400,
};

/** Row count each throughput variant must report. */
const EXPECTED_ROWS: Record<string, number> = {
  'seed-row-save': SIZES.recipeRows,
  'mapper-find-one': SIZES.pointReads,
  'raw-row-get': SIZES.pointReads,
};

function expectPositive(value: number | undefined, what: string): void {
  expect(Number.isFinite(value), `${what} is finite`).toBe(true);
  expect(value as number, what).toBeGreaterThan(0);
}

function expectNonNegative(value: number | undefined, what: string): void {
  expect(Number.isFinite(value), `${what} is finite`).toBe(true);
  expect(value as number, what).toBeGreaterThanOrEqual(0);
}

function checkThroughput(w: ThroughputResult): void {
  expect(w.variants.length).toBeGreaterThanOrEqual(2);
  expect(w.variants.some((v) => v.side === 'mapper') && w.variants.some((v) => v.side === 'raw')).toBe(true);
  for (const v of w.variants) {
    expect(v.runs).toHaveLength(SIZES.repeats);
    for (const run of [...v.runs, v.median]) {
      expect(run.rows, `${w.id}/${v.id} rows`).toBe(EXPECTED_ROWS[v.id] ?? SIZES.rows);
      expectPositive(run.ms, `${w.id}/${v.id} ms`);
      expectPositive(run.rowsPerSec, `${w.id}/${v.id} rows/s`);
      expectNonNegative(run.cpuMs, `${w.id}/${v.id} cpu`);
      if (w.id !== 'bulk-write') {
        expectPositive(run.firstRowMs, `${w.id}/${v.id} first row`);
        expectNonNegative(run.peakHeapDeltaMB, `${w.id}/${v.id} heap`);
        expect(Number.isFinite(run.liveHeapMidMB), `${w.id}/${v.id} live heap is finite`).toBe(true);
        expectPositive(run.peakRssMB, `${w.id}/${v.id} rss`);
      }
    }
  }
  expect(w.ratios.length).toBeGreaterThan(0);
  for (const r of w.ratios) expectPositive(r.value, `${w.id} ratio ${r.id}`);
}

function check(w: WorkloadResult): void {
  switch (w.kind) {
    case 'throughput':
      return checkThroughput(w);
    case 'cpu':
      expect(w.items.length).toBeGreaterThanOrEqual(8);
      for (const item of w.items) expectPositive(item.nsPerEntity, `cpu ${item.id}`);
      for (const r of w.ratios) expectPositive(r.value, `cpu ratio ${r.id}`);
      return;
    case 'evenness':
      expect(w.rows).toHaveLength(16);
      for (const row of w.rows) {
        expect(row.prefixes).toBe(row.preset === 'java-string-hashcode-signed' ? 2 * row.buckets - 1 : row.buckets);
        expect(row.max).toBeGreaterThanOrEqual(row.min);
        expect(row.max * row.prefixes).toBeGreaterThanOrEqual(SIZES.evennessKeys);
        expect(row.min * row.prefixes).toBeLessThanOrEqual(SIZES.evennessKeys);
        if (row.ratio === null) expect(row.min).toBe(0);
        else expect(row.ratio).toBeGreaterThanOrEqual(1);
      }
      return;
    case 'memory':
      expect(w.variants.map((v) => v.side).sort()).toEqual(['mapper', 'raw']);
      for (const v of w.variants) {
        expect(v.rows).toBe(SIZES.memoryRows);
        expectPositive(v.rowsPerSec, `memory ${v.id} rows/s`);
        expectNonNegative(v.peakHeapDeltaMB, `memory ${v.id} heap`);
        expect(v.heapByEighthMB).toHaveLength(8);
        expect(v.liveByEighthMB).toHaveLength(8);
      }
      return;
  }
}

describe('npm run bench (tiny, in process)', () => {
  it('measures every workload and returns complete, well-formed results', async () => {
    const results: BenchResults = await runBench({
      emulatorHost: emulatorHost(),
      scale: 'tiny',
      tablePrefix: 'bench-smoke',
      ...SIZES,
    });

    expect(results.workloads.map((w) => w.id)).toEqual([...WORKLOAD_IDS]);
    for (const w of results.workloads) check(w);
    expect(results.machine.cores).toBeGreaterThan(0);
    expectPositive(results.machine.totalMemoryGiB, 'total memory');
    expect(results.machine.node).toBe(process.version);
    expect(results.targets.length).toBeGreaterThanOrEqual(8);
    for (const t of results.targets) expect(typeof t.pass).toBe('boolean');
    expect(() => JSON.parse(JSON.stringify(results)) as unknown).not.toThrow();
  });
});
