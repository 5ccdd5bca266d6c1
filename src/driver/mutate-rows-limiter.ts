import { abortError } from '../util/operation-signal.js';

/**
 * `google.bigtable.v2.RateLimitInfo` as the client's bundled protos decode it
 * (field 3 of `MutateRowsResponse`): how to scale the send rate (`factor`)
 * and how long to wait before scaling it again (`period`).
 * @internal
 */
export interface RateLimitInfo {
  readonly period?: {
    readonly seconds?: number | string | { toString(): string } | null;
    readonly nanos?: number | null;
  } | null;
  readonly factor?: number | null;
}

/** The rate a limiter starts at once the server asks for flow control: 10 MutateRows calls per second. */
const INITIAL_QPS = 10;
/** The rate never goes below one call per 10 s ... */
const MIN_QPS = 0.1;
/** ... nor above 100,000 calls per second. */
const MAX_QPS = 100_000;
/** One update changes the rate by at most 30 %, down or up. */
const MIN_FACTOR = 0.7;
const MAX_FACTOR = 1.3;
/** The period used when the server gives none. */
const DEFAULT_PERIOD_MS = 10_000;

const RESOURCE_EXHAUSTED = 8;
const DEADLINE_EXCEEDED = 4;
const UNAVAILABLE = 14;

/**
 * Server-driven flow control of MutateRows, as the Java client does it
 * (`RateLimitingServerStreamingCallable`): off until a response carries
 * `RateLimitInfo`, then each call waits for a permit at a rate that starts at
 * 10 calls/s and is scaled by the server's `factor` (clamped to 0.7–1.3)
 * at most once per the server's `period` (whole seconds), within 0.1 to
 * 100,000 calls/s. A response without valid `RateLimitInfo` turns it off
 * again once that period has passed (the server stopped asking). An attempt
 * that fails with RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED or UNAVAILABLE scales
 * the rate by 0.7 with a 10 s period.
 * Permits are spread evenly (no burst). The driver announces that it honours
 * this with the `mutate_rows_rate_limit` and `mutate_rows_rate_limit2`
 * feature flags.
 * @internal
 */
export class MutateRowsRateLimiter {
  readonly #now: () => number;
  #enabled = false;
  #qps = INITIAL_QPS;
  #nextUpdateAt = 0;
  #nextPermitAt = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether calls wait for permits (the server asked for flow control). */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** The current rate, in MutateRows calls per second. */
  get qps(): number {
    return this.#qps;
  }

  /**
   * Resolves when the call may be sent: at once while off, else at its turn
   * at the current rate. Rejects with the signal's typed error when it
   * aborts first (the permit is not given back: the next call waits as if it
   * had been used).
   */
  acquire(signal?: AbortSignal, operation = 'mutateRows'): Promise<void> {
    if (!this.#enabled) return Promise.resolve();
    const now = this.#now();
    const at = Math.max(now, this.#nextPermitAt);
    this.#nextPermitAt = at + 1_000 / this.#qps;
    if (at <= now) return Promise.resolve();
    if (signal?.aborted === true) return Promise.reject(abortError(signal, operation));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortError(signal as AbortSignal, operation));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, at - now);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Hears one MutateRows response's `rate_limit_info`. A valid one (factor
   * and period above 0) turns flow control on and scales the rate; a missing
   * or invalid one turns it off, but only once the last update's period has
   * passed (the rate is kept for when the server asks again).
   */
  observe(info: RateLimitInfo | null | undefined): void {
    const factor = info?.factor;
    const period = periodSeconds(info?.period);
    if (typeof factor !== 'number' || !(factor > 0) || !(period > 0)) {
      if (this.#now() > this.#nextUpdateAt) this.#enabled = false;
      return;
    }
    if (!this.#enabled) {
      this.#enabled = true;
      this.#nextPermitAt = 0;
    }
    this.#update(factor, period * 1_000);
  }

  /**
   * Hears a MutateRows attempt that failed with `grpcCode`: RESOURCE_EXHAUSTED,
   * DEADLINE_EXCEEDED or UNAVAILABLE say the server is overloaded, and scale
   * the rate by 0.7 (the same period rule; it applies once flow control is on).
   */
  failed(grpcCode: number | undefined): void {
    if (grpcCode === RESOURCE_EXHAUSTED || grpcCode === DEADLINE_EXCEEDED || grpcCode === UNAVAILABLE)
      this.#update(MIN_FACTOR, DEFAULT_PERIOD_MS);
  }

  #update(factor: number, periodMs: number): void {
    const now = this.#now();
    if (now < this.#nextUpdateAt) return;
    const clamped = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, factor));
    this.#qps = Math.min(MAX_QPS, Math.max(MIN_QPS, this.#qps * clamped));
    this.#nextUpdateAt = now + periodMs;
  }
}

/** A `google.protobuf.Duration`'s whole seconds (0 when it is missing or not a number). */
function periodSeconds(period: RateLimitInfo['period']): number {
  if (period === null || period === undefined) return 0;
  const seconds = Number(period.seconds === null || period.seconds === undefined ? 0 : period.seconds.toString());
  return Number.isFinite(seconds) ? Math.trunc(seconds) : 0;
}
