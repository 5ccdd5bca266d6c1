import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, OperationAbortedError, ValidationError } from '../../../src/errors/index.js';
import { abortError, delay, openOperation, throwIfAborted } from '../../../src/util/operation-signal.js';

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

  it('delay() resolves after its time, and rejects with the typed error when aborted first', async () => {
    await expect(delay(1, undefined, 'T.op')).resolves.toBeUndefined();
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal, 'T.op');
    controller.abort('enough');
    await expect(waiting).rejects.toBeInstanceOf(OperationAbortedError);
  });
});
