import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PartialWriteError, type WriteFailure } from '../../../src/errors/partial-write-error.js';

const failures = (n: number): WriteFailure<{ id: number }>[] =>
  Array.from({ length: n }, (_, i) => ({ index: n - 1 - i, entity: { id: n - 1 - i }, rowKey: `k${n - 1 - i}`, grpcCode: 5, message: 'table not found', cause: new Error('NOT_FOUND') }));

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
});
