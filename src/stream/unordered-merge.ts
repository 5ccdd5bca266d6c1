import type { BatchSource } from './batch-source.js';
import { checkConcurrency, checkLimit, firstItems } from './merge-options.js';
import { createPullIterator, DONE, StopSignal } from './pull-iterator.js';
import type { RowSource, RowSourceFactory } from './row-source.js';
import { cancelAll, SourceHandle } from './source-handle.js';
import type { PullOutcome } from './source-handle.js';

/**
 * Options of {@link mergeUnorderedBatches}.
 *
 * @example
 * ```ts
 * const options: UnorderedMergeOptions = { concurrency: 4, limit: 1000 };
 * ```
 */
export interface UnorderedMergeOptions {
  /** Most sources open at once; the next opens when one finishes. A positive integer. */
  readonly concurrency: number;
  /** Stop after this many items and cancel every source. Default: no limit. */
  readonly limit?: number;
}

interface Settled<T> {
  readonly handle: SourceHandle<T>;
  readonly outcome: PullOutcome<T>;
}

/**
 * Merges sources without ordering, a batch at a time: each `next()` yields
 * the batch one source had ready first (cut to the limit), so a scan pays one
 * promise per batch.
 *
 * - At most `concurrency` sources are open; sources open in order, the next one
 *   when an open one finishes; sources the consumer never reaches never open.
 * - Pull-based: each open source has at most one pull in flight or one batch
 *   waiting (one item for a plain {@link RowSource}; see {@link BatchSource}),
 *   and the source that supplied the last batch is pulled again only once that
 *   batch was consumed. Memory is O(concurrency) batches.
 * - Ready batches are served first come, first served, so no source starves.
 * - `limit`, `return()` and an error from any source cancel every open source.
 * @internal
 * @example
 * ```ts
 * for await (const rows of mergeUnorderedBatches(bucketSources, { concurrency: 4 })) rows.forEach(use);
 * ```
 */
export function mergeUnorderedBatches<T>(
  sources: readonly RowSourceFactory<T>[],
  options: UnorderedMergeOptions,
): AsyncIterableIterator<T[]> {
  const concurrency = checkConcurrency(options.concurrency);
  const limit = checkLimit(options.limit);
  const factories = [...sources];
  const signal = new StopSignal();
  const open = new Set<SourceHandle<T>>();
  const ready: Settled<T>[] = [];
  let wake: (() => void) | undefined;
  let opened = 0;
  let delivered = 0;
  let lastSupplier: SourceHandle<T> | undefined;

  const request = (handle: SourceHandle<T>): void => {
    void handle.pull().then((outcome) => {
      if (signal.stopped) return;
      ready.push({ handle, outcome });
      wake?.();
    });
  };

  const fill = (): void => {
    while (open.size < concurrency && opened < factories.length) {
      const handle = SourceHandle.open(opened, factories[opened] as RowSourceFactory<T>);
      opened += 1;
      open.add(handle);
      request(handle);
    }
  };

  const release = (): void => {
    signal.stop();
    cancelAll(open);
  };

  const pull = async (): Promise<IteratorResult<T[], undefined>> => {
    if (signal.stopped || delivered >= limit) return DONE;
    if (lastSupplier !== undefined) request(lastSupplier);
    lastSupplier = undefined;
    fill();
    for (;;) {
      const settled = ready.shift();
      if (settled === undefined) {
        if (open.size === 0) return DONE;
        await signal.race(new Promise<void>((resolve) => (wake = resolve)));
        wake = undefined;
        if (signal.stopped) return DONE;
        continue;
      }
      const { handle, outcome } = settled;
      if (outcome.kind === 'error') throw outcome.error;
      if (outcome.kind === 'done') {
        open.delete(handle);
        fill();
        continue;
      }
      const items = firstItems(outcome.items, limit - delivered);
      delivered += items.length;
      lastSupplier = handle;
      if (delivered >= limit) release();
      return { done: false, value: items };
    }
  };

  return createPullIterator({ pull, release });
}
