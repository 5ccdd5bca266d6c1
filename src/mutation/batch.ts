import type { CompiledMutation } from './compiled-mutation.js';

/** Bigtable's limit of mutations in one MutateRows request. @example `MAX_MUTATIONS_PER_REQUEST // 100000` */
export const MAX_MUTATIONS_PER_REQUEST = 100_000;

/** Limits of one MutateRows batch. @example `{ maxEntries: 500 }` */
export interface BatchLimits {
  /** Rows per request (the client is fastest at 250–1000). Default 500. */
  maxEntries?: number;
  /** Cell mutations per request. Default and maximum 100,000. */
  maxMutations?: number;
}

/**
 * Groups compiled mutations into MutateRows batches within the entry and
 * mutation limits, lazily (works on endless async inputs).
 *
 * @example
 * ```ts
 * for await (const batch of batchMutations(compiled, { maxEntries: 500 })) await driver.mutateRows(table, batch.map((b) => b.mutation));
 * ```
 */
export async function* batchMutations<E>(
  items: AsyncIterable<{ mutation: CompiledMutation } & E>,
  limits: BatchLimits = {},
): AsyncGenerator<({ mutation: CompiledMutation } & E)[]> {
  const maxEntries = limits.maxEntries ?? 500;
  const maxMutations = Math.min(limits.maxMutations ?? MAX_MUTATIONS_PER_REQUEST, MAX_MUTATIONS_PER_REQUEST);
  let batch: ({ mutation: CompiledMutation } & E)[] = [];
  let mutations = 0;
  for await (const item of items) {
    const size = item.mutation.mutations.length;
    if (batch.length > 0 && (batch.length >= maxEntries || mutations + size > maxMutations)) {
      yield batch;
      batch = [];
      mutations = 0;
    }
    batch.push(item);
    mutations += size;
  }
  if (batch.length > 0) yield batch;
}
