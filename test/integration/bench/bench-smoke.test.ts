import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench, type BenchResults } from '../../../bench/bench.js';
import { WORKLOAD_IDS } from '../../../bench/options.js';
import type { ThroughputResult, WorkloadResult } from '../../../bench/results.js';
import { orderedVariantId, SCALING_BUCKETS } from '../../../bench/workloads/bucket-scaling.js';
import { PARALLELISM_LEVELS, parallelVariantId } from '../../../bench/workloads/parallel-scan.js';
import { writeResults } from '../../../bench/write-results.js';
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
  parallelRows: 120,
};

/** Row count each throughput variant must report. */
const EXPECTED_ROWS: Record<string, number> = {
  'seed-row-save': SIZES.recipeRows,
  'mapper-find-one': SIZES.pointReads,
  'raw-row-get': SIZES.pointReads,
  'mapper-find-many': SIZES.pointReads,
  'mapper-collection': 1_000,
  'raw-prefix-scan': 1_000,
};

/** Ratio ids each throughput workload must report (others may follow). */
const EXPECTED_RATIOS: Record<string, readonly string[]> = {
  'bulk-write': ['mapper-save-many/raw-mutate-tuned'],
  'bulk-writer': ['mapper-bulk-writer/cbt-import-w8', 'mapper-bulk-writer/cbt-import-w1'],
  'node-ceiling': ['mapper-iterate/raw-bare-read-rows'],
  'bucket-scaling': SCALING_BUCKETS.map((b) => `${orderedVariantId(b)}/raw-unsalted`),
  'find-many': ['mapper-find-many/raw-row-get'],
  'collection-read': ['mapper-collection/raw-prefix-scan'],
  'telemetry-overhead': ['save-many-api/save-many-off', 'iterate-sdk/iterate-off'],
  'parallel-scan': PARALLELISM_LEVELS.map((p) => `${parallelVariantId(p)}/raw-read-stream`),
};

/** Workloads that compare the mapper with itself (no raw side), and their runs per variant when not `repeats`. */
const MAPPER_ONLY: ReadonlySet<string> = new Set(['telemetry-overhead']);
const RUNS_PER_VARIANT: Record<string, number> = { 'telemetry-overhead': 2 * SIZES.repeats + 3 };

/** Every target a full run checks (the 16-bucket evenness targets of three presets included). */
const EXPECTED_TARGETS = [
  'bulk-writer-vs-cbt',
  'bulk-writer-heap',
  'save-many-vs-objects',
  'save-many-vs-prebuilt',
  'save-many-vs-tuned',
  'scan-hydrate',
  'salted-ordered',
  'salted-ordered-peak-heap',
  'node-ceiling',
  ...SCALING_BUCKETS.map((b) => `bucket-scaling-${b}`),
  ...PARALLELISM_LEVELS.map((p) => `parallel-scan-${p}`),
  'find-many',
  'collection-read',
  'telemetry-api-save-many',
  'telemetry-sdk-save-many',
  'telemetry-api-iterate',
  'telemetry-sdk-iterate',
  'iterate-memory',
  'evenness-md5-16',
  'evenness-md5-int32-16',
  'evenness-java-string-hashcode-16',
];

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
  const sides = new Set(w.variants.map((v) => v.side));
  expect([...sides].sort()).toEqual(MAPPER_ONLY.has(w.id) ? ['mapper'] : ['mapper', 'raw']);
  for (const v of w.variants) {
    expect(v.runs).toHaveLength(RUNS_PER_VARIANT[w.id] ?? SIZES.repeats);
    for (const run of [...v.runs, v.median]) {
      expect(run.rows, `${w.id}/${v.id} rows`).toBe(EXPECTED_ROWS[v.id] ?? SIZES.rows);
      expectPositive(run.ms, `${w.id}/${v.id} ms`);
      expectPositive(run.rowsPerSec, `${w.id}/${v.id} rows/s`);
      expectNonNegative(run.cpuMs, `${w.id}/${v.id} cpu`);
      // Write workloads (and write variants) have no first row, no read heap.
      if (w.id !== 'bulk-write' && w.id !== 'bulk-writer' && !v.id.startsWith('save-many-')) {
        expectPositive(run.firstRowMs, `${w.id}/${v.id} first row`);
        expectNonNegative(run.peakHeapDeltaMB, `${w.id}/${v.id} heap`);
        expect(Number.isFinite(run.liveHeapMidMB), `${w.id}/${v.id} live heap is finite`).toBe(true);
        expectPositive(run.peakRssMB, `${w.id}/${v.id} rss`);
      }
    }
  }
  expect(w.ratios.length).toBeGreaterThan(0);
  for (const r of w.ratios) expectPositive(r.value, `${w.id} ratio ${r.id}`);
  for (const id of EXPECTED_RATIOS[w.id] ?? []) expect(w.ratios.map((r) => r.id)).toContain(id);
}

/** `latest.json` as written by the CLI, read back: it must say what the run measured. */
async function checkWrittenJson(results: BenchResults): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
  try {
    const files = await writeResults(results, dir);
    expect(files).toEqual(['latest.json', 'latest.md']);
    const written = JSON.parse(await readFile(join(dir, 'latest.json'), 'utf8')) as BenchResults;
    expect(written.version).toBe(1);
    expect(written.startedAt).toBe(results.startedAt);
    expect(written.workloads.map((w) => w.id)).toEqual(results.workloads.map((w) => w.id));
    const ratios = (r: BenchResults): { workload: string; id: string; value: number }[] =>
      r.workloads.flatMap((w) =>
        'ratios' in w ? w.ratios.map((x) => ({ workload: w.id, id: x.id, value: x.value })) : [],
      );
    expect(ratios(written).length).toBeGreaterThan(0);
    expect(ratios(written)).toEqual(ratios(results));
    const targets = (r: BenchResults): { id: string; measured: unknown; pass: boolean }[] =>
      r.targets.map((t) => ({ id: t.id, measured: t.measured, pass: t.pass }));
    expect(targets(written).map((t) => t.id)).toEqual(EXPECTED_TARGETS);
    expect(targets(written)).toEqual(targets(results));
    // Nothing lost or changed on the way (a NaN or Infinity would come back as null).
    expect(written).toEqual(results);
    const markdown = await readFile(join(dir, 'latest.md'), 'utf8');
    for (const t of results.targets) expect(markdown).toContain(t.description.replace(/\|/g, '\\|'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
    case 'backpressure':
      expect(w.rows).toBe(SIZES.memoryRows);
      expectPositive(w.writeRowsPerSec, 'back-pressure write rows/s');
      expectPositive(w.producerRowsPerSec, 'back-pressure producer rows/s');
      expectNonNegative(w.peakHeapDeltaMB, 'back-pressure heap');
      expect(Number.isFinite(w.liveHeapMaxMB)).toBe(true);
      expect(w.addLatencyMs.max).toBeGreaterThanOrEqual(w.addLatencyMs.p50);
      return;
  }
}

/** Workloads left to the soak tier (test/soak/census-shards-bench.test.ts): each run starts command-line processes. */
const SOAK_ONLY: readonly string[] = ['census-shards'];
const SMOKE_WORKLOADS = WORKLOAD_IDS.filter((id) => !SOAK_ONLY.includes(id));

describe('npm run bench (tiny, in process)', () => {
  it('measures every workload and returns complete, well-formed results', async () => {
    const results: BenchResults = await runBench({
      emulatorHost: emulatorHost(),
      scale: 'tiny',
      tablePrefix: 'bench-smoke',
      only: SMOKE_WORKLOADS,
      ...SIZES,
    });

    expect(results.workloads.map((w) => w.id)).toEqual(SMOKE_WORKLOADS);
    for (const w of results.workloads) check(w);
    expect(results.machine.cores).toBeGreaterThan(0);
    expectPositive(results.machine.totalMemoryGiB, 'total memory');
    expect(results.machine.node).toBe(process.version);
    expect(results.targets.map((t) => t.id)).toEqual(EXPECTED_TARGETS);
    for (const t of results.targets) expect(typeof t.pass).toBe('boolean');
    await checkWrittenJson(results);
  });
});
