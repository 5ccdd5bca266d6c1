import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRead, resumeReadPlan, type ReadPlan } from '../../../src/driver/read-plan.js';
import { ValidationError } from '../../../src/errors/errors.js';
import type { KeyRange } from '../../../src/model/driver.js';
import { propertyRuns } from '../../support/property-runs.js';

const b = (text: string): Buffer => Buffer.from(text);
const range = (start: string, end?: string, inclusive: [boolean, boolean] = [true, false]): KeyRange => ({
  start: { key: b(start), inclusive: inclusive[0] },
  end: end === undefined ? undefined : { key: b(end), inclusive: inclusive[1] },
});

/** Whether a plan asks for `key` (before its limit). */
function asks(plan: ReadPlan, key: Buffer): boolean {
  if (plan.keys.some((k) => k.equals(key))) return true;
  return plan.ranges.some(({ start, end }) => {
    const afterStart =
      start === undefined ||
      (start.inclusive ? Buffer.compare(key, start.value) >= 0 : Buffer.compare(key, start.value) > 0);
    const beforeEnd =
      end === undefined || (end.inclusive ? Buffer.compare(key, end.value) <= 0 : Buffer.compare(key, end.value) < 0);
    return afterStart && beforeEnd;
  });
}

describe('planRead', () => {
  it('reads the whole table through one open range when neither ranges nor keys are given', () => {
    expect(planRead({ table: 't' })).toEqual({ ranges: [{}], keys: [], limit: undefined, filter: undefined });
  });

  it('plans nothing for limit 0, for empty ranges and keys, and for ranges that cannot hold a row', () => {
    expect(planRead({ table: 't', limit: 0 })).toBeUndefined();
    expect(planRead({ table: 't', ranges: [], keys: [] })).toBeUndefined();
    expect(
      planRead({ table: 't', ranges: [range('b', 'a'), range('a', 'a')], keys: [Buffer.alloc(0)] }),
    ).toBeUndefined();
  });

  it('keeps an inclusive empty-start range open at the start and passes limit and filter on', () => {
    const plan = planRead({
      table: 't',
      ranges: [range('', 'm')],
      keys: [b('z')],
      limit: 5,
      filter: { kind: 'cellsPerColumn', limit: 1 },
    });
    expect(plan?.ranges).toEqual([{ end: { value: b('m'), inclusive: false } }]);
    expect(plan?.keys).toEqual([b('z')]);
    expect(plan?.limit).toBe(5);
    expect(plan?.filter).toEqual({ cellsPerColumnLimitFilter: 1 });
  });

  it('rejects a negative or fractional limit with a ValidationError that says how to fix it', () => {
    expect(() => planRead({ table: 't', limit: -1 })).toThrow(ValidationError);
    expect(() => planRead({ table: 't', limit: 1.5 })).toThrow(
      /limit 1.5 is not a non-negative integer. Fix: pass a row count/,
    );
  });
});

describe('resumeReadPlan', () => {
  it('starts a range after the last key delivered and drops ranges and keys already passed', () => {
    const plan = planRead({
      table: 't',
      ranges: [range('a', 'c'), range('d', 'f'), range('g', 'g', [true, true])],
      keys: [b('b1'), b('e5'), b('z')],
    }) as ReadPlan;
    const rest = resumeReadPlan(plan, b('e'), 3);
    expect(rest?.ranges).toEqual([
      { start: { value: b('e'), inclusive: false }, end: { value: b('f'), inclusive: false } },
      { start: { value: b('g'), inclusive: true }, end: { value: b('g'), inclusive: true } },
    ]);
    expect(rest?.keys).toEqual([b('e5'), b('z')]);
  });

  it('lowers the limit by the rows already read, and ends the read when the limit or the ranges are used up', () => {
    const plan = planRead({ table: 't', ranges: [range('a', 'c')], limit: 10 }) as ReadPlan;
    expect(resumeReadPlan(plan, b('b'), 4)?.limit).toBe(6);
    expect(resumeReadPlan(plan, b('b'), 10)).toBeUndefined();
    expect(resumeReadPlan(plan, b('c'), 4)).toBeUndefined();
    expect(
      resumeReadPlan(planRead({ table: 't', ranges: [range('a', 'c', [true, true])] }) as ReadPlan, b('c'), 1),
    ).toBeUndefined();
  });

  it('asks for exactly the keys after the last one that the original plan asked for', () => {
    const key = fc.uint8Array({ maxLength: 3 }).map((bytes) => Buffer.from(bytes));
    const keyRange = fc.record({
      start: key,
      end: fc.option(key, { nil: undefined }),
      inclusive: fc.tuple(fc.boolean(), fc.boolean()),
    });
    fc.assert(
      fc.property(
        fc.array(keyRange, { maxLength: 4 }),
        fc.array(key, { maxLength: 4 }),
        key,
        fc.array(key, { maxLength: 30 }),
        (ranges, keys, lastKey, probes) => {
          const request = {
            table: 't',
            ranges: ranges.map((r): KeyRange => ({
              start: { key: r.start, inclusive: r.inclusive[0] },
              end: r.end === undefined ? undefined : { key: r.end, inclusive: r.inclusive[1] },
            })),
            keys,
          };
          const plan = planRead(request);
          if (plan === undefined) return;
          const rest = resumeReadPlan(plan, lastKey, 0);
          for (const probe of [...probes, lastKey, ...keys, ...ranges.map((r) => r.start)]) {
            const expected = asks(plan, probe) && Buffer.compare(probe, lastKey) > 0;
            expect(rest !== undefined && asks(rest, probe)).toBe(expected);
          }
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('reversed: ends a range before the last key delivered and drops ranges and keys at or above it', () => {
    const plan = planRead({
      table: 't',
      ranges: [range('a', 'c'), range('d', 'f'), range('g', 'g', [true, true])],
      keys: [b('b1'), b('e5'), b('z')],
      limit: 10,
      reversed: true,
    }) as ReadPlan;
    expect(plan.reversed).toBe(true);
    const rest = resumeReadPlan(plan, b('e'), 3);
    expect(rest).toEqual({
      ranges: [
        { start: { value: b('a'), inclusive: true }, end: { value: b('c'), inclusive: false } },
        { start: { value: b('d'), inclusive: true }, end: { value: b('e'), inclusive: false } },
      ],
      keys: [b('b1')],
      limit: 7,
      filter: undefined,
      reversed: true,
    });
    expect(resumeReadPlan(plan, b('a'), 3)).toBeUndefined();
    const open = planRead({ table: 't', reversed: true }) as ReadPlan;
    expect(resumeReadPlan(open, b('m'), 1)?.ranges).toEqual([{ end: { value: b('m'), inclusive: false } }]);
  });

  it('reversed: asks for exactly the keys below the last one that the original plan asked for', () => {
    const key = fc.uint8Array({ maxLength: 3 }).map((bytes) => Buffer.from(bytes));
    const keyRange = fc.record({
      start: key,
      end: fc.option(key, { nil: undefined }),
      inclusive: fc.tuple(fc.boolean(), fc.boolean()),
    });
    fc.assert(
      fc.property(
        fc.array(keyRange, { maxLength: 4 }),
        fc.array(key, { maxLength: 4 }),
        key.filter((k) => k.length > 0),
        fc.array(key, { maxLength: 30 }),
        (ranges, keys, lastKey, probes) => {
          const plan = planRead({
            table: 't',
            ranges: ranges.map((r): KeyRange => ({
              start: { key: r.start, inclusive: r.inclusive[0] },
              end: r.end === undefined ? undefined : { key: r.end, inclusive: r.inclusive[1] },
            })),
            keys,
            reversed: true,
          });
          if (plan === undefined) return;
          const rest = resumeReadPlan(plan, lastKey, 0);
          for (const probe of [...probes, lastKey, ...keys, ...ranges.map((r) => r.start)]) {
            const expected = asks(plan, probe) && Buffer.compare(probe, lastKey) < 0;
            expect(rest !== undefined && asks(rest, probe)).toBe(expected);
            if (rest !== undefined) expect(rest.reversed).toBe(true);
          }
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });
});
