import type { ReadRetryPolicy } from './read-rows-call.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import { backoffWithServerDelay, isTransientStatus } from './retry-rules.js';

/**
 * The read retry policy of `table.createReadStream()` in `@google-cloud/bigtable`:
 * up to `maxRetries` (default 10) consecutive retries after DEADLINE_EXCEEDED,
 * RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE or an INTERNAL "RST_STREAM" error,
 * waiting 10 ms × 2^n plus up to 100 ms of jitter, at most 60 s, or the delay
 * of the server's `RetryInfo` when the error carries one. A closed client is
 * not retried.
 * @internal
 */
export function clientReadRetryPolicy(maxRetries: number | undefined): ReadRetryPolicy {
  return {
    maxRetries: typeof maxRetries === 'number' ? maxRetries : 10,
    isRetryable: isRetryableReadError,
    delayMs: backoffWithServerDelay,
  };
}

/**
 * Whether a failed ReadRows attempt is worth another one: the gRPC codes
 * above, and an attempt the read cut itself for silence or length
 * (`DeadlineExceededError` of kind `idle` or `attempt`).
 * @internal
 */
export function isRetryableReadError(error: unknown): boolean {
  if (error instanceof DeadlineExceededError) return error.kind !== 'total';
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return typeof code === 'number' && isTransientStatus(code, message);
}
