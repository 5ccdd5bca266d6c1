import type {
  BackpressureResult,
  EvennessResult,
  MemoryResult,
  TargetCheck,
  ThroughputResult,
  WorkloadResult,
} from './results.js';
import { orderedVariantId, SCALING_BUCKETS } from './workloads/bucket-scaling.js';
import { PARALLELISM_LEVELS, parallelVariantId } from './workloads/parallel-scan.js';

function ratioOf(workloads: readonly WorkloadResult[], workload: string, id: string): number | undefined {
  const w = workloads.find((x) => x.id === workload) as ThroughputResult | undefined;
  return w?.ratios.find((r) => r.id === id)?.value;
}

function atLeast(id: string, description: string, measured: number | undefined, threshold: number): TargetCheck[] {
  if (measured === undefined) return [];
  return [{ id, description, measured, threshold: `>= ${threshold}`, pass: measured >= threshold }];
}

/**
 * Peak heap of one variant over another's (their median peak heapUsed above
 * the pre-read baseline) must stay at most `threshold`; `undefined` when the
 * workload did not run, `null` measured (a miss) when the denominator's peak
 * is not above 0.
 */
function peakHeapAtMost(
  workloads: readonly WorkloadResult[],
  id: string,
  description: string,
  workload: string,
  numerator: string,
  denominator: string,
  threshold: number,
): TargetCheck[] {
  const w = workloads.find((x) => x.id === workload) as ThroughputResult | undefined;
  if (w === undefined) return [];
  const peak = (variant: string): number | undefined =>
    w.variants.find((v) => v.id === variant)?.median.peakHeapDeltaMB;
  const a = peak(numerator);
  const b = peak(denominator);
  const measured = a === undefined || b === undefined || b <= 0 ? null : Math.round((a / b) * 1000) / 1000;
  return [
    { id, description, measured, threshold: `<= ${threshold}`, pass: measured !== null && measured <= threshold },
  ];
}

/**
 * Checks the targets against one run's results (targets whose
 * workload did not run are left out): write, scan, Node-ceiling,
 * salted-scan, bucket-scaling, parallel-scan and findMany ratios, the ordered merge's peak
 * heap against the raw unsalted scan's, bounded iterate memory, and max/min
 * <= 1.05 at 16 buckets for the non-negative presets (the signed Java preset
 * is reported, not targeted: its prefix 0 collects remainders of both signs
 * by construction).
 * @example `checkTargets(results.workloads).filter((t) => !t.pass)`
 */
export function checkTargets(workloads: readonly WorkloadResult[]): TargetCheck[] {
  const pressure = workloads.find((w): w is BackpressureResult => w.kind === 'backpressure');
  const checks: TargetCheck[] = [
    ...atLeast(
      'bulk-writer-vs-cbt',
      'BulkWriter >= 1.0x cbt import (batch-size=500, workers=8) rows/s',
      ratioOf(workloads, 'bulk-writer', 'mapper-bulk-writer/cbt-import-w8'),
      1.0,
    ),
    ...(pressure === undefined
      ? []
      : [
          {
            id: 'bulk-writer-heap',
            description: `BulkWriter live heap <= its outstanding-bytes cap (${pressure.capMB} MiB) + ${pressure.heapConstantMB} MiB, producer ${pressure.producerSpeedup}x the server`,
            measured: pressure.liveHeapMaxMB,
            threshold: `<= ${pressure.capMB + pressure.heapConstantMB}`,
            pass: pressure.bounded,
          },
        ]),
    ...atLeast(
      'save-many-vs-objects',
      'saveMany >= 1.1x raw object-entry insert',
      ratioOf(workloads, 'bulk-write', 'mapper-save-many/raw-insert-objects'),
      1.1,
    ),
    ...atLeast(
      'save-many-vs-prebuilt',
      'saveMany >= 0.9x raw pre-built loop',
      ratioOf(workloads, 'bulk-write', 'mapper-save-many/raw-mutate-prebuilt'),
      0.9,
    ),
    ...atLeast(
      'save-many-vs-tuned',
      "saveMany >= 1.0x the pre-built loop with the mapper's two client workarounds",
      ratioOf(workloads, 'bulk-write', 'mapper-save-many/raw-mutate-tuned'),
      1.0,
    ),
    ...atLeast(
      'scan-hydrate',
      'scan + hydrate >= 0.9x raw',
      ratioOf(workloads, 'scan-hydrate', 'mapper-iterate/raw-read-stream'),
      0.9,
    ),
    ...atLeast(
      'salted-ordered',
      'ordered salted scan >= 0.9x raw unsalted scan',
      ratioOf(workloads, 'salted-scan', 'mapper-ordered/raw-unsalted'),
      0.9,
    ),
    ...peakHeapAtMost(
      workloads,
      'salted-ordered-peak-heap',
      "ordered 8-bucket merge: peak heap <= 2x the raw unsalted scan's (mapper / raw)",
      'salted-scan',
      'mapper-ordered',
      'raw-unsalted',
      2,
    ),
    ...atLeast(
      'node-ceiling',
      "iterate >= 0.9x a bare ReadRows loop counting rows (Node's ceiling)",
      ratioOf(workloads, 'node-ceiling', 'mapper-iterate/raw-bare-read-rows'),
      0.9,
    ),
    ...SCALING_BUCKETS.flatMap((buckets) =>
      atLeast(
        `bucket-scaling-${buckets}`,
        `ordered salted scan over ${buckets} buckets >= 0.9x raw unsalted scan`,
        ratioOf(workloads, 'bucket-scaling', `${orderedVariantId(buckets)}/raw-unsalted`),
        0.9,
      ),
    ),
    ...PARALLELISM_LEVELS.flatMap((parallelism) =>
      atLeast(
        `parallel-scan-${parallelism}`,
        `ordered full scan with parallelism ${parallelism} >= 1.0x the raw single stream`,
        ratioOf(workloads, 'parallel-scan', `${parallelVariantId(parallelism)}/raw-read-stream`),
        1.0,
      ),
    ),
    ...atLeast(
      'find-many',
      'findMany >= 5x a raw row.get loop, 16 in flight',
      ratioOf(workloads, 'find-many', 'mapper-find-many/raw-row-get'),
      5,
    ),
    ...atLeast(
      'collection-read',
      'collection.read of a 1,000-row, 3-kind aggregate >= 0.9x one raw prefix scan',
      ratioOf(workloads, 'collection-read', 'mapper-collection/raw-prefix-scan'),
      0.9,
    ),
    ...(['save-many', 'iterate'] as const).flatMap((op) => [
      ...atLeast(
        `telemetry-api-${op}`,
        `${op === 'save-many' ? 'saveMany' : 'iterate'} with telemetry and no SDK registered >= 0.98x telemetry off`,
        ratioOf(workloads, 'telemetry-overhead', `${op}-api/${op}-off`),
        0.98,
      ),
      ...atLeast(
        `telemetry-sdk-${op}`,
        `${op === 'save-many' ? 'saveMany' : 'iterate'} with telemetry and the SDK (in-memory exporters) >= 0.9x telemetry off`,
        ratioOf(workloads, 'telemetry-overhead', `${op}-sdk/${op}-off`),
        0.9,
      ),
    ]),
  ];
  const memory = workloads.find((w) => w.id === 'memory') as MemoryResult | undefined;
  if (memory !== undefined) {
    checks.push({
      id: 'iterate-memory',
      description: `${memory.rows.toLocaleString('en-US')}-row iterate: heap bounded`,
      measured: memory.bounded,
      threshold: memory.boundedRule,
      pass: memory.bounded,
    });
  }
  const even = workloads.find((w) => w.id === 'evenness') as EvennessResult | undefined;
  for (const row of even?.rows ?? []) {
    if (row.buckets !== 16 || row.preset === 'java-string-hashcode-signed') continue;
    checks.push({
      id: `evenness-${row.preset}-16`,
      description: `evenness ${row.preset}, 16 buckets: max/min <= 1.05`,
      measured: row.ratio,
      threshold: '<= 1.05',
      pass: row.ratio !== null && row.ratio <= 1.05,
    });
  }
  return checks;
}
