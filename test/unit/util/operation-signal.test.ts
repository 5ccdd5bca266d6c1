import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, OperationAbortedError, ValidationError } from '../../../src/errors/index.js';
import {
  abortError,
  deadlineError,
  deadlineOf,
  deadlineSignal,
  openOperation,
  throwIfAborted,
} from '../../../src/util/operation-signal.js';

describe('operation signals', () => {
  it('an operation scope aborts with DeadlineExceededError at its deadline', async () => {
    const scope = openOperation('T.op', 20, []);
    await new Promise((resolve) => scope.signal.addEventListener('abort', resolve));
    expect(scope.signal.reason).toBeInstanceOf(DeadlineExceededError);
    expect((scope.signal.reason as DeadlineExceededError).timeoutMs).toBe(20);
  });

  it('follows a caller signal, keeping a typed reason as it is and wrapping any other as the cause', () => {
    const caller = new AbortController();
    const scope = openOperation('T.op', 60_000, [undefined, caller.signal]);
    const reason = new Error('stop');
    caller.abort(reason);
    expect(scope.signal.reason).toBeInstanceOf(OperationAbortedError);
    expect((scope.signal.reason as Error).cause).toBe(reason);
    const typed = new ValidationError('x');
    const other = new AbortController();
    other.abort(typed);
    expect(abortError(other.signal, 'T.op')).toBe(typed);
  });

  it('dispose() releases the caller signal: a later abort does not reach the scope', () => {
    const caller = new AbortController();
    const scope = openOperation('T.op', 60_000, [caller.signal]);
    scope.dispose();
    caller.abort();
    expect(scope.signal.aborted).toBe(false);
  });

  it('maps AbortSignal.timeout() reasons to DeadlineExceededError and an already aborted signal at once', async () => {
    const timed = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(abortError(timed, 'T.op')).toBeInstanceOf(DeadlineExceededError);
    expect(openOperation('T.op', 60_000, [timed]).signal.aborted).toBe(true);
    expect(() => throwIfAborted(timed, 'T.op')).toThrow(DeadlineExceededError);
  });

  it('a deadline signal carries its deadline, and aborts with the same typed error the engine reports', async () => {
    const before = Date.now();
    const signal = deadlineSignal(20, { operation: 'Item.save' });
    expect(deadlineOf(signal)).toBeGreaterThanOrEqual(before + 20);
    expect(deadlineOf(new AbortController().signal)).toBeUndefined();
    expect(deadlineOf(undefined)).toBeUndefined();
    const reported = deadlineError(signal);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect(signal.reason).toBe(reported);
    expect((signal.reason as DeadlineExceededError).operation).toBe('Item.save');
    const cause = new Error('last failure');
    expect(deadlineError(signal, cause)?.cause).toBe(cause);
  });

  it('a deadline signal follows the caller signal, and refuses a timeout that is not a number of milliseconds', () => {
    const caller = new AbortController();
    const signal = deadlineSignal(60_000, { signal: caller.signal });
    caller.abort(new Error('stop'));
    expect(signal.reason).toBeInstanceOf(OperationAbortedError);
    for (const bad of [-1, Number.NaN, Infinity, '5' as unknown as number])
      expect(() => deadlineSignal(bad)).toThrow(ValidationError);
  });
});
