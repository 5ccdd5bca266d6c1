import { abortError } from '../util/operation-signal.js';
import type { RunningOperation } from './operation.js';

/**
 * Ties a scan's batch iterator to its operation: a pending `next()` rejects
 * with the typed abort error as soon as the operation's signal aborts (its
 * deadline, the caller's signal or `mapper.close()`), whatever the reads are
 * doing, and the reads are closed (`return()`, which cancels every RPC). The
 * operation ends (timer and listeners released) when the scan is exhausted,
 * fails or is closed; `settled` resolves then, so `close()` can wait for it.
 * Batches, not rows, pass through here: one abort listener per batch keeps
 * the cost off the per-row path.
 * @internal
 * @example
 * ```ts
 * const { batches, settled } = abortableBatches(executeScan(driver, schema, plan, undefined, op.call), op, 'Reading.scan');
 * ```
 */
export function abortableBatches<T>(
  inner: AsyncIterator<T[]>,
  operation: RunningOperation,
  name: string,
): { batches: AsyncIterableIterator<T[]>; settled: Promise<void> } {
  const { signal } = operation;
  let finished = false;
  let markSettled!: () => void;
  const settled = new Promise<void>((resolve) => (markSettled = resolve));
  const onAbort = (): void => closeInner();
  const finish = (): void => {
    if (finished) return;
    finished = true;
    signal.removeEventListener('abort', onAbort);
    operation.end();
    markSettled();
  };
  const closeInner = (): void => {
    Promise.resolve()
      .then(() => inner.return?.())
      .catch(() => undefined)
      .finally(finish);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  const batches: AsyncIterableIterator<T[]> = {
    async next(): Promise<IteratorResult<T[]>> {
      if (signal.aborted) throw abortError(signal, name);
      if (finished) return { done: true, value: undefined };
      try {
        const result = await untilAborted(inner.next(), signal, name);
        if (result.done === true) finish();
        return result;
      } catch (error) {
        if (!signal.aborted) finish();
        throw operation.failure(error);
      }
    },
    async return(): Promise<IteratorResult<T[]>> {
      if (!finished) {
        signal.removeEventListener('abort', onAbort);
        try {
          await inner.return?.();
        } finally {
          finish();
        }
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return batches;
    },
  };
  return { batches, settled };
}

/**
 * `pending`, or the typed abort error as soon as `signal` aborts. The
 * listener is removed once `pending` settles: racing every batch against one
 * long-lived "aborted" promise would keep every batch reachable from it.
 */
function untilAborted<R>(pending: Promise<R>, signal: AbortSignal, name: string): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal, name));
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
