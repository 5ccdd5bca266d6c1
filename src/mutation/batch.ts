/** Bigtable's limit of mutations in one MutateRows request. @example `MAX_MUTATIONS_PER_REQUEST // 100000` */
export const MAX_MUTATIONS_PER_REQUEST = 100_000;

/** Limits of one MutateRows batch. @example `{ maxEntries: 500 }` */
export interface BatchLimits {
  /** Rows per request (the client is fastest at 250–1000). Default 500. */
  maxEntries?: number;
  /** Cell mutations per request. Default and maximum 100,000. */
  maxMutations?: number;
}

/** {@link BatchLimits} with the defaults and the cap applied. @example `{ maxEntries: 500, maxMutations: 100000 }` */
export interface ResolvedBatchLimits {
  readonly maxEntries: number;
  readonly maxMutations: number;
}

/**
 * Applies the defaults (500 rows) and the 100,000-mutation cap to batch limits.
 *
 * @example
 * ```ts
 * resolveBatchLimits({ maxMutations: 1_000_000 }); // { maxEntries: 500, maxMutations: 100000 }
 * ```
 */
export function resolveBatchLimits(limits: BatchLimits = {}): ResolvedBatchLimits {
  return { maxEntries: limits.maxEntries ?? 500, maxMutations: Math.min(limits.maxMutations ?? MAX_MUTATIONS_PER_REQUEST, MAX_MUTATIONS_PER_REQUEST) };
}

/**
 * Whether the next row, with `size` cell mutations, must start a new batch:
 * the current one (`entries` rows, `mutations` cell mutations) is not empty
 * and is full, or would exceed the mutation limit with it.
 *
 * @example
 * ```ts
 * closesBatch(500, 5000, 10, resolveBatchLimits()); // true: 500 rows already
 * closesBatch(0, 0, 200_000, resolveBatchLimits()); // false: an oversized row goes alone
 * ```
 */
export function closesBatch(entries: number, mutations: number, size: number, limits: ResolvedBatchLimits): boolean {
  return entries > 0 && (entries >= limits.maxEntries || mutations + size > limits.maxMutations);
}
