import { describe, expect, it } from 'vitest';
import { simulateHotspots, type SimulationReport, type Workload } from '../../../src/tools.js';
import { SaltedUserEvents, SensorFirst, TimestampFirst, UserEvents } from './seed-entities.js';

// The seeds' claims, checked against the model with fixed seeds. Bounds come from runs of these seeds
// (the measured value is in each comment) with margin left; each fails if the model stops showing the effect.

const RUN = { writesPerSecond: 3000, durationSeconds: 1200, seed: 11 } as const;
const SAMPLES = 250;

function layout(report: SimulationReport, label: string) {
  const found = report.layouts.find((l) => l.label === label);
  if (found === undefined) throw new Error(`no layout ${label}`);
  return found.summary;
}

describe('seed 001/002: a timestamp-first key puts every write on one node', () => {
  const workload: Workload = {
    ...RUN,
    keys: { ts: { kind: 'sequential-time' }, sensorId: { kind: 'uniform', values: 1000 } },
  };
  const report = simulateHotspots({
    entity: TimestampFirst,
    workload,
    alternatives: [{ salt: { buckets: 16 } }],
    samplesPerStep: SAMPLES,
  });

  it('the busiest of 3 nodes takes at least 90% of the writes after the warm-up', () => {
    const declared = layout(report, 'declared');
    expect(declared.meanBusiestShare).toBeGreaterThanOrEqual(0.9); // measured 1
    expect(declared.imbalance).toBeGreaterThan(2.7);
  });

  it('the hot tablet keeps splitting: new writes always land past every split point', () => {
    expect(layout(report, 'declared').finalTablets).toBeGreaterThan(20);
  });

  it('salting the same writes over 16 buckets brings the busiest node near 1/3', () => {
    const salted = layout(report, 'salt 16');
    expect(salted.meanBusiestShare).toBeLessThan(0.45); // measured 0.39
    expect(salted.meanBusiestShare).toBeLessThan(layout(report, 'declared').meanBusiestShare / 2);
  });
});

describe('seed 001: sensor-first keys spread many sensors over the nodes', () => {
  it('the busiest node stays within a small tolerance of 1/N', () => {
    for (const nodes of [3, 4]) {
      const report = simulateHotspots({
        entity: SensorFirst,
        workload: { ...RUN, keys: { sensorId: { kind: 'uniform', values: 5000 }, ts: { kind: 'sequential-time' } } },
        // Tablets split at 250 writes/s, so 3,000 writes/s make enough tablets (about 20) to balance finely.
        cluster: { nodes, hotOpsPerSecond: 250 },
        samplesPerStep: SAMPLES,
      });
      const { meanBusiestShare } = layout(report, 'declared');
      // Measured 1/N + 0.035, most of it sampling noise: the busiest of N noisy shares is above the mean.
      expect(meanBusiestShare).toBeLessThanOrEqual(1 / nodes + 0.07);
      expect(meanBusiestShare).toBeGreaterThanOrEqual(1 / nodes);
    }
  });
});

describe('seed 003: salting a celebrity user over k buckets divides its hotspot into k', () => {
  const report = simulateHotspots({
    entity: UserEvents,
    workload: {
      ...RUN,
      keys: { userId: { kind: 'celebrity', share: 0.5, entities: 10_000 }, at: { kind: 'sequential-time' } },
    },
    alternatives: [{ salt: { buckets: 4 } }, { salt: { buckets: 8 } }, { salt: { buckets: 8, on: ['userId'] } }],
    samplesPerStep: SAMPLES,
  });
  const unsalted = layout(report, 'declared').hottestRangeShare;

  it('unsalted, the celebrity range holds about its share of the writes', () => {
    expect(unsalted).toBeGreaterThan(0.45); // measured 0.50
    expect(unsalted).toBeLessThan(0.6);
  });

  it.each([4, 8])('salted over %i buckets, the hottest range is about 1/k as hot', (k) => {
    const ratio = layout(report, `salt ${k}`).hottestRangeShare / unsalted;
    expect(ratio).toBeGreaterThan(0.7 / k); // measured 1.05/k and 1.08/k (each bucket holds 1/k of the celebrity plus background)
    expect(ratio).toBeLessThan(1.5 / k);
  });

  it('salting on userId alone keeps the celebrity in one bucket: no relief', () => {
    expect(layout(report, 'salt 8 on userId').hottestRangeShare).toBeGreaterThan(0.45);
  });

  it('a declared @Salt gives the same figures as the same salt as an alternative', () => {
    const declared = simulateHotspots({
      entity: SaltedUserEvents,
      workload: {
        ...RUN,
        keys: { userId: { kind: 'celebrity', share: 0.5, entities: 10_000 }, at: { kind: 'sequential-time' } },
      },
      samplesPerStep: SAMPLES,
    });
    expect(layout(declared, 'declared')).toEqual(layout(report, 'salt 8'));
  });
});
