import { MAX_REQUEST_BYTES } from './request-limits.js';

/** Bigtable's limit of mutations in one MutateRows request. @internal */
export const MAX_MUTATIONS_PER_REQUEST = 100_000;

/**
 * Default bytes per MutateRows request: 20 MiB, the Java client's default
 * request byte threshold for bulk mutations. Far below the 256 MiB request
 * limit, so a batch of large rows is never refused as too big.
 * @internal
 */
export const DEFAULT_BATCH_BYTES = 20 * 1024 * 1024;

/** Limits of one MutateRows batch; a batch closes at whichever it reaches first. @internal */
export interface BatchLimits {
  /** Rows per request (the client is fastest at 250–1000). Default 500. */
  maxEntries?: number;
  /** Cell mutations per request. Default and maximum 100,000. */
  maxMutations?: number;
  /** About how many bytes per request (see `rowMutationBytes`). Default 20 MiB, maximum 256 MiB. */
  maxBytes?: number;
}

/** {@link BatchLimits} with the defaults and the caps applied. @internal */
export interface ResolvedBatchLimits {
  readonly maxEntries: number;
  readonly maxMutations: number;
  readonly maxBytes: number;
}

/** What a batch being filled holds so far. @internal */
export interface BatchFill {
  entries: number;
  mutations: number;
  bytes: number;
}

/**
 * Applies the defaults (500 rows, 20 MiB) and the caps (100,000 mutations,
 * 256 MiB) to batch limits.
 * @internal
 */
export function resolveBatchLimits(limits: BatchLimits = {}): ResolvedBatchLimits {
  return {
    maxEntries: limits.maxEntries ?? 500,
    maxMutations: Math.min(limits.maxMutations ?? MAX_MUTATIONS_PER_REQUEST, MAX_MUTATIONS_PER_REQUEST),
    maxBytes: Math.min(limits.maxBytes ?? DEFAULT_BATCH_BYTES, MAX_REQUEST_BYTES),
  };
}

/**
 * Whether the next row, with `rowMutations` cell mutations of about
 * `rowBytes` bytes, must start a new batch: the open one is not empty and is
 * full, or would exceed the mutation or byte limit with it. A row larger
 * than a limit goes alone.
 * @internal
 */
export function closesBatch(
  fill: BatchFill,
  rowMutations: number,
  rowBytes: number,
  limits: ResolvedBatchLimits,
): boolean {
  return (
    fill.entries > 0 &&
    (fill.entries >= limits.maxEntries ||
      fill.mutations + rowMutations > limits.maxMutations ||
      fill.bytes + rowBytes > limits.maxBytes)
  );
}
