import type { CallOptions } from '../model/driver.js';
import type { CallTelemetry } from '../model/telemetry.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import { extractGrpcCode } from '../errors/errors.js';
import { abortError, deadlineError, deadlineOf } from '../util/operation-signal.js';

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
 * What an attempt tells the engine while it runs. Events of an attempt the
 * engine has already ended (cut, aborted) are ignored.
 * @internal
 */
export interface AttemptEvents {
  /** A response arrived: the attempt is not silent. */
  response(): void;
  /** The point a retry would resume from advanced: the run of consecutive failed attempts starts again. */
  progress(): void;
  /** The server ended the attempt normally. */
  ended(): void;
  /** The attempt failed with `error` (as the client raised it). */
  failed(error: unknown): void;
}

/**
 * One running RPC attempt, as the engine controls it.
 * @internal
 */
export interface RunningAttempt {
  /** Cancels the RPC (on the server too). */
  cancel(): void;
  /** The attempt went silent or ran too long: the channel it went out on should take no new call. */
  retire?(): void;
  pause?(): void;
  resume?(): void;
}

/**
 * How an attempt ended: normally, failed with the client's error, or cut by
 * the engine for running past its attempt timeout or staying silent past the
 * idle timeout (`DeadlineExceededError` of kind `attempt` or `idle`).
 * @internal
 */
export type AttemptEnd =
  | { readonly kind: 'ended' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'cut'; readonly error: DeadlineExceededError };

/**
 * What the RPC's rule decides after an attempt: the call is complete, it
 * fails with `error`, or what is left is sent again (after the server's
 * `RetryInfo` delay when it gave one, otherwise the engine's backoff).
 * @internal
 */
export type NextStep =
  | { readonly kind: 'done' }
  | { readonly kind: 'fail'; readonly error: unknown }
  | { readonly kind: 'retry'; readonly serverDelayMs?: number | undefined };

/**
 * How the whole call ended, told to the rule once:
 * - `done`: the rule said so;
 * - `failed`: the rule failed it, or the endpoint was not ready;
 * - `stopped`: the signal aborted or the total deadline passed (`error` is
 *   the signal's typed error); `attempts` says how many were started;
 * - `exhausted`: a retry was due but the retry budget was spent, or its wait
 *   would end past the deadline (then `deadline` is the deadline's error with
 *   the last failure as cause). `error` is the last attempt's failure.
 * @internal
 */
export type CallOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'stopped'; readonly error: BigtableMapperError; readonly attempts: number }
  | { readonly kind: 'exhausted'; readonly error: unknown; readonly deadline?: DeadlineExceededError | undefined };

/**
 * How many retries in a row a call may make, and the wait before retry
 * number `retry` (1 for the first) after `error` when the rule names no
 * server delay: `backoffWithServerDelay` (retry-rules) unless a test wants time to
 * pass faster.
 * @internal
 */
export interface RetryPolicy {
  readonly maxRetries: number;
  delayMs(retry: number, error?: unknown): number;
}

/**
 * What one RPC contributes to the engine: how to open an attempt, what to do
 * after one, and what to make of the call's end. Everything about time,
 * cancellation, backoff and the retry budget is the engine's.
 * @internal
 */
export interface ResumptionRule {
  /** The RPC's name for listeners, e.g. `ReadRows`. */
  readonly method: string;
  /** Names the call in errors, e.g. `readRows "readings"`. */
  readonly operation: string;
  /** The table the call reads or writes, for listeners; `undefined` for an instance-wide call (`listTables`). */
  readonly table: string | undefined;
  /** How many consecutive failed attempts may be retried (the rule resets the run with `events.progress()`), and the wait before each retry. */
  readonly retry: RetryPolicy;
  /**
   * Whether the attempt goes out with `gax.timeout` as its gRPC deadline, so
   * that a DEADLINE_EXCEEDED from the client is the engine's own bound.
   */
  readonly sendsDeadline: boolean;
  /** The first row key the call names (a read's first key or range start, a write's first row), for listeners that show a key prefix. */
  readonly rowKey?: Buffer | undefined;
  open(attempt: number, gax: GaxCallOptions, events: AttemptEvents): RunningAttempt;
  next(end: AttemptEnd): NextStep;
  finish(outcome: CallOutcome): void;
  /** The rows and bytes the call moved: read and delivered, or confirmed written. Asked once, when the call ends, only with a listener. */
  volume?(): CallVolume;
}

/**
 * What one RPC call moved, as its rule counts it: rows delivered and the
 * bytes of their keys and values (ReadRows), or rows confirmed written and
 * the request bytes of those rows (MutateRows).
 * @internal
 */
export interface CallVolume {
  readonly rows: number;
  readonly bytes: number;
}

/**
 * What every {@link AttemptListener} event names: the RPC (`method`, e.g.
 * `ReadRows`), the call in errors' words (`operation`), the table id when
 * the call has one, the repository call it runs for (`telemetry`, from the
 * call's `CallOptions`), and `call`, an object that is the same for every
 * event of one call and differs between calls (the calls of a salted scan
 * share their `telemetry` but not their `call`).
 * @internal
 */
export interface AttemptCallEvent {
  readonly method: string;
  readonly operation: string;
  readonly table: string | undefined;
  readonly telemetry: CallTelemetry | undefined;
  readonly call: object;
  /** The rule's {@link ResumptionRule.rowKey}. */
  readonly rowKey: Buffer | undefined;
  /** The call's own app profile, when its `CallOptions` name one. */
  readonly appProfileId: string | undefined;
}

/**
 * The seam where attempts start and end, for measurements: every hook is
 * optional, called synchronously, and a hook that throws is ignored.
 * `status` is a gRPC code (0 for an attempt that ended normally, 4 for one
 * cut by a timeout or the deadline, 1 for one cancelled by the signal);
 * `answered` says whether any response arrived during the attempt. A
 * `firstResponse` carries `operationMs` (since the call started) only for
 * the first response of the whole call.
 * @internal
 */
export interface AttemptListener {
  attemptStarted?(event: AttemptCallEvent & { readonly attempt: number }): void;
  firstResponse?(
    event: AttemptCallEvent & { readonly attempt: number; readonly ms: number; readonly operationMs?: number },
  ): void;
  attemptEnded?(
    event: AttemptCallEvent & {
      readonly attempt: number;
      readonly ms: number;
      readonly status: number;
      readonly answered: boolean;
    },
  ): void;
  retryScheduled?(event: AttemptCallEvent & { readonly attempt: number; readonly delayMs: number }): void;
  operationEnded?(
    event: AttemptCallEvent & {
      readonly attempts: number;
      readonly ms: number;
      /** `cancelled`: the consumer went away (a read whose rows were no longer wanted). */
      readonly outcome: CallOutcome['kind'] | 'cancelled';
      /** What the call moved, for an RPC whose rule counts it. */
      readonly volume?: CallVolume | undefined;
    },
  ): void;
}

const OK = 0;
const CANCELLED = 1;
const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
/** The longest a timer can wait; a longer bound is checked again when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface AttemptBound {
  readonly ms: number;
  /** The attempt timeout is the nearer bound (a cut may be retried); otherwise the total deadline is. */
  readonly byAttempt: boolean;
}

/**
 * One call over as many RPC attempts as it takes: attempt → classify (the
 * rule's `next`) → back off (the server's `RetryInfo` delay, otherwise 10 ms
 * × 2^retry plus jitter) → resume. It owns every timer of the call:
 *
 * - the total deadline is the signal's ({@link deadlineOf}): when the signal
 *   aborts, the running attempt is cancelled and the call is `stopped` with
 *   the signal's typed error; no attempt starts past the deadline, and no
 *   retry whose wait would end past it;
 * - each attempt goes out with the nearer of `attemptTimeoutMs` and the time
 *   left as its gRPC deadline (when the rule sends one); one unref'd watch
 *   timer cuts it at `attemptTimeoutMs` and, when `idleTimeoutMs` is set and
 *   the call is not paused, after that long a silence between responses (the
 *   total deadline needs no timer of the engine's: the signal fires then). An attempt cut by its attempt
 *   or idle bound is retired (its channel takes no new call), cancelled and
 *   handed to the rule as `cut`.
 *
 * The rule is told the outcome once ({@link ResumptionRule.finish}), and the
 * {@link AttemptListener} hears every attempt.
 * @internal
 */
export class RetryingCall {
  readonly #rule: ResumptionRule;
  readonly #call: CallOptions;
  readonly #listener: AttemptListener | undefined;
  readonly #ready: (() => Promise<void>) | undefined;
  #attempts = 0;
  #consecutive = 0;
  #running: RunningAttempt | undefined;
  #bound: AttemptBound | undefined;
  #paused = false;
  #done = false;
  #startedAt = 0;
  #attemptStartedAt = 0;
  #lastActivity = 0;
  #answered = false;
  #everAnswered = false;
  #base: AttemptCallEvent | undefined;
  #watch: ReturnType<typeof setTimeout> | undefined;
  #backoff: ReturnType<typeof setTimeout> | undefined;
  readonly #onAbort = (): void => this.#stop(abortError(this.#call.signal as AbortSignal, this.#rule.operation));
  readonly #check = (): void => {
    this.#watch = undefined;
    if (this.#done || this.#running === undefined) return;
    const now = Date.now();
    const bound = this.#bound;
    const idleMs = this.#call.idleTimeoutMs;
    if (bound?.byAttempt === true && now - this.#attemptStartedAt >= bound.ms) this.#boundReached(bound);
    else if (idleMs !== undefined && !this.#paused && now - this.#lastActivity >= idleMs)
      this.#endAttempt({ kind: 'cut', error: new DeadlineExceededError(this.#rule.operation, idleMs, 'idle') });
    else this.#arm(now);
  };

  /**
   * `ready`, when given, is awaited before the first attempt (the driver's
   * endpoint probe): its rejection fails the call without any attempt.
   */
  constructor(rule: ResumptionRule, call: CallOptions = {}, listener?: AttemptListener, ready?: () => Promise<void>) {
    this.#rule = rule;
    this.#call = call;
    this.#listener = listener;
    this.#ready = ready;
  }

  start(): void {
    this.#startedAt = Date.now();
    const { signal } = this.#call;
    if (signal?.aborted === true) {
      this.#stop(abortError(signal, this.#rule.operation));
      return;
    }
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#ready === undefined) {
      this.#attempt();
      return;
    }
    this.#ready().then(
      () => {
        if (!this.#done) this.#attempt();
      },
      (error: unknown) => this.#conclude({ kind: 'failed', error }),
    );
  }

  /** A paused call does not count silence against its idle timeout. */
  pause(): void {
    this.#paused = true;
    this.#running?.pause?.();
  }

  resume(): void {
    this.#paused = false;
    this.#lastActivity = Date.now();
    this.#running?.resume?.();
  }

  /** Ends the call without telling the rule (listeners hear it `cancelled`): the consumer went away. */
  cancel(): void {
    if (this.#done) return;
    this.#release();
    this.#abandonAttempt(CANCELLED);
    this.#notifyEnd('cancelled');
  }

  #attempt(): void {
    this.#backoff = undefined;
    const now = Date.now();
    const { signal, attemptTimeoutMs } = this.#call;
    const stopAt = deadlineOf(signal);
    const left = stopAt === undefined ? undefined : stopAt - now;
    if (left !== undefined && left <= 0) {
      this.#stop(deadlineError(signal) as DeadlineExceededError);
      return;
    }
    this.#bound =
      attemptTimeoutMs !== undefined && (left === undefined || attemptTimeoutMs < left)
        ? { ms: attemptTimeoutMs, byAttempt: true }
        : left === undefined
          ? undefined
          : { ms: left, byAttempt: false };
    const cancel = new AbortController();
    const gax: GaxCallOptions =
      this.#bound === undefined ? { signal: cancel.signal } : { timeout: this.#bound.ms, signal: cancel.signal };
    const attempt = this.#attempts++;
    this.#attemptStartedAt = this.#lastActivity = now;
    this.#answered = false;
    this.#notify('attemptStarted', { ...this.#event(), attempt });
    let inner: RunningAttempt | undefined;
    const handle: RunningAttempt = {
      cancel: () => {
        cancel.abort();
        inner?.cancel();
      },
      retire: () => inner?.retire?.(),
      pause: () => inner?.pause?.(),
      resume: () => inner?.resume?.(),
    };
    const live = (): boolean => !this.#done && this.#running === handle;
    const events: AttemptEvents = {
      response: () => {
        if (!live()) return;
        this.#lastActivity = Date.now();
        if (this.#answered) return;
        this.#answered = true;
        const first = !this.#everAnswered;
        this.#everAnswered = true;
        this.#notify('firstResponse', {
          ...this.#event(),
          attempt,
          ms: this.#lastActivity - this.#attemptStartedAt,
          ...(first ? { operationMs: this.#lastActivity - this.#startedAt } : {}),
        });
      },
      progress: () => {
        if (live()) this.#consecutive = 0;
      },
      ended: () => {
        if (live()) this.#endAttempt({ kind: 'ended' });
      },
      failed: (error) => {
        if (live()) this.#failed(error);
      },
    };
    this.#running = handle;
    try {
      inner = this.#rule.open(attempt, gax, events);
    } catch (error) {
      this.#running = undefined;
      this.#conclude({ kind: 'failed', error });
      return;
    }
    if (this.#running !== handle) {
      // The attempt ended while it opened; a call stopped meanwhile still has an RPC to cancel.
      if (this.#done) inner.cancel();
      return;
    }
    if (this.#paused) handle.pause?.();
    this.#arm(now);
  }

  /** Sets the watch timer for the nearest bound of the running attempt; a paused call's idle bound is only looked at again later. */
  #arm(now: number): void {
    const idleMs = this.#call.idleTimeoutMs;
    // The total deadline is the signal's own timer: the engine watches only the attempt timeout.
    let due = this.#bound?.byAttempt === true ? this.#attemptStartedAt + this.#bound.ms : Infinity;
    if (idleMs !== undefined) due = Math.min(due, (this.#paused ? now : this.#lastActivity) + idleMs);
    if (due === Infinity) return;
    clearTimeout(this.#watch);
    this.#watch = setTimeout(this.#check, Math.min(Math.max(due - now, 0), MAX_TIMER_MS));
    this.#watch.unref?.();
  }

  /** A failure from the client; its DEADLINE_EXCEEDED is the attempt's own gRPC deadline when the rule sent one. */
  #failed(error: unknown): void {
    const bound = this.#bound;
    if (this.#rule.sendsDeadline && bound !== undefined && extractGrpcCode(error) === DEADLINE_EXCEEDED)
      this.#boundReached(bound);
    else this.#endAttempt({ kind: 'failed', error });
  }

  /** The attempt reached its bound: the attempt timeout cuts it (retryable); the total deadline stops the call. */
  #boundReached(bound: AttemptBound): void {
    if (bound.byAttempt) {
      const ms = this.#call.attemptTimeoutMs ?? bound.ms;
      this.#endAttempt({ kind: 'cut', error: new DeadlineExceededError(this.#rule.operation, ms, 'attempt') });
    } else this.#stop(deadlineError(this.#call.signal) as DeadlineExceededError);
  }

  #endAttempt(end: AttemptEnd): void {
    clearTimeout(this.#watch);
    this.#watch = undefined;
    const running = this.#running;
    this.#running = undefined;
    if (end.kind === 'cut' && running !== undefined) {
      try {
        running.retire?.();
      } catch {
        // The next attempt then goes out on the same channel: slower to recover, still bounded.
      }
    }
    // A failure the rule found in a response (a broken chunk) leaves the RPC running: end it.
    if (end.kind !== 'ended') running?.cancel();
    const attempt = this.#attempts - 1;
    this.#notify('attemptEnded', {
      ...this.#event(),
      attempt,
      ms: Date.now() - this.#attemptStartedAt,
      status:
        end.kind === 'ended' ? OK : end.kind === 'cut' ? DEADLINE_EXCEEDED : (extractGrpcCode(end.error) ?? UNKNOWN),
      answered: this.#answered,
    });
    let step: NextStep;
    try {
      step = this.#rule.next(end);
    } catch (error) {
      step = { kind: 'fail', error };
    }
    if (step.kind === 'done') this.#conclude({ kind: 'done' });
    else if (step.kind === 'fail') this.#conclude({ kind: 'failed', error: step.error });
    else this.#retry(end.kind === 'ended' ? undefined : end.error, step.serverDelayMs, attempt);
  }

  #retry(error: unknown, serverDelayMs: number | undefined, attempt: number): void {
    const retry = this.#consecutive + 1;
    if (retry > this.#rule.retry.maxRetries) {
      this.#conclude({ kind: 'exhausted', error });
      return;
    }
    const delayMs = serverDelayMs ?? this.#rule.retry.delayMs(retry, error);
    const stopAt = deadlineOf(this.#call.signal);
    if (stopAt !== undefined && Date.now() + delayMs >= stopAt) {
      this.#conclude({
        kind: 'exhausted',
        error,
        deadline: deadlineError(this.#call.signal, error ?? 'no retry left'),
      });
      return;
    }
    this.#consecutive = retry;
    this.#notify('retryScheduled', { ...this.#event(), attempt, delayMs });
    this.#backoff = setTimeout(() => {
      if (!this.#done) this.#attempt();
    }, delayMs);
  }

  /** The signal aborted or the deadline passed: the running attempt is cancelled and the call ends with `error`. */
  #stop(error: BigtableMapperError): void {
    if (this.#done) return;
    this.#abandonAttempt(error instanceof DeadlineExceededError ? DEADLINE_EXCEEDED : CANCELLED);
    this.#conclude({ kind: 'stopped', error, attempts: this.#attempts });
  }

  #conclude(outcome: CallOutcome): void {
    if (this.#done) return;
    this.#release();
    const running = this.#running;
    this.#running = undefined;
    running?.cancel();
    this.#notifyEnd(outcome.kind);
    this.#rule.finish(outcome);
  }

  /** Cancels the running attempt, if there is one, and tells the listener it ended with `status`. */
  #abandonAttempt(status: number): void {
    const running = this.#running;
    if (running === undefined) return;
    this.#running = undefined;
    running.cancel();
    this.#notify('attemptEnded', {
      ...this.#event(),
      attempt: this.#attempts - 1,
      ms: Date.now() - this.#attemptStartedAt,
      status,
      answered: this.#answered,
    });
  }

  /** Tells the listener the call ended, and how. */
  #notifyEnd(outcome: CallOutcome['kind'] | 'cancelled'): void {
    if (this.#listener?.operationEnded === undefined) return;
    this.#notify('operationEnded', {
      ...this.#event(),
      attempts: this.#attempts,
      ms: Date.now() - this.#startedAt,
      outcome,
      volume: this.#rule.volume?.(),
    });
  }

  /** Marks the call done and releases its timers and signal listener. */
  #release(): void {
    this.#done = true;
    clearTimeout(this.#watch);
    clearTimeout(this.#backoff);
    this.#call.signal?.removeEventListener('abort', this.#onAbort);
  }

  /** The fields every event of this call shares, made once. */
  #event(): AttemptCallEvent {
    this.#base ??= {
      method: this.#rule.method,
      operation: this.#rule.operation,
      table: this.#rule.table,
      telemetry: this.#call.telemetry,
      call: this,
      rowKey: this.#rule.rowKey,
      appProfileId: this.#call.appProfileId,
    };
    return this.#base;
  }

  #notify<K extends keyof AttemptListener>(hook: K, event: Parameters<NonNullable<AttemptListener[K]>>[0]): void {
    const listener = this.#listener;
    if (listener === undefined) return;
    try {
      (listener[hook] as ((event: unknown) => void) | undefined)?.call(listener, event);
    } catch {
      // A listener's failure is its own: the call goes on.
    }
  }
}

const SEND_AGAIN_AT_ONCE: RetryPolicy = Object.freeze({ maxRetries: Infinity, delayMs: () => 0 });

/**
 * Runs one unary RPC through the engine: `send` is one attempt with its gax
 * options. Only an attempt cut by its attempt timeout is sent again, and only
 * when `retryAttemptTimeouts` (idempotent calls); every other failure is the
 * call's, as the client raised it. Resolves with the answer; rejects with
 * the client's error, the signal's typed error, or the attempt's
 * `DeadlineExceededError` (kind `attempt`) when it is not retried.
 * @internal
 */
export function callWithRetries<T>(
  operation: string,
  call: CallOptions | undefined,
  send: (gax: GaxCallOptions) => Promise<T>,
  policy: {
    readonly method: string;
    readonly table?: string | undefined;
    readonly retryAttemptTimeouts: boolean;
    readonly retireChannel?: ((gax: GaxCallOptions) => void) | undefined;
    readonly listener?: AttemptListener | undefined;
  },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let answer: T;
    const rule: ResumptionRule = {
      method: policy.method,
      operation,
      table: policy.table,
      // The deadline, not a count, bounds the retries of a call whose attempts time out.
      retry: SEND_AGAIN_AT_ONCE,
      sendsDeadline: true,
      open: (_attempt, gax, events) => {
        send(gax).then(
          (value) => {
            answer = value;
            events.ended();
          },
          (error: unknown) => events.failed(error),
        );
        return {
          cancel: () => undefined,
          retire: () => policy.retireChannel?.(gax),
        };
      },
      next: (end) => {
        if (end.kind === 'ended') return { kind: 'done' };
        if (end.kind === 'cut' && policy.retryAttemptTimeouts) return { kind: 'retry' };
        return { kind: 'fail', error: end.error };
      },
      finish: (outcome) => {
        if (outcome.kind === 'done') resolve(answer);
        else reject(outcome.kind === 'exhausted' ? (outcome.deadline ?? outcome.error) : outcome.error);
      },
    };
    new RetryingCall(rule, call, policy.listener).start();
  });
}
