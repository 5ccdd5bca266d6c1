import type { MachineInfo } from './machine.js';
import type { WorkloadId } from './options.js';

/** Which side of the comparison a variant is on. @example `'mapper'` */
export type Side = 'mapper' | 'raw';

/** One timed run of one variant. @example `{ rows: 100000, ms: 3100, rowsPerSec: 32258, cpuMs: 2900 }` */
export interface RunSample {
  readonly rows: number;
  readonly ms: number;
  readonly rowsPerSec: number;
  /** CPU (user + system) of the node process during the run. */
  readonly cpuMs: number;
  /** Time to the first row the consumer got (reads only). */
  readonly firstRowMs?: number;
  /** Peak heapUsed above the pre-run baseline, MiB, uncollected garbage included (reads only). */
  readonly peakHeapDeltaMB?: number;
  /** Live heap after a full GC halfway through the read minus the pre-read baseline, MiB: what the read really holds; about 0 (even slightly negative) for a streaming read (reads only). */
  readonly liveHeapMidMB?: number;
  /** Peak RSS of the node process, MiB (reads only). */
  readonly peakRssMB?: number;
}

/** Every run of one variant and their per-metric medians. @example `{ id: 'mapper-save-many', side: 'mapper', runs, median }` */
export interface VariantResult {
  readonly id: string;
  readonly label: string;
  readonly side: Side;
  readonly runs: readonly RunSample[];
  readonly median: RunSample;
}

/** A ratio of two variants' median rows/s, measured in the same run. @example `{ id: 'save-many/raw-objects', value: 1.2 }` */
export interface Ratio {
  readonly id: string;
  readonly label: string;
  readonly value: number;
}

/** A database workload: variants alternated in one process. @example `result.variants[0].median.rowsPerSec` */
export interface ThroughputResult {
  readonly kind: 'throughput';
  readonly id: WorkloadId;
  readonly title: string;
  readonly rows: number;
  readonly repeats: number;
  readonly variants: readonly VariantResult[];
  readonly ratios: readonly Ratio[];
}

/** One measured per-entity CPU cost. @example `{ id: 'compile-save', side: 'mapper', nsPerEntity: 2100 }` */
export interface CpuItem {
  readonly id: string;
  readonly label: string;
  readonly side: Side;
  readonly nsPerEntity: number;
}

/** The CPU-only workload. @example `result.items.find((i) => i.id === 'hydrate')` */
export interface CpuResult {
  readonly kind: 'cpu';
  readonly id: 'cpu';
  readonly title: string;
  readonly iterations: number;
  readonly items: readonly CpuItem[];
  readonly ratios: readonly Ratio[];
}

/** Spread of keys over one preset's buckets. @example `{ preset: 'md5', buckets: 16, prefixes: 16, min: 62200, max: 62900, ratio: 1.01 }` */
export interface EvennessRow {
  readonly preset: string;
  readonly buckets: number;
  /** Distinct salt prefixes (2N−1 for the signed preset). */
  readonly prefixes: number;
  readonly min: number;
  readonly max: number;
  /** max / min; `null` when a prefix got no key at all. */
  readonly ratio: number | null;
  readonly note?: string;
}

/** The bucket-evenness workload. @example `result.rows.length // 16` */
export interface EvennessResult {
  readonly kind: 'evenness';
  readonly id: 'evenness';
  readonly title: string;
  readonly keys: number;
  readonly keyPattern: string;
  readonly rows: readonly EvennessRow[];
}

/** One scan of the peak-memory check. @example `{ id: 'mapper-iterate', rows: 1000000, peakHeapDeltaMB: 21, heapByEighthMB: [...] }` */
export interface MemoryVariant {
  readonly id: string;
  readonly label: string;
  readonly side: Side;
  readonly rows: number;
  readonly ms: number;
  readonly rowsPerSec: number;
  readonly baselineHeapMB: number;
  readonly peakHeapDeltaMB: number;
  readonly peakRssMB: number;
  /** Peak heapUsed above baseline within each eighth of the rows, MiB (uncollected garbage included). */
  readonly heapByEighthMB: readonly number[];
  /** Live heap after a full GC at the end of each eighth minus the baseline, MiB (may dip below 0): flat means bounded (a plain sample when GC is not exposed). */
  readonly liveByEighthMB: readonly number[];
}

/** The large-iterate peak-memory check. @example `result.bounded // true` */
export interface MemoryResult {
  readonly kind: 'memory';
  readonly id: 'memory';
  readonly title: string;
  readonly rows: number;
  readonly variants: readonly MemoryVariant[];
  /** The mapper's heap stayed flat over the scan (see `boundedRule`). */
  readonly bounded: boolean;
  readonly boundedRule: string;
}

/** The BulkWriter's back-pressure run: a producer faster than the server, the heap against the cap, `add()` latency. @example `result.bounded // true` */
export interface BackpressureResult {
  readonly kind: 'backpressure';
  readonly id: 'bulk-writer-memory';
  readonly title: string;
  readonly rows: number;
  /** Entities the producer makes per second on its own. */
  readonly producerRowsPerSec: number;
  /** Rows written per second through the writer. */
  readonly writeRowsPerSec: number;
  /** producerRowsPerSec / writeRowsPerSec: how much faster the producer is than the server. */
  readonly producerSpeedup: number;
  /** The writer's `maxOutstandingBytes`, MiB. */
  readonly capMB: number;
  /** What the live heap may hold beyond the cap, MiB. */
  readonly heapConstantMB: number;
  /** Peak heapUsed above the pre-run baseline, MiB (uncollected garbage included). */
  readonly peakHeapDeltaMB: number;
  /** Largest heap after a full GC at the end of each eighth of the rows, above the baseline, MiB: what the writer holds (plain samples when GC is not exposed). */
  readonly liveHeapMaxMB: number;
  /** `add()` latency percentiles, ms: the time the producer was held back. */
  readonly addLatencyMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly p999: number;
    readonly max: number;
  };
  /** liveHeapMaxMB <= capMB + heapConstantMB. */
  readonly bounded: boolean;
}

/** Any workload's result. @example `if (w.kind === 'throughput') ...` */
export type WorkloadResult = ThroughputResult | CpuResult | EvennessResult | MemoryResult | BackpressureResult;

/** One target from the issue, checked against this run. @example `{ id: 'save-many-vs-objects', measured: 1.2, threshold: 1.1, pass: true }` */
export interface TargetCheck {
  readonly id: string;
  readonly description: string;
  /** `null` when not measurable (e.g. an empty bucket). */
  readonly measured: number | boolean | null;
  readonly threshold: string;
  readonly pass: boolean;
}

/** Everything one bench run measured. Written to `bench/results/latest.json`. @example `results.targets.every((t) => t.pass)` */
export interface BenchResults {
  readonly version: 1;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly machine: MachineInfo;
  readonly settings: Readonly<Record<string, unknown>>;
  /** Wall time of each workload (dataset loading included). */
  readonly durationsMs: Readonly<Record<string, number>>;
  readonly workloads: readonly WorkloadResult[];
  readonly targets: readonly TargetCheck[];
}
