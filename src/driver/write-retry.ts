import { backoffMs } from './retry-rules.js';

/**
 * When a MutateRows entry or attempt is worth another attempt: how many
 * attempts at most, and how long to wait before retry number `retry`
 * (1 for the first).
 * @internal
 */
export interface WriteRetryPolicy {
  readonly maxAttempts: number;
  delayMs(retry: number): number;
}

/**
 * The write retry policy: at most 10 attempts (the first and 9 retries),
 * waiting 10 ms × 2^retry plus up to 100 ms of jitter, at most 60 s; the
 * caller's deadline bounds it further.
 * @internal
 */
export const DEFAULT_WRITE_RETRY: WriteRetryPolicy = Object.freeze({
  maxAttempts: 10,
  delayMs: backoffMs,
});
