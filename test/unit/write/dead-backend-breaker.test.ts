import { describe, expect, it } from 'vitest';
import { DriverError, TableNotFoundError } from '../../../src/errors/errors.js';
import { DeadlineExceededError, UnreachableError } from '../../../src/errors/operation-errors.js';
import {
  DEAD_BACKEND_BATCHES,
  DeadBackendBreaker,
  isDeadBackendFailure,
} from '../../../src/write/dead-backend-breaker.js';

const unavailable = (n = 0): DriverError =>
  new DriverError(`mutateRows "t" #${n}`, Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14 }));
const unreachable = (): UnreachableError =>
  new UnreachableError('127.0.0.1:1', 'Bigtable endpoint 127.0.0.1:1 is unreachable');

describe('isDeadBackendFailure', () => {
  it('is true for a whole-call UNAVAILABLE and for an endpoint that accepts no connection', () => {
    expect(isDeadBackendFailure(unavailable())).toBe(true);
    expect(isDeadBackendFailure(unreachable())).toBe(true);
  });

  it('is false for every other failure: the backend answered, or the call was cut', () => {
    expect(isDeadBackendFailure(new DriverError('x', Object.assign(new Error('internal'), { code: 13 })))).toBe(false);
    expect(isDeadBackendFailure(new DriverError('x', Object.assign(new Error('busy'), { code: 8 })))).toBe(false);
    expect(isDeadBackendFailure(new DeadlineExceededError('x', 1_000, 'attempt'))).toBe(false);
    expect(
      isDeadBackendFailure(new TableNotFoundError('x', 't', Object.assign(new Error('table t'), { code: 5 }))),
    ).toBe(false);
    // a raw client error is not typed by the driver: not counted
    expect(isDeadBackendFailure(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }))).toBe(false);
    expect(isDeadBackendFailure(undefined)).toBe(false);
  });
});

describe('DeadBackendBreaker', () => {
  it(`opens after ${DEAD_BACKEND_BATCHES} dead batches in a row, with the last one's error as cause`, () => {
    const breaker = new DeadBackendBreaker();
    for (let n = 1; n < DEAD_BACKEND_BATCHES; n++) {
      breaker.failed(unavailable(n));
      expect(breaker.cause).toBeUndefined();
    }
    const last = unavailable(DEAD_BACKEND_BATCHES);
    breaker.failed(last);
    expect(breaker.cause).toBe(last);
  });

  it('counts an unreachable endpoint like UNAVAILABLE', () => {
    const breaker = new DeadBackendBreaker(2);
    breaker.failed(unavailable());
    const last = unreachable();
    breaker.failed(last);
    expect(breaker.cause).toBe(last);
  });

  it('a batch the server answered, or any other failure, ends the run', () => {
    const breaker = new DeadBackendBreaker(3);
    breaker.failed(unavailable(1));
    breaker.failed(unavailable(2));
    breaker.answered();
    breaker.failed(unavailable(3));
    breaker.failed(unavailable(4));
    expect(breaker.cause).toBeUndefined();
    breaker.failed(new DriverError('x', Object.assign(new Error('internal'), { code: 13 })));
    breaker.failed(unavailable(5));
    breaker.failed(unavailable(6));
    expect(breaker.cause).toBeUndefined();
    breaker.failed(unavailable(7));
    expect(breaker.cause).toBeDefined();
  });

  it('stays open once open: later outcomes change neither the state nor the cause', () => {
    const breaker = new DeadBackendBreaker(1);
    const first = unavailable(1);
    breaker.failed(first);
    breaker.answered();
    breaker.failed(unavailable(2));
    expect(breaker.cause).toBe(first);
  });

  it('rejects a threshold that is not a positive integer', () => {
    expect(() => new DeadBackendBreaker(0)).toThrow(RangeError);
    expect(() => new DeadBackendBreaker(1.5)).toThrow(RangeError);
  });
});
