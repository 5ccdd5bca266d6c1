import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The client's own range builder, as the reference the driver's messages must equal (tests only: src/ never imports build/).
import { Filter } from '@google-cloud/bigtable/build/src/filter.js';
import { planRead, type PlanRange, type ReadPlan } from '../../../src/driver/read-plan.js';
import { toReadRowsMessage, toRowRangeMessage } from '../../../src/driver/read-rows-message.js';

const boundArb = fc.option(
  fc.record({ value: fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)), inclusive: fc.boolean() }),
  { nil: undefined },
);

describe('toRowRangeMessage', () => {
  it("equals the client's own range builder (Filter.createRange) for every pair of bounds", () => {
    fc.assert(
      fc.property(boundArb, boundArb, (start, end) => {
        const range: PlanRange = {};
        if (start !== undefined) range.start = start;
        if (end !== undefined) range.end = end;
        expect(toRowRangeMessage(range)).toStrictEqual(Filter.createRange(start ?? null, end ?? null, 'Key'));
      }),
    );
  });

  it('names each bound closed or open', () => {
    const a = Buffer.from('a');
    const b = Buffer.from('b');
    expect(toRowRangeMessage({ start: { value: a, inclusive: true }, end: { value: b, inclusive: false } })).toEqual({
      startKeyClosed: a,
      endKeyOpen: b,
    });
    expect(toRowRangeMessage({ start: { value: a, inclusive: false }, end: { value: b, inclusive: true } })).toEqual({
      startKeyOpen: a,
      endKeyClosed: b,
    });
    expect(toRowRangeMessage({})).toEqual({});
  });
});

describe('toReadRowsMessage', () => {
  it('carries the table, app profile, keys, ranges, limit and the filter message compiled once by the plan', () => {
    const plan = planRead({
      table: 't',
      keys: [Buffer.from('k')],
      ranges: [{ start: { key: Buffer.from('a'), inclusive: true }, end: undefined }],
      limit: 3,
      filter: { kind: 'cellsPerColumn', limit: 1 },
    }) as ReadPlan;
    const message = toReadRowsMessage(plan, 'projects/p/instances/i/tables/t', 'profile');
    expect(message).toEqual({
      tableName: 'projects/p/instances/i/tables/t',
      appProfileId: 'profile',
      rows: { rowKeys: [Buffer.from('k')], rowRanges: [{ startKeyClosed: Buffer.from('a') }] },
      filter: { cellsPerColumnLimitFilter: 1 },
      rowsLimit: 3,
    });
    expect(message.filter).toBe(plan.filter);
    expect(Object.keys(toReadRowsMessage(planRead({ table: 't' }) as ReadPlan, 'n', undefined))).toEqual([
      'tableName',
      'rows',
    ]);
  });

  it('a reversed plan sends reversed: true; a forward one leaves the field out', () => {
    const reversed = planRead({ table: 't', reversed: true, limit: 2 }) as ReadPlan;
    expect(toReadRowsMessage(reversed, 'n', undefined)).toEqual({
      tableName: 'n',
      rows: { rowKeys: [], rowRanges: [{}] },
      rowsLimit: 2,
      reversed: true,
    });
    const forward = planRead({ table: 't', reversed: false }) as ReadPlan;
    expect('reversed' in toReadRowsMessage(forward, 'n', undefined)).toBe(false);
  });
});
