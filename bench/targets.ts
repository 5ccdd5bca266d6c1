import type { EvennessResult, MemoryResult, TargetCheck, ThroughputResult, WorkloadResult } from './results.js';

function ratioOf(workloads: readonly WorkloadResult[], workload: string, id: string): number | undefined {
  const w = workloads.find((x) => x.id === workload) as ThroughputResult | undefined;
  return w?.ratios.find((r) => r.id === id)?.value;
}

function atLeast(id: string, description: string, measured: number | undefined, threshold: number): TargetCheck[] {
  if (measured === undefined) return [];
  return [{ id, description, measured, threshold: `>= ${threshold}`, pass: measured >= threshold }];
}

/**
 * Checks the targets against one run's results (targets whose
 * workload did not run are left out): write, scan and salted-scan ratios,
 * bounded iterate memory, and max/min <= 1.05 at 16 buckets for the
 * non-negative presets (the signed Java preset is reported, not targeted:
 * its prefix 0 collects remainders of both signs by construction).
 * @example `checkTargets(results.workloads).filter((t) => !t.pass)`
 */
export function checkTargets(workloads: readonly WorkloadResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [
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
