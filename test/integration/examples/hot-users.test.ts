import { beforeAll, describe, expect, it } from 'vitest';
import { run, type HotUsersData } from '../../../examples/hot-users/run.js';
import type { ScenarioReport } from '../../../examples/shared/scenario-report.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

let report: ScenarioReport & { data: HotUsersData };

beforeAll(async () => {
  report = await run({
    emulatorHost: emulatorHost(),
    instance: testInstanceId,
    table: uniqueTableId('ex-hot-users'),
    rowsPerUserSite: 12,
    hotFactor: 4,
  });
});

describe('example: hot users (seed 003)', () => {
  it('every fact it prints holds', () => {
    expect(report.facts.filter((f) => !f.ok)).toEqual([]);
    expect(report.facts.length).toBeGreaterThanOrEqual(6);
  });

  it('keeps rows before the cutoff unsalted and salts rows from the cutoff on', () => {
    const d = report.data;
    expect(d.rows).toBe(3 * 2 * 12 + 2 * 48);
    expect(d.oldRows + d.newRows).toBe(d.rows);
    expect(d.oldRows).toBeGreaterThan(0);
    expect(d.unsaltedOld).toBe(d.oldRows);
    expect(d.saltedNew).toBe(d.newRows);
  });

  it('keeps each per-user-site scan in one bucket', () => {
    expect(report.data.recentScanSources).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    const salted = report.data.hotScanLayouts.filter((l) => l.startsWith('salted'));
    expect(salted).toHaveLength(1);
    expect(report.data.hotScanLayouts).toContain('unsalted');
  });

  it('scans both layouts merged in key order', () => {
    const d = report.data;
    expect(d.hotScanRows).toBe(48);
    expect(d.hotScanRows).toBe(d.hotScanExpected);
    expect(d.hotScanOrdered).toBe(true);
    expect(d.fullScanSources).toBe(8);
    expect(d.fullScanRows).toBe(d.rows);
    expect(d.fullScanOrdered).toBe(true);
  });

  it('shows raw keys of both layouts', () => {
    expect(report.shown[0]).toMatch(
      /^keys: user42-web-\d{13} \(before the cutoff, as-is\) → -?\d-user42-web-\d{13} \(from the cutoff, salted\)$/,
    );
  });
});
