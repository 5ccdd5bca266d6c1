import type { ResolvedCluster } from './cluster-model.js';
import type { KeyRangeSpec } from './key-partition.js';
import type { LayoutSummary, SimulationStep } from './report.js';

/** The summary of a layout's steps after the warm-up (all steps when the warm-up covers the run). @internal */
export function summarize(
  steps: readonly SimulationStep[],
  rangeOps: readonly (readonly number[])[],
  ranges: readonly KeyRangeSpec[],
  stepSeconds: number,
  cluster: ResolvedCluster,
): LayoutSummary {
  const first = steps.findIndex((s) => s.time - stepSeconds >= cluster.warmupSeconds - 1e-9);
  const from = first < 0 ? 0 : first;
  const counted = steps.slice(from);
  const shares = counted.map((s) => s.busiestShare);
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const perRange = new Array<number>(ranges.length).fill(0);
  for (const row of rangeOps.slice(from)) row.forEach((ops, r) => (perRange[r] = (perRange[r] as number) + ops));
  const total = perRange.reduce((a, b) => a + b, 0);
  let hottest = 0;
  perRange.forEach((ops, r) => {
    if (ops > (perRange[hottest] as number)) hottest = r;
  });
  return {
    meanBusiestShare: round(mean),
    maxBusiestShare: round(Math.max(...shares)),
    imbalance: round(mean * cluster.nodes),
    finalTablets: steps[steps.length - 1]?.tablets ?? 1,
    hottestRangeShare: round(total > 0 ? (perRange[hottest] as number) / total : 0),
    hottestRange: ranges[hottest]?.label ?? '',
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
