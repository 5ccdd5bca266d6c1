import { beforeAll, describe, expect, it } from 'vitest';
import { run, type SensorReadingsData } from '../../../examples/sensor-readings/run.js';
import type { ScenarioReport } from '../../../examples/shared/scenario-report.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

let report: ScenarioReport & { data: SensorReadingsData };

beforeAll(async () => {
  report = await run({
    emulatorHost: emulatorHost(),
    instance: testInstanceId,
    table: uniqueTableId('ex-sensor-readings'),
  });
});

describe('example: sensor readings (seed 001)', () => {
  it('every fact it prints holds', () => {
    expect(report.facts.filter((f) => !f.ok)).toEqual([]);
    expect(report.facts.length).toBeGreaterThanOrEqual(5);
    expect(report.tables).toHaveLength(2);
  });

  it('keys readings sensorId#ISO timestamp', () => {
    expect(report.data.keys).toEqual(['sensor123#2023-05-01T12:00:00.000Z', 'sensor123#2023-05-01T12:05:00.000Z']);
  });

  it("scans exactly one sensor's hour: 12 readings", () => {
    expect(report.data.hourExpected).toBe(12);
    expect(report.data.hourRows).toBe(12);
  });

  it('returns versions newest first, capped at 5 after 7 writes', () => {
    expect(report.data.versionsWritten).toBe(7);
    expect(report.data.versionValues).toEqual([26.6, 26.5, 26.4, 26.3, 26.2]);
    expect([...report.data.versionTimes].sort().reverse()).toEqual(report.data.versionTimes);
  });

  it("copies the sensor's location into each reading, and propagates a move to that sensor's readings only", () => {
    expect(report.data.readings).toBe(108);
    expect(report.data.locationsCopied).toBe(108);
    expect(report.data.locationsAfterMove).toEqual(['lab-2']);
    expect(report.data.propagated).toEqual({ scanned: 36, updated: 36 });
  });
});
