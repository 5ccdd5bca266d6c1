import type { KeyRangeSpec } from './key-partition.js';

/**
 * One time step of one layout.
 *
 * @example
 * ```ts
 * const step: SimulationStep = { time: 15, writes: 60000, tablets: 4, busiestShare: 0.5, nodeShares: [0.5, 0.25, 0.25] };
 * ```
 */
export interface SimulationStep {
  /** End of the step, in seconds from the start. */
  readonly time: number;
  /** Writes in the step. */
  readonly writes: number;
  /** Tablets at the end of the step. */
  readonly tablets: number;
  /** The busiest node's share of the step's writes (ideal: `1 / nodes`). */
  readonly busiestShare: number;
  /** Each node's share of the step's writes. */
  readonly nodeShares: readonly number[];
}

/**
 * The simulation of one key layout: its steps, summary, and the writes per
 * key range per step (the heatmap: `rangeOps[step][range]`).
 *
 * @example
 * ```ts
 * const worst = report.layouts.reduce((a, b) => (a.summary.imbalance > b.summary.imbalance ? a : b));
 * ```
 */
export interface LayoutReport {
  /** `declared`, or the alternative's label. */
  readonly label: string;
  /** The layout's salt; `null` when unsalted. */
  readonly salt: {
    /** Number of buckets. */
    readonly buckets: number;
    /** Key properties hashed. */
    readonly on: readonly string[];
  } | null;
  /** A few physical keys of the layout, as text. */
  readonly exampleKeys: readonly string[];
  /** Busiest-node and hottest-range figures after the warm-up. */
  readonly summary: LayoutSummary;
  /** Every step, in time order. */
  readonly steps: readonly SimulationStep[];
  /** The key axis: ranges of the layout's physical key space, in key order. */
  readonly keyRanges: readonly KeyRangeSpec[];
  /** Writes per key range per step: `rangeOps[step][range]`. */
  readonly rangeOps: readonly (readonly number[])[];
}

/**
 * The result of `simulateHotspots()`: one report per layout, the declared
 * layout first. Plain JSON.
 *
 * @example
 * ```ts
 * for (const layout of report.layouts) console.log(layout.label, layout.summary.imbalance.toFixed(2));
 * ```
 */
export interface SimulationReport {
  /** The entity simulated. */
  readonly entity: string;
  /** Nodes of the simulated cluster. */
  readonly nodes: number;
  /** `1 / nodes`: each node's share of a perfectly spread load. */
  readonly idealShare: number;
  /** Length of one step in seconds. */
  readonly stepSeconds: number;
  /** Steps that start before this are left out of the summaries. */
  readonly warmupSeconds: number;
  /** Writes simulated per layout. */
  readonly writes: number;
  /** The declared layout, then each alternative. */
  readonly layouts: readonly LayoutReport[];
}

/**
 * How evenly a layout spread its writes, over the steps after the warm-up.
 *
 * @example
 * ```ts
 * const s: LayoutSummary = { meanBusiestShare: 0.98, maxBusiestShare: 1, imbalance: 2.94, finalTablets: 40, hottestRangeShare: 0.03, hottestRange: '2026-01-01T00:29' };
 * ```
 */
export interface LayoutSummary {
  /** Mean over the steps of the busiest node's share of the writes. */
  readonly meanBusiestShare: number;
  /** Highest busiest-node share of any step. */
  readonly maxBusiestShare: number;
  /** `meanBusiestShare / (1 / nodes)`: 1 is perfectly even, `nodes` is every write on one node. */
  readonly imbalance: number;
  /** Tablets at the end of the run. */
  readonly finalTablets: number;
  /** The key range with most writes: its share of all writes. */
  readonly hottestRangeShare: number;
  /** That range's label. */
  readonly hottestRange: string;
}
