import { describe, expect, it } from 'vitest';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { MetadataError, ValidationError } from '../../../src/errors/index.js';
import { simulateHotspots, type SimulateHotspotsParams, type Workload } from '../../../src/tools.js';
import { SensorFirst, TimestampFirst, UserEvents } from './seed-entities.js';

const workload: Workload = {
  keys: { sensorId: { kind: 'uniform', values: 10 }, ts: { kind: 'sequential-time' } },
  writesPerSecond: 100,
  durationSeconds: 60,
};

function run(overrides: Partial<SimulateHotspotsParams>): ReturnType<typeof simulateHotspots> {
  return simulateHotspots({ entity: SensorFirst, workload, samplesPerStep: 5, ...overrides });
}

describe('simulateHotspots input checks', () => {
  it.each([
    [{ ...workload, keys: { sensorId: workload.keys.sensorId } }, /Workload\.keys\.ts is missing/],
    [
      { ...workload, keys: { ...workload.keys, nope: { kind: 'constant', value: 1 } } },
      /Workload\.keys\.nope is not a key property of SensorFirst/,
    ],
    [
      { ...workload, keys: { ...workload.keys, sensorId: { kind: 'zipf', entities: 1e9 } } },
      /entities must be a number from 1 to 1000000/,
    ],
    [
      { ...workload, keys: { ...workload.keys, sensorId: { kind: 'celebrity', share: 2 } } },
      /share must be a number from 0 to 1/,
    ],
    [
      { ...workload, keys: { ...workload.keys, sensorId: { kind: 'uniform', values: [] } } },
      /values must list 1 to 100000 values/,
    ],
    [{ ...workload, keys: { ...workload.keys, sensorId: { kind: 'teleport' } } }, /kind is "teleport"/],
    [{ ...workload, writesPerSecond: Number.NaN }, /Workload\.writesPerSecond must be a number/],
    [{ ...workload, durationSeconds: 1e12 }, /Workload\.durationSeconds must be a number/],
    [{ ...workload, stepSeconds: 0.001 }, /Workload\.stepSeconds must be a number/],
  ])('rejects a hostile or mistaken workload: %#', (bad, message) => {
    expect(() => run({ workload: bad as Workload })).toThrow(ValidationError);
    expect(() => run({ workload: bad as Workload })).toThrow(message);
  });

  it('rejects cluster values out of range, naming the field', () => {
    expect(() => run({ cluster: { nodes: 0 } })).toThrow(/ClusterModel\.nodes must be an integer from 1 to 1000/);
    expect(() => run({ cluster: { maxTablets: 1e9 } })).toThrow(/ClusterModel\.maxTablets/);
    expect(() => run({ keyRanges: 5000 })).toThrow(/keyRanges must be an integer from 1 to 1024/);
  });

  it('compiles an alternative salt like @Salt, with the same MetadataError for a bad one', () => {
    expect(() => run({ alternatives: [{ salt: { buckets: 4, on: ['ts'] } }] })).toThrow(MetadataError);
    expect(() => run({ alternatives: [{ salt: { buckets: 0 } }] })).toThrow(MetadataError);
  });

  it('accepts the compiled schema as well as the class', () => {
    expect(run({ entity: compileEntity(SensorFirst) })).toEqual(run({}));
  });

  it('names alternatives by their salt unless labelled', () => {
    const report = run({
      alternatives: [
        { salt: null },
        { salt: { buckets: 4 } },
        { salt: { buckets: 4, on: ['sensorId'] } },
        { salt: { buckets: 2 }, label: 'two' },
      ],
    });
    expect(report.layouts.map((l) => l.label)).toEqual(['declared', 'no salt', 'salt 4', 'salt 4 on sensorId', 'two']);
    expect(report.layouts[2]?.salt).toEqual({ buckets: 4, on: ['sensorId', 'ts'] });
    expect(report.layouts[2]?.exampleKeys[0]).toMatch(/^\d\d#sensorId-\d#2026-01-01T/);
  });
});

describe('key generators', () => {
  it('sequential-time follows the simulated clock at the given resolution', () => {
    const report = simulateHotspots({
      entity: TimestampFirst,
      workload: {
        keys: {
          ts: { kind: 'sequential-time', start: '2030-05-01T00:00:00Z', stepMs: 1000 },
          sensorId: { kind: 'constant', value: 's' },
        },
        writesPerSecond: 10,
        durationSeconds: 10,
        stepSeconds: 1,
      },
      samplesPerStep: 2,
    });
    expect(report.layouts[0]?.exampleKeys.slice(0, 3)).toEqual([
      '2030-05-01T00:00:00.000Z#s',
      '2030-05-01T00:00:00.000Z#s',
      '2030-05-01T00:00:01.000Z#s',
    ]);
  });

  it('a constant key is one row: its tablet cannot split, one node takes everything', () => {
    const report = simulateHotspots({
      entity: UserEvents,
      workload: {
        keys: { userId: { kind: 'constant', value: 'u' }, at: { kind: 'constant', value: 0 } },
        writesPerSecond: 50_000,
        durationSeconds: 600,
      },
      samplesPerStep: 20,
    });
    const summary = report.layouts[0]?.summary;
    expect(summary?.finalTablets).toBe(1);
    expect(summary?.meanBusiestShare).toBe(1);
    expect(summary?.hottestRangeShare).toBe(1);
  });

  it('a celebrity takes its share of the writes, in one key range', () => {
    const report = simulateHotspots({
      entity: UserEvents,
      workload: {
        keys: { userId: { kind: 'celebrity', share: 0.3, entities: 100 }, at: { kind: 'sequential-time' } },
        writesPerSecond: 1000,
        durationSeconds: 600,
      },
      keyRanges: 100,
      samplesPerStep: 400,
    });
    const summary = report.layouts[0]?.summary;
    expect(summary?.hottestRange).toBe('userId-50');
    expect(summary?.hottestRangeShare).toBeGreaterThan(0.28);
    expect(summary?.hottestRangeShare).toBeLessThan(0.34);
  });
});
