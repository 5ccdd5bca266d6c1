import { setMaxListeners } from 'node:events';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError, OperationAbortedError } from '../errors/operation-errors.js';

/**
 * One operation's cancellation scope: a signal that aborts when any of the
 * caller's signals aborts or when the total deadline passes, and the deadline
 * itself (epoch milliseconds). `dispose()` clears the timer and the listeners
 * on the caller's signals; call it when the operation settles.
 * @internal
 */
export interface OperationScope {
  readonly signal: AbortSignal;
  readonly deadline: number;
  dispose(): void;
}

/**
 * Opens an {@link OperationScope}. The deadline aborts the scope with a
 * {@link DeadlineExceededError}; an aborted caller signal aborts it with that
 * signal's reason turned into a typed error ({@link abortError}). The
 * deadline timer is unref'd: it never keeps the process alive by itself.
 * @internal
 */
export function openOperation(
  operation: string,
  timeoutMs: number,
  signals: readonly (AbortSignal | undefined)[],
): OperationScope {
  const controller = new AbortController();
  // Every read of a salted scan (one per bucket) listens to the operation's signal: more than Node's default of 10.
  setMaxListeners(0, controller.signal);
  const deadline = Date.now() + timeoutMs;
  const cleanups: (() => void)[] = [];
  const dispose = (): void => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  const abort = (reason: BigtableMapperError): void => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    dispose();
  };
  const startedAt = Date.now();
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      abort(abortError(signal, operation));
      return { signal: controller.signal, deadline, dispose };
    }
    const onAbort = (): void => abort(abortError(signal, operation, startedAt));
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  const timer = setTimeout(() => abort(new DeadlineExceededError(operation, timeoutMs, 'total')), timeoutMs);
  timer.unref?.();
  cleanups.push(() => clearTimeout(timer));
  return { signal: controller.signal, deadline, dispose };
}

/**
 * The typed error for an aborted signal: its reason when that is already a
 * {@link BigtableMapperError}; a {@link DeadlineExceededError} of kind
 * `signal` for the `TimeoutError` of `AbortSignal.timeout()`, stating how long
 * the operation ran since `startedAt` (0 when it had fired before); otherwise an
 * {@link OperationAbortedError} with the reason as cause.
 * @internal
 */
export function abortError(signal: AbortSignal, operation: string, startedAt?: number): BigtableMapperError {
  const reason: unknown = signal.reason;
  if (reason instanceof BigtableMapperError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError')
    return new DeadlineExceededError(operation, startedAt === undefined ? 0 : Date.now() - startedAt, 'signal', reason);
  const text =
    reason instanceof Error ? reason.message : reason === undefined ? 'aborted by its signal' : String(reason);
  return new OperationAbortedError(operation, text, reason);
}

/**
 * Throws the typed abort error when `signal` is aborted.
 * @internal
 */
export function throwIfAborted(signal: AbortSignal | undefined, operation: string): void {
  if (signal?.aborted === true) throw abortError(signal, operation);
}

/**
 * Waits `ms` milliseconds; rejects with the typed abort error as soon as
 * `signal` aborts (and clears the timer).
 * @internal
 */
export function delay(ms: number, signal: AbortSignal | undefined, operation: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortError(signal, operation));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal, operation));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
