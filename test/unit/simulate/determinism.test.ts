import { describe, expect, it } from 'vitest';
import { simulateHotspots, type SimulateHotspotsParams } from '../../../src/tools.js';
import { UserEvents } from './seed-entities.js';

const params = (seed: number): SimulateHotspotsParams => ({
  entity: UserEvents,
  workload: {
    keys: { userId: { kind: 'zipf', entities: 2000, exponent: 1.1 }, at: { kind: 'sequential-time', stepMs: 1000 } },
    writesPerSecond: 2000,
    durationSeconds: 600,
    rampSeconds: 120,
    seed,
  },
  alternatives: [{ salt: { buckets: 4 } }],
  samplesPerStep: 100,
  keyRanges: 32,
});

describe('simulateHotspots determinism', () => {
  it('gives the same report for the same seed', () => {
    expect(simulateHotspots(params(5))).toEqual(simulateHotspots(params(5)));
  });

  it('gives a different report for another seed', () => {
    expect(simulateHotspots(params(6)).layouts[0]?.rangeOps).not.toEqual(
      simulateHotspots(params(5)).layouts[0]?.rangeOps,
    );
  });

  it('reports progress after every step of every layout, ending at the total', () => {
    const seen: [number, number][] = [];
    const report = simulateHotspots({ ...params(5), onProgress: (done, total) => seen.push([done, total]) });
    const steps = report.layouts[0]!.steps.length;
    expect(seen).toEqual(Array.from({ length: 2 * steps }, (_, i) => [i + 1, 2 * steps]));
  });

  it('is plain JSON: a round trip through JSON gives the same report', () => {
    const report = simulateHotspots(params(5));
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('draws the same logical writes for every layout, so layouts compare like for like', () => {
    const report = simulateHotspots(params(5));
    const [declared, salted] = report.layouts;
    const logical = (key: string) => key.replace(/^\d+#/, '');
    expect(salted?.exampleKeys.map(logical)).toEqual(declared?.exampleKeys);
    expect(salted?.steps.map((s) => s.writes)).toEqual(declared?.steps.map((s) => s.writes));
  });

  it('ramps the write rate up linearly and reports every step', () => {
    const report = simulateHotspots(params(5));
    const steps = report.layouts[0]?.steps ?? [];
    expect(steps).toHaveLength(120);
    expect(steps[0]?.writes).toBeLessThan(steps[30]?.writes ?? 0);
    expect(steps[119]?.writes).toBeCloseTo(2000 * 5, 5);
    // 600 s at 2,000/s, less the half of the 120 s ramp that is missing.
    expect(report.writes).toBe(2000 * (600 - 60));
  });
});
