import { ValueType } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { dashboardData, quantile, type MetricSnapshot } from '../../../scripts/dashboard/dashboard-data.js';
import { formatMs, renderDashboardSvg } from '../../../scripts/dashboard/dashboard-svg.js';

const BOUNDARIES = [0, 1, 2, 5];
const START_MS = 1_700_000_000_000;

function hr(ms: number): [number, number] {
  return [Math.floor(ms / 1000), (ms % 1000) * 1e6];
}

function histogram(
  name: string,
  from: number,
  to: number,
  points: readonly { attributes: Record<string, string>; counts: number[]; min: number; max: number }[],
): MetricData {
  return {
    descriptor: { name, description: '', unit: 'ms', valueType: ValueType.DOUBLE },
    aggregationTemporality: AggregationTemporality.DELTA,
    dataPointType: DataPointType.HISTOGRAM,
    dataPoints: points.map((p): DataPoint<Histogram> => ({
      startTime: hr(START_MS + from),
      endTime: hr(START_MS + to),
      attributes: p.attributes,
      value: {
        buckets: { boundaries: BOUNDARIES, counts: p.counts },
        count: p.counts.reduce((a, b) => a + b, 0),
        min: p.min,
        max: p.max,
      },
    })),
  };
}

function counter(
  name: string,
  from: number,
  to: number,
  points: readonly [Record<string, string>, number][],
): MetricData {
  return {
    descriptor: { name, description: '', unit: '1', valueType: ValueType.INT },
    aggregationTemporality: AggregationTemporality.DELTA,
    dataPointType: DataPointType.SUM,
    isMonotonic: true,
    dataPoints: points.map(([attributes, value]) => ({
      startTime: hr(START_MS + from),
      endTime: hr(START_MS + to),
      attributes,
      value,
    })),
  };
}

const scan = { method: 'ReadRows', entity: 'Reading', operation: 'scan', status: 'OK' };
const saveMany = { method: 'MutateRows', entity: 'Reading', operation: 'saveMany', status: 'OK' };

/** Two DELTA exports: the first second, then the next two seconds. */
const SNAPSHOTS: MetricSnapshot[] = [
  [
    histogram('operation_latencies', 0, 1000, [
      { attributes: scan, counts: [0, 10, 80, 10, 0], min: 0.5, max: 4 },
      { attributes: saveMany, counts: [0, 0, 2, 0, 0], min: 1.5, max: 1.8 },
    ]),
    histogram('attempt_latencies', 0, 1000, [
      { attributes: scan, counts: [0, 10, 80, 11, 0], min: 0.5, max: 4 },
      { attributes: saveMany, counts: [0, 0, 2, 0, 0], min: 1.5, max: 1.8 },
    ]),
    counter('retry_count', 0, 1000, [
      [scan, 1],
      [saveMany, 0],
    ]),
    counter('connectivity_error_count', 0, 1000, [[{ ...scan, status: 'UNAVAILABLE' }, 1]]),
  ],
  [
    histogram('operation_latencies', 1000, 3000, [{ attributes: scan, counts: [0, 0, 0, 0, 4], min: 6, max: 9 }]),
    counter('connectivity_error_count', 1000, 3000, [[{ ...scan, status: 'INTERNAL' }, 0]]),
    counter('rows_read', 1000, 3000, [[scan, 500]]),
  ],
];

const RUN = {
  title: 'A <test> run & more',
  caption: ['first caption line', 'second caption line'],
  startedAtMs: START_MS,
  resetsAtMs: [START_MS + 1500],
};

describe('quantile', () => {
  it('interpolates inside the bucket that holds the rank, within min and max', () => {
    expect(quantile(BOUNDARIES, [0, 10, 80, 10, 0], 0.5)).toBeCloseTo(1.5);
    expect(quantile(BOUNDARIES, [0, 10, 80, 10, 0], 0.99)).toBeCloseTo(4.7);
    expect(quantile(BOUNDARIES, [0, 10, 80, 10, 0], 0.99, 0.5, 4)).toBe(4);
    expect(quantile(BOUNDARIES, [0, 0, 0, 0, 4], 0.5, 6, 9)).toBeCloseTo(7);
    expect(quantile(BOUNDARIES, [3, 0, 0, 0, 0], 0.5, 0, 0)).toBe(0);
    expect(quantile(BOUNDARIES, [0, 0, 0, 0, 0], 0.5)).toBeNaN();
  });
});

describe('dashboardData', () => {
  const data = dashboardData(SNAPSHOTS, RUN);

  it('merges the histograms of every export per method and per entity operation', () => {
    expect(data.byMethod).toHaveLength(2);
    const [reads, writes] = data.byMethod;
    expect(reads).toMatchObject({ label: 'ReadRows', calls: 104 });
    expect(reads?.p50).toBeCloseTo(1 + 42 / 80);
    expect(reads?.p99).toBeCloseTo(5 + 4 * (2.96 / 4));
    expect(writes).toMatchObject({ label: 'MutateRows', calls: 2, p50: 1.5, p99: 1.8 });
    expect(data.byOperation.map((r) => [r.label, r.calls])).toEqual([
      ['Reading.scan', 104],
      ['Reading.saveMany', 2],
    ]);
  });

  it('counts attempts, retries and connectivity errors per method, skipping zero counts', () => {
    expect(data.attempts).toEqual([
      { method: 'MutateRows', calls: 2, attempts: 2, retries: 0, connectivityErrors: 0 },
      { method: 'ReadRows', calls: 104, attempts: 101, retries: 1, connectivityErrors: 1 },
    ]);
    expect(data.connectivityErrors).toEqual([{ label: 'ReadRows UNAVAILABLE', count: 1 }]);
  });

  it('turns each export into calls per second over its interval, on the run clock', () => {
    expect(data.seconds).toEqual([1, 3]);
    expect(data.rates).toEqual([
      { label: 'Reading.saveMany', perSecond: [2, 0] },
      { label: 'Reading.scan', perSecond: [100, 2] },
    ]);
    expect(data.resets).toEqual([1.5]);
  });
});

describe('renderDashboardSvg', () => {
  const svg = renderDashboardSvg(dashboardData(SNAPSHOTS, RUN));
  const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

  it('draws the five panels with their labels and values', () => {
    expect(texts).toEqual(
      expect.arrayContaining([
        'A &#60;test&#62; run &#38; more',
        'first caption line',
        'second caption line',
        'RPC latency by method',
        'RPC latency by entity operation',
        'Attempts and retries by method',
        'Connectivity errors',
        'RPC calls per second by entity operation',
        'ReadRows',
        'MutateRows',
        'Reading.scan',
        'Reading.saveMany',
        'p50 1.5 ms · p99 8 ms · 104 calls',
        'p50 1.5 ms · p99 1.8 ms · 2 calls',
        '104 calls · 101 attempts · 1 retries (0.96 % of calls)',
        'ReadRows UNAVAILABLE',
        '1 in all',
        'Reading.scan: 51/s mean',
        'Reading.saveMany: 1/s mean',
        'reset',
      ]),
    );
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<line class="reset"/g)).toHaveLength(1);
    expect(svg.match(/<text/g)?.length).toBe(svg.match(/<\/text>/g)?.length);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('says so when nothing was measured', () => {
    const empty = renderDashboardSvg(dashboardData([], { ...RUN, resetsAtMs: [] }));
    expect(empty.match(/no calls in this run/g)).toHaveLength(4);
    expect(empty).toContain('none in this run');
    expect(empty).not.toContain('<polyline');
  });

  it('writes latencies at a useful precision', () => {
    expect([0.423, 3.42, 27.4, 1234, NaN].map(formatMs)).toEqual(['0.42 ms', '3.4 ms', '27 ms', '1.2 s', 'n/a']);
  });
});
