import { describe, expect, it } from 'vitest';
import { gcFilterBounds, survivesGc } from '../../../src/read/gc-enforce.js';
import type { GcRule } from '../../../src/model/gc-rule.js';

const NOW = 1_700_000_000_000_000; // microseconds
const MINUTE = 60_000_000;
const maxVersions = (count: number): GcRule => ({ kind: 'maxVersions', count });
const maxAge = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });

describe('survivesGc', () => {
  it('keeps everything without a rule', () => {
    expect(survivesGc(undefined, 1000, 0, NOW)).toBe(true);
  });

  it('maxVersions keeps the newest n versions', () => {
    const rule = maxVersions(2);
    expect([0, 1, 2, 3].map((i) => survivesGc(rule, i, NOW, NOW))).toEqual([true, true, false, false]);
  });

  it('maxAge keeps cells at most that old (the boundary survives)', () => {
    const rule = maxAge(60);
    expect(survivesGc(rule, 0, NOW, NOW)).toBe(true);
    expect(survivesGc(rule, 0, NOW - MINUTE, NOW)).toBe(true);
    expect(survivesGc(rule, 0, NOW - MINUTE - 1000, NOW)).toBe(false);
    expect(survivesGc(rule, 99, NOW - 1000, NOW)).toBe(true);
  });

  it('union collects a cell when any rule does', () => {
    const rule: GcRule = { kind: 'union', rules: [maxVersions(2), maxAge(60)] };
    expect(survivesGc(rule, 1, NOW, NOW)).toBe(true);
    expect(survivesGc(rule, 2, NOW, NOW)).toBe(false); // too many versions
    expect(survivesGc(rule, 0, NOW - 2 * MINUTE, NOW)).toBe(false); // too old
  });

  it('intersection collects a cell only when every rule does', () => {
    const rule: GcRule = { kind: 'intersection', rules: [maxVersions(2), maxAge(60)] };
    expect(survivesGc(rule, 2, NOW, NOW)).toBe(true); // extra version, but recent
    expect(survivesGc(rule, 0, NOW - 2 * MINUTE, NOW)).toBe(true); // old, but among the newest 2
    expect(survivesGc(rule, 2, NOW - 2 * MINUTE, NOW)).toBe(false);
  });

  it('nests', () => {
    const rule: GcRule = {
      kind: 'union',
      rules: [maxVersions(5), { kind: 'intersection', rules: [maxVersions(1), maxAge(60)] }],
    };
    expect(survivesGc(rule, 1, NOW, NOW)).toBe(true);
    expect(survivesGc(rule, 1, NOW - 2 * MINUTE, NOW)).toBe(false);
    expect(survivesGc(rule, 0, NOW - 2 * MINUTE, NOW)).toBe(true);
    expect(survivesGc(rule, 5, NOW, NOW)).toBe(false);
  });
});

describe('gcFilterBounds', () => {
  it('gives nothing without a rule or for an intersection', () => {
    expect(gcFilterBounds(undefined, NOW)).toEqual({});
    expect(gcFilterBounds({ kind: 'intersection', rules: [maxVersions(2), maxAge(60)] }, NOW)).toEqual({});
  });

  it('gives a version cap for maxVersions and an oldest timestamp for maxAge', () => {
    expect(gcFilterBounds(maxVersions(3), NOW)).toEqual({ maxVersions: 3 });
    expect(gcFilterBounds(maxAge(60), NOW)).toEqual({ startMicros: NOW - MINUTE });
  });

  it('floors the oldest timestamp to milliseconds, so the boundary cell is kept', () => {
    expect(gcFilterBounds(maxAge(60), NOW + 999)).toEqual({ startMicros: NOW - MINUTE });
  });

  it('gives both for a union, skipping nested intersections', () => {
    expect(gcFilterBounds({ kind: 'union', rules: [maxVersions(2), maxAge(3600)] }, NOW)).toEqual({
      maxVersions: 2,
      startMicros: NOW - 60 * MINUTE,
    });
    expect(
      gcFilterBounds(
        { kind: 'union', rules: [maxVersions(4), { kind: 'intersection', rules: [maxVersions(1), maxAge(60)] }] },
        NOW,
      ),
    ).toEqual({ maxVersions: 4 });
  });

  it('never drops a cell that survivesGc keeps', () => {
    const rules: GcRule[] = [
      maxVersions(2),
      maxAge(60),
      { kind: 'union', rules: [maxVersions(2), maxAge(60)] },
      { kind: 'intersection', rules: [maxVersions(2), maxAge(60)] },
    ];
    for (const rule of rules) {
      const bounds = gcFilterBounds(rule, NOW);
      for (let index = 0; index < 4; index++) {
        for (const age of [0, MINUTE, MINUTE + 1000, 10 * MINUTE]) {
          const ts = NOW - age;
          const keptByFilter = index < (bounds.maxVersions ?? Infinity) && ts >= (bounds.startMicros ?? -Infinity);
          if (survivesGc(rule, index, ts, NOW))
            expect(keptByFilter, `${JSON.stringify(rule)} #${index} age ${age}`).toBe(true);
        }
      }
    }
  });
});
