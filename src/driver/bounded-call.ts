import type { CallOptions } from '../model/driver.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import { extractGrpcCode } from '../errors/errors.js';
import { abortError, throwIfAborted } from '../util/operation-signal.js';

const GRPC_DEADLINE_EXCEEDED = 4;

/**
 * The per-attempt call options handed to the client (its gax options): the
 * attempt's gRPC deadline in milliseconds, when it has one, and a signal that
 * cancels the RPC.
 * @internal
 */
export interface GaxCallOptions {
  timeout?: number;
  signal: AbortSignal;
}

/**
 * The nearer of an attempt's two bounds: its `attemptTimeoutMs`, or the time
 * left before the total deadline (a tie goes to the deadline), with the
 * error an attempt cut by it rejects with; `undefined` when `call` sets
 * neither. `totalMs` is the operation's whole budget, for the message.
 * @internal
 */
export function attemptBound(
  call: CallOptions | undefined,
  operation: string,
  totalMs: number,
  now = Date.now(),
): AttemptBound | undefined {
  const left = call?.deadline === undefined ? undefined : call.deadline - now;
  const attemptMs = call?.attemptTimeoutMs;
  if (attemptMs !== undefined && (left === undefined || attemptMs < left))
    return new LazyAttemptBound(attemptMs, true, operation, attemptMs);
  if (left === undefined) return undefined;
  return new LazyAttemptBound(Math.max(0, left), false, operation, totalMs);
}

/** See {@link attemptBound}. @internal */
export interface AttemptBound {
  readonly ms: number;
  /** The attempt timeout is the nearer bound (an attempt cut by it may be retried); otherwise the total deadline is. */
  readonly byAttempt: boolean;
  /** The error of an attempt cut by this bound, the same one every time. */
  readonly error: DeadlineExceededError;
}

class LazyAttemptBound implements AttemptBound {
  readonly ms: number;
  readonly byAttempt: boolean;
  readonly #operation: string;
  readonly #limitMs: number;
  #error: DeadlineExceededError | undefined;

  constructor(ms: number, byAttempt: boolean, operation: string, limitMs: number) {
    this.ms = ms;
    this.byAttempt = byAttempt;
    this.#operation = operation;
    this.#limitMs = limitMs;
  }

  /** The error of an attempt cut by this bound: made on first use (an error captures a stack, and most attempts are never cut), the same one after. */
  get error(): DeadlineExceededError {
    this.#error ??= new DeadlineExceededError(this.#operation, this.#limitMs, this.byAttempt ? 'attempt' : 'total');
    return this.#error;
  }
}

/**
 * Runs one unary RPC within `call`: no attempt starts once the signal has
 * aborted or the deadline has passed; each attempt is bounded by the smaller
 * of `attemptTimeoutMs` and the time left, both as the RPC's gRPC deadline
 * and by a local timer that cancels it; aborting the signal cancels it at
 * once. A cut attempt rejects with the signal's typed error, or with
 * {@link DeadlineExceededError} (`'attempt'` or `'total'`, whichever bound
 * was nearer). With `retryAttemptTimeouts` (idempotent calls only) an attempt
 * cut by its attempt timeout is sent again while the deadline allows.
 * An attempt that ran past its attempt timeout (cut by the local timer, or
 * failed with the gRPC deadline it carried) is handed to `retireChannel`, by
 * the gax options it was sent with, before anything else is sent: its
 * connection may have gone silent, and the next attempt, or call, should
 * not go out on it. Other failures are rethrown as the client raised them.
 * @internal
 */
export async function boundedCall<T>(
  operation: string,
  call: CallOptions | undefined,
  attempt: (gax: GaxCallOptions) => Promise<T>,
  policy: { readonly retryAttemptTimeouts: boolean; readonly retireChannel?: (gax: GaxCallOptions) => void },
): Promise<T> {
  const startedAt = Date.now();
  const deadline = call?.deadline;
  const totalMs = deadline === undefined ? 0 : Math.max(0, deadline - startedAt);
  for (;;) {
    throwIfAborted(call?.signal, operation);
    if (deadline !== undefined && deadline - Date.now() <= 0)
      throw new DeadlineExceededError(operation, totalMs, 'total');
    const bound = attemptBound(call, operation, totalMs);
    try {
      return await runAttempt(operation, attempt, bound, call?.signal, policy.retireChannel);
    } catch (err) {
      if (!(bound?.byAttempt === true && policy.retryAttemptTimeouts && err === bound.error)) throw err;
    }
  }
}

function runAttempt<T>(
  operation: string,
  attempt: (gax: GaxCallOptions) => Promise<T>,
  bound: AttemptBound | undefined,
  signal: AbortSignal | undefined,
  retireChannel: ((gax: GaxCallOptions) => void) | undefined,
): Promise<T> {
  const cancel = new AbortController();
  const gax: GaxCallOptions =
    bound === undefined ? { signal: cancel.signal } : { timeout: bound.ms, signal: cancel.signal };
  /** The attempt ran past its own timeout: its channel goes out of service. */
  const silent = (): void => {
    if (bound?.byAttempt !== true) return;
    try {
      retireChannel?.(gax);
    } catch {
      // The next call then goes out on the same channel: slower to recover, still bounded.
    }
  };
  return new Promise<T>((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const cut = (error: Error): void => {
      cleanup();
      cancel.abort(error);
      reject(error);
    };
    const onAbort = (): void => cut(abortError(signal as AbortSignal, operation));
    const timer =
      bound === undefined
        ? undefined
        : setTimeout(() => {
            silent();
            cut(bound.error);
          }, bound.ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = attempt(gax);
    } catch (err) {
      cleanup();
      reject(err);
      return;
    }
    pending.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (err: unknown) => {
        cleanup();
        // The gRPC deadline we set may beat the local timer by a hair: it is the same bound.
        if (bound !== undefined && extractGrpcCode(err) === GRPC_DEADLINE_EXCEEDED) {
          silent();
          reject(bound.error);
        } else reject(err);
      },
    );
  });
}
