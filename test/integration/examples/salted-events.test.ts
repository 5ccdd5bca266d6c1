import { beforeAll, describe, expect, it } from 'vitest';
import { run, type SaltedEventsData } from '../../../examples/salted-events/run.js';
import type { ScenarioReport } from '../../../examples/shared/scenario-report.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const EVENTS = 2_000;
let report: ScenarioReport & { data: SaltedEventsData };

beforeAll(async () => {
  report = await run({
    emulatorHost: emulatorHost(),
    instance: testInstanceId,
    table: uniqueTableId('ex-salted-events'),
    events: EVENTS,
    buckets: 10,
  });
});

describe('example: salted events (seed 002)', () => {
  it('every fact it prints holds', () => {
    expect(report.facts.filter((f) => !f.ok)).toEqual([]);
    expect(report.facts.length).toBeGreaterThanOrEqual(6);
  });

  it('writes every event and shows a salted key NN#event#<source>#<iso time>', () => {
    expect(report.data.written).toBe(EVENTS);
    expect(report.data.sampleKey).toMatch(/^\d\d#event#[a-z-]+#2026-02-17T10:00:\d\d\.000Z$/);
  });

  it('counts rows per bucket in the table exactly as bucketCounts() predicts, evenly', () => {
    const { countsFromKeys, countsInTable, evenness } = report.data;
    expect([...countsInTable.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(countsInTable).toEqual(countsFromKeys);
    expect([...countsInTable.values()].reduce((a, b) => a + b, 0)).toBe(EVENTS);
    expect(evenness.min).toBeGreaterThan(0);
    expect(evenness.ratio).toBeLessThan(1.5);
  });

  it('merges the parallel bucket scans in logical key order', () => {
    expect(report.data.scanned).toBe(EVENTS);
    expect(report.data.scanOrdered).toBe(true);
  });

  it("returns exactly one source's ten minutes from every bucket", () => {
    expect(report.data.rangeSources).toBe(10);
    expect(report.data.rangeExpected).toBe(200);
    expect(report.data.rangeRows).toBe(200);
  });
});
