import { beforeAll, describe, expect, it } from 'vitest';
import { run, type LatestEventsData } from '../../../examples/latest-events/run.js';
import type { ScenarioReport } from '../../../examples/shared/scenario-report.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

let report: ScenarioReport & { data: LatestEventsData };

beforeAll(async () => {
  report = await run({
    emulatorHost: emulatorHost(),
    instance: testInstanceId,
    table: uniqueTableId('ex-latest-events'),
    perCustomer: 50,
    latest: 5,
  });
});

describe('example: latest events (seed 004)', () => {
  it('every fact it prints holds', () => {
    expect(report.facts.filter((f) => !f.ok)).toEqual([]);
    expect(report.facts.length).toBeGreaterThanOrEqual(5);
  });

  it('returns the 5 most recent events first, newest first, from one range with a limit', () => {
    const d = report.data;
    expect(d.latest).toHaveLength(5);
    expect(d.latest).toEqual(d.expected);
    expect([...d.latest].sort().reverse()).toEqual(d.latest);
    expect(d.planSources).toBe(1);
    expect(d.planLimit).toBe(5);
  });

  it('stores the reverse timestamp 9999999999999 − ms in the key', () => {
    const ms = new Date(report.data.expected[0]!).getTime();
    expect(report.data.newestKey).toBe(`c1#${9_999_999_999_999 - ms}`);
  });

  it('reads only c1 rows, and a time range newest first', () => {
    expect(report.data.prefixRows).toBe(50);
    expect(report.data.lastDay).toEqual(report.data.lastDayExpected);
  });
});
