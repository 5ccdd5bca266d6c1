import { BenchContext } from './context.js';
import { loadAverage1m, machineInfo } from './machine.js';
import { gcExposed } from './measure.js';
import { resolveOptions, type BenchOptions, type ResolvedOptions, type WorkloadId } from './options.js';
import type { BenchResults, WorkloadResult } from './results.js';
import { checkTargets } from './targets.js';
import { bucketScaling } from './workloads/bucket-scaling.js';
import { bulkWrite } from './workloads/bulk-write.js';
import { censusShards } from './workloads/census-shards.js';
import { bulkWriterBackpressure, bulkWriterImport } from './workloads/bulk-writer.js';
import { cpuCost } from './workloads/cpu-cost.js';
import { bucketEvenness } from './workloads/evenness.js';
import { findMany } from './workloads/find-many.js';
import { collectionRead } from './workloads/collection-read.js';
import { memoryIterate } from './workloads/memory-iterate.js';
import { nodeCeiling } from './workloads/node-ceiling.js';
import { parallelScan } from './workloads/parallel-scan.js';
import { pointReads } from './workloads/point-reads.js';
import { saltedScan } from './workloads/salted-scan.js';
import { scanHydrate } from './workloads/scan-hydrate.js';
import { telemetryOverhead } from './workloads/telemetry-overhead.js';

export type { BenchOptions } from './options.js';
export type { BenchResults } from './results.js';

const WORKLOADS: Readonly<Record<WorkloadId, (ctx: BenchContext) => Promise<WorkloadResult> | WorkloadResult>> = {
  'bulk-write': bulkWrite,
  'bulk-writer': bulkWriterImport,
  'bulk-writer-memory': bulkWriterBackpressure,
  'scan-hydrate': scanHydrate,
  'node-ceiling': nodeCeiling,
  'salted-scan': saltedScan,
  'bucket-scaling': bucketScaling,
  'point-reads': pointReads,
  'find-many': findMany,
  'collection-read': collectionRead,
  'telemetry-overhead': telemetryOverhead,
  cpu: cpuCost,
  evenness: bucketEvenness,
  memory: memoryIterate,
  'parallel-scan': parallelScan,
  'census-shards': censusShards,
};

function settings(o: ResolvedOptions): Record<string, unknown> {
  const { emulatorHost: _host, log: _log, tablePrefix: _prefix, ...rest } = o;
  return rest;
}

/**
 * Runs the benchmark against a running (loopback) emulator, in this process:
 * every selected workload, mapper and raw client alternated, then the targets.
 * Creates its own tables and drops them; never stops the emulator.
 * @example
 * ```ts
 * const results = await runBench({ emulatorHost: '127.0.0.1:8086', scale: 'tiny', log: console.log });
 * ```
 */
export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const resolved = resolveOptions(options);
  const startedAt = new Date();
  const t0 = Date.now();
  const loadAtStart = loadAverage1m();
  const ctx = BenchContext.open(resolved);
  const workloads: WorkloadResult[] = [];
  const durationsMs: Record<string, number> = {};
  try {
    for (const id of resolved.only) {
      const started = Date.now();
      workloads.push(await WORKLOADS[id](ctx));
      durationsMs[id] = Date.now() - started;
    }
  } finally {
    await ctx.close();
  }
  return {
    version: 1,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - t0,
    machine: machineInfo(resolved.emulatorLabel, gcExposed(), loadAtStart),
    settings: settings(resolved),
    durationsMs,
    workloads,
    targets: checkTargets(workloads),
  };
}
