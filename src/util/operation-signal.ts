import { setMaxListeners } from 'node:events';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError, OperationAbortedError } from '../errors/operation-errors.js';
import { ValidationError } from '../errors/errors.js';

/**
 * One operation's cancellation scope: a signal that aborts when any of the
 * caller's signals aborts or when the total deadline passes. The signal
 * carries the deadline ({@link deadlineOf}): nothing else travels beside it.
 * `dispose()` clears the timer and the listeners on the caller's signals;
 * call it when the operation settles.
 * @internal
 */
export interface OperationScope {
  readonly signal: AbortSignal;
  dispose(): void;
}

/** What a signal made by {@link openOperation} or {@link deadlineSignal} knows about its deadline. */
interface SignalDeadline {
  /** Epoch milliseconds at which the signal aborts. */
  readonly at: number;
  readonly operation: string;
  readonly totalMs: number;
  /** The error the signal aborts with at its deadline: made once, on first use. */
  error: DeadlineExceededError | undefined;
}

const deadlines = new WeakMap<AbortSignal, SignalDeadline>();

/**
 * When `signal` aborts for its deadline (epoch milliseconds), or `undefined`
 * when it has none the library knows of (no signal, a plain
 * `AbortController`'s, or `AbortSignal.timeout()`, which only says so when
 * it fires).
 * @internal
 */
export function deadlineOf(signal: AbortSignal | undefined): number | undefined {
  return signal === undefined ? undefined : deadlines.get(signal)?.at;
}

/**
 * The error of `signal`'s deadline, the same one the signal aborts with; with
 * a `cause` (the last failure of an operation whose retries ran out of time),
 * a new error for the same deadline that carries it. `undefined` when the
 * signal has no known deadline.
 * @internal
 */
export function deadlineError(signal: AbortSignal | undefined, cause?: unknown): DeadlineExceededError | undefined {
  const entry = signal === undefined ? undefined : deadlines.get(signal);
  if (entry === undefined) return undefined;
  if (cause !== undefined) return new DeadlineExceededError(entry.operation, entry.totalMs, 'total', cause);
  entry.error ??= new DeadlineExceededError(entry.operation, entry.totalMs, 'total');
  return entry.error;
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
  const startedAt = Date.now();
  deadlines.set(controller.signal, { at: startedAt + timeoutMs, operation, totalMs: timeoutMs, error: undefined });
  const cleanups: (() => void)[] = [];
  const dispose = (): void => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  const abort = (reason: BigtableMapperError): void => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    dispose();
  };
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      abort(abortError(signal, operation));
      return { signal: controller.signal, dispose };
    }
    const onAbort = (): void => abort(abortError(signal, operation, startedAt));
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  const timer = setTimeout(() => abort(deadlineError(controller.signal) as DeadlineExceededError), timeoutMs);
  timer.unref?.();
  cleanups.push(() => clearTimeout(timer));
  return { signal: controller.signal, dispose };
}

/**
 * A signal for a driver call that aborts after `timeoutMs`, or when `signal`
 * aborts first, with a typed reason ({@link DeadlineExceededError} naming
 * `operation`, or the caller signal's reason as a typed error). Unlike
 * `AbortSignal.timeout()`, the driver knows when it will fire: it gives each
 * RPC attempt the time left as its gRPC deadline, and starts no retry whose
 * backoff would end past it. Its timer does not keep the process alive.
 *
 * @example
 * ```ts
 * import { deadlineSignal } from 'bigtable-mapper/driver';
 * const failed = await driver.mutateRows({ table: 'readings', mutations }, { signal: deadlineSignal(60_000) });
 * ```
 */
export function deadlineSignal(
  timeoutMs: number,
  options: { readonly signal?: AbortSignal; readonly operation?: string } = {},
): AbortSignal {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0)
    throw new ValidationError(
      `deadlineSignal: timeoutMs must be a finite number of milliseconds of at least 0, got ${String(timeoutMs)}. Fix: pass e.g. deadlineSignal(30_000)`,
      { option: 'timeoutMs' },
    );
  return openOperation(options.operation ?? 'driver call', Math.min(timeoutMs, MAX_TIMER_MS), [options.signal]).signal;
}

/** The longest a timer can wait. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
