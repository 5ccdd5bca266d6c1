import { ValidationError } from '../errors/errors.js';

/**
 * Checks a merge `limit`: `undefined` means no limit; otherwise a non-negative integer.
 * @internal
 *
 * @example
 * ```ts
 * checkLimit(10); // 10
 * checkLimit(undefined); // Infinity
 * ```
 */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  if (Number.isSafeInteger(limit) && limit >= 0) return limit;
  throw new ValidationError(
    `Scan merge: limit must be a non-negative integer, got ${String(limit)}. Fix: pass a whole number of rows, or omit it.`,
    { argument: 'limit', value: limit },
  );
}

/**
 * Checks a merge `concurrency`: a positive integer.
 * @internal
 *
 * @example
 * ```ts
 * checkConcurrency(4); // 4
 * ```
 */
export function checkConcurrency(concurrency: number): number {
  if (Number.isSafeInteger(concurrency) && concurrency >= 1) return concurrency;
  throw new ValidationError(
    `Scan merge: concurrency must be a positive integer, got ${String(concurrency)}. Fix: pass how many ranges may be read at once (e.g. 4).`,
    { argument: 'concurrency', value: concurrency },
  );
}

/**
 * The first `count` items of a batch: the batch itself when it has no more,
 * so the last batch before a limit is cut and the others pass untouched.
 * @internal
 *
 * @example
 * ```ts
 * firstItems([1, 2, 3], 2); // [1, 2]
 * ```
 */
export function firstItems<T>(items: T[], count: number): T[] {
  return items.length <= count ? items : items.slice(0, count);
}
