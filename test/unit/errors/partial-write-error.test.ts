import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PartialWriteError, type WriteFailure } from '../../../src/errors/operation-errors.js';

const failures = (n: number): WriteFailure<{ id: number }>[] =>
  Array.from({ length: n }, (_, i) => ({
    index: n - 1 - i,
    entity: { id: n - 1 - i },
    rowKey: `k${n - 1 - i}`,
    grpcCode: 5,
    message: 'table not found',
    cause: new Error('NOT_FOUND'),
  }));

describe('PartialWriteError', () => {
  it('keeps every failure in input order, frozen, and names the first five in the message', () => {
    const error = new PartialWriteError('Reading', failures(1_000), 10);
    expect(error.failures.map((f) => f.index)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    expect(Object.isFrozen(error.failures)).toBe(true);
    expect(error.succeeded).toBe(10);
    expect(error.message).toContain('1000 of 1010 writes failed');
    expect(error.message).toContain('#4 k4');
    expect(error.message).not.toContain('#5 k5');
    expect(error.message).toContain('... and 995 more');
  });

  it('logs as its message and details, not as every failed entity', () => {
    const error = new PartialWriteError('Reading', failures(10_000), 0);
    const logged = inspect(error);
    expect(logged.length).toBeLessThan(5_000);
    expect(logged).toContain('10000 of 10000 writes failed');
    expect(Object.keys(error)).not.toContain('failures');
  });

  it('without a stop: nothing was left unattempted, and every entity not failed was persisted', () => {
    const error = new PartialWriteError('Reading', failures(2), 3);
    expect([error.notAttempted, error.unreadFrom, error.cause]).toEqual([[], undefined, undefined]);
    expect([0, 1, 2, 3, 4, 5].map((i) => error.wasPersisted(i))).toEqual([false, false, true, true, true, false]);
  });

  it('after a stop: carries the cause, the entities read but never sent and where reading stopped, in a short message', () => {
    const cause = new Error('input broke\nsecond line of the cause');
    const error = new PartialWriteError('Reading', failures(7), 37, { cause, notAttempted: [45, 44], unreadFrom: 46 });
    expect(error.cause).toBe(cause);
    expect(error.notAttempted).toEqual([44, 45]);
    expect(Object.isFrozen(error.notAttempted)).toBe(true);
    expect(error.unreadFrom).toBe(46);
    const lines = error.message.split('\n');
    expect(lines[0]).toBe(
      'Reading: bulk write stopped (input broke): 37 persisted, 7 failed, 2 not attempted, and every entity from #46 on never read.',
    );
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('  ... and 2 more');
    expect(error.details).toMatchObject({
      entity: 'Reading',
      succeeded: 37,
      failed: 7,
      notAttempted: 2,
      unreadFrom: 46,
    });
    expect(error.wasPersisted(7)).toBe(true);
    expect(error.wasPersisted(6)).toBe(false);
    expect(error.wasPersisted(44)).toBe(false);
    expect(error.wasPersisted(46)).toBe(false);
    expect(error.wasPersisted(1_000)).toBe(false);
  });
});
