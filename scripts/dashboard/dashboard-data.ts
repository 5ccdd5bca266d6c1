/**
 * The numbers of the observability dashboard (docs/images/observability-dashboard.png), computed from the
 * metrics a run exported: latency percentiles from the histogram buckets, attempts against retries,
 * connectivity errors and RPC calls per second. Pure: metric data in, dashboard data out.
 */
import { DataPointType, type DataPoint, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics';

/** One export of the `bigtable-mapper` meter's metrics, with DELTA temporality: what happened since the last one. */
export type MetricSnapshot = readonly MetricData[];

/** Latency of the RPC calls of one group (a method, or an entity's repository operation). */
export interface LatencyRow {
  readonly label: string;
  readonly calls: number;
  /** Milliseconds, estimated from the histogram buckets (see {@link quantile}). */
  readonly p50: number;
  readonly p99: number;
}

/** RPC calls, their attempts and what went wrong with them, for one method. */
export interface AttemptRow {
  readonly method: string;
  readonly calls: number;
  readonly attempts: number;
  readonly retries: number;
  readonly connectivityErrors: number;
}

/** Connectivity errors of one method and status. */
export interface ErrorRow {
  readonly label: string;
  readonly count: number;
}

/** RPC calls per second of one entity's repository operation, one value per snapshot. */
export interface RateSeries {
  readonly label: string;
  readonly perSecond: readonly number[];
}

/** What the dashboard shows. */
export interface DashboardData {
  readonly title: string;
  /** Lines under the title: where the numbers come from. */
  readonly caption: readonly string[];
  readonly byMethod: readonly LatencyRow[];
  readonly byOperation: readonly LatencyRow[];
  readonly attempts: readonly AttemptRow[];
  readonly connectivityErrors: readonly ErrorRow[];
  /** The end of each snapshot's interval, in seconds since the run started. */
  readonly seconds: readonly number[];
  readonly rates: readonly RateSeries[];
  /** When the run reset the network, in seconds since it started. */
  readonly resets: readonly number[];
}

/** What the run says about itself. */
export interface RunDescription {
  readonly title: string;
  readonly caption: readonly string[];
  /** Epoch milliseconds at which the run started: the origin of the time axis. */
  readonly startedAtMs: number;
  /** Epoch milliseconds of each network reset. */
  readonly resetsAtMs: readonly number[];
}

/** A histogram merged over snapshots. */
interface Merged {
  boundaries: readonly number[];
  counts: number[];
  count: number;
  min: number;
  max: number;
}

/**
 * The `q` quantile (0–1) of a histogram, the way Prometheus's `histogram_quantile` estimates it: found
 * in the bucket where the cumulative count reaches `q` of the total, interpolated linearly inside it,
 * and kept within the smallest and largest value recorded (`min`, `max`), which the OpenTelemetry
 * histogram keeps too. `counts` has one more entry than `boundaries` (the bucket above the last one).
 * `NaN` for an empty histogram.
 *
 * @example
 * ```ts
 * quantile([0, 1, 2, 5], [0, 10, 80, 10, 0], 0.5); // 1.5
 * ```
 */
export function quantile(
  boundaries: readonly number[],
  counts: readonly number[],
  q: number,
  min = -Infinity,
  max = Infinity,
): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return NaN;
  const rank = q * total;
  let below = 0;
  for (const [i, count] of counts.entries()) {
    if (count > 0 && below + count >= rank) {
      const first = boundaries[0] ?? 0;
      const lower = i > 0 ? (boundaries[i - 1] as number) : Number.isFinite(min) ? Math.min(min, first) : first;
      const upper = i < boundaries.length ? (boundaries[i] as number) : max;
      const estimate = Number.isFinite(upper) ? lower + ((upper - lower) * (rank - below)) / count : lower;
      return Math.min(max, Math.max(min, estimate));
    }
    below += count;
  }
  return Math.min(max, boundaries.at(-1) ?? 0);
}

function hrMs(time: readonly [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}

function text(value: unknown): string {
  return value === undefined ? '' : String(value);
}

function operationLabel(attributes: DataPoint<unknown>['attributes']): string | undefined {
  const entity = attributes['entity'];
  return entity === undefined ? undefined : `${text(entity)}.${text(attributes['operation'])}`;
}

function pointsOf(snapshot: MetricSnapshot, name: string): DataPoint<unknown>[] {
  return snapshot.filter((m) => m.descriptor.name === name).flatMap((m) => m.dataPoints as DataPoint<unknown>[]);
}

function histogramPoints(snapshot: MetricSnapshot, name: string): DataPoint<Histogram>[] {
  return snapshot
    .filter((m) => m.descriptor.name === name && m.dataPointType === DataPointType.HISTOGRAM)
    .flatMap((m) => m.dataPoints as DataPoint<Histogram>[]);
}

function mergeInto(groups: Map<string, Merged>, key: string, value: Histogram): void {
  const found = groups.get(key);
  if (found === undefined) {
    groups.set(key, {
      boundaries: value.buckets.boundaries,
      counts: [...value.buckets.counts],
      count: value.count,
      min: value.min ?? -Infinity,
      max: value.max ?? Infinity,
    });
    return;
  }
  if (found.boundaries.join() !== value.buckets.boundaries.join())
    throw new Error(`dashboard: the histogram of ${key} changed its bucket boundaries between snapshots`);
  for (const [i, c] of value.buckets.counts.entries()) found.counts[i] = (found.counts[i] ?? 0) + c;
  found.count += value.count;
  found.min = Math.min(found.min, value.min ?? -Infinity);
  found.max = Math.max(found.max, value.max ?? Infinity);
}

function latencyRows(groups: Map<string, Merged>): LatencyRow[] {
  return [...groups.entries()]
    .map(([label, h]) => ({
      label,
      calls: h.count,
      p50: quantile(h.boundaries, h.counts, 0.5, h.min, h.max),
      p99: quantile(h.boundaries, h.counts, 0.99, h.min, h.max),
    }))
    .sort((a, b) => b.calls - a.calls || a.label.localeCompare(b.label));
}

function addTo(totals: Map<string, number>, key: string, value: number): void {
  totals.set(key, (totals.get(key) ?? 0) + value);
}

/**
 * The dashboard's numbers from a run's DELTA snapshots (in export order) of `operation_latencies`,
 * `attempt_latencies`, `retry_count` and `connectivity_error_count`; other metrics are ignored.
 * Latencies are of RPC calls (`operation_latencies`, every status); a rate is RPC calls in a snapshot
 * divided by the snapshot's interval.
 *
 * @example
 * ```ts
 * const data = dashboardData(exporter.getMetrics().map(scopeMetricsOfTheMapper), run);
 * ```
 */
export function dashboardData(snapshots: readonly MetricSnapshot[], run: RunDescription): DashboardData {
  const byMethod = new Map<string, Merged>();
  const byOperation = new Map<string, Merged>();
  const calls = new Map<string, number>();
  const attempts = new Map<string, number>();
  const retries = new Map<string, number>();
  const errors = new Map<string, number>();
  const errorsByMethod = new Map<string, number>();
  const seconds: number[] = [];
  const rates = new Map<string, number[]>();
  for (const [index, snapshot] of snapshots.entries()) {
    const operations = histogramPoints(snapshot, 'operation_latencies');
    let start = Infinity;
    let end = -Infinity;
    for (const point of operations) {
      const method = text(point.attributes['method']);
      mergeInto(byMethod, method, point.value);
      addTo(calls, method, point.value.count);
      start = Math.min(start, hrMs(point.startTime));
      end = Math.max(end, hrMs(point.endTime));
      const operation = operationLabel(point.attributes);
      if (operation === undefined) continue;
      mergeInto(byOperation, operation, point.value);
      let series = rates.get(operation);
      if (series === undefined) {
        series = new Array<number>(snapshots.length).fill(0);
        rates.set(operation, series);
      }
      series[index] = (series[index] ?? 0) + point.value.count;
    }
    for (const point of histogramPoints(snapshot, 'attempt_latencies'))
      addTo(attempts, text(point.attributes['method']), point.value.count);
    for (const point of pointsOf(snapshot, 'retry_count'))
      addTo(retries, text(point.attributes['method']), point.value as number);
    for (const point of pointsOf(snapshot, 'connectivity_error_count')) {
      const method = text(point.attributes['method']);
      addTo(errors, `${method} ${text(point.attributes['status'])}`, point.value as number);
      addTo(errorsByMethod, method, point.value as number);
    }
    const intervalS = Number.isFinite(start) && end > start ? (end - start) / 1000 : NaN;
    for (const series of rates.values()) series[index] = (series[index] ?? 0) / intervalS || 0;
    seconds.push(Number.isFinite(end) ? (end - run.startedAtMs) / 1000 : (seconds.at(-1) ?? 0));
  }
  const methods = [...new Set([...calls.keys(), ...attempts.keys()])].sort();
  return {
    title: run.title,
    caption: run.caption,
    byMethod: latencyRows(byMethod),
    byOperation: latencyRows(byOperation),
    attempts: methods.map((method) => ({
      method,
      calls: calls.get(method) ?? 0,
      attempts: attempts.get(method) ?? 0,
      retries: retries.get(method) ?? 0,
      connectivityErrors: errorsByMethod.get(method) ?? 0,
    })),
    connectivityErrors: [...errors.entries()]
      .filter(([, count]) => count > 0)
      .map(([label, count]) => ({ label, count }))
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
    seconds,
    rates: [...rates.entries()]
      .map(([label, perSecond]) => ({ label, perSecond }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    resets: run.resetsAtMs.map((at) => (at - run.startedAtMs) / 1000),
  };
}
