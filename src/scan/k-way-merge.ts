import { checkLimit } from './merge-options.js';
import { MinHeap } from './min-heap.js';
import { createPullIterator, DONE, StopSignal, STOPPED } from './pull-iterator.js';
import type { RowSourceFactory } from './row-source.js';
import { cancelAll, SourceHandle } from './source-handle.js';

/**
 * Options of {@link mergeOrdered}. There is no `concurrency`: an ordered merge
 * needs the head item of every source, so every source is open at once.
 *
 * @example
 * ```ts
 * const options: OrderedMergeOptions = { limit: 100 };
 * ```
 */
export interface OrderedMergeOptions {
  /** Stop after this many items and cancel every source. Default: no limit. */
  readonly limit?: number;
}

interface Head<T> {
  readonly item: T;
  readonly handle: SourceHandle<T>;
}

/**
 * K-way merge of sources that are each sorted by `compare`, yielding items in
 * global order. Equal items come out by source index (stable).
 *
 * - Pull-based: sources open on the first `next()`; each source has at most one
 *   item pulled ahead (its head in the heap), and the source that supplied the
 *   last item is pulled again only on the following `next()`. Memory is O(k)
 *   items plus each source's own buffer.
 * - Every source is open at once (each head is needed), so concurrency does not
 *   apply; use {@link mergeUnordered} to bound open reads.
 * - `limit`, `return()` (e.g. `break` in `for await`) and an error from any
 *   source cancel every source still open; the error is rethrown.
 *
 * @example
 * ```ts
 * const rows = mergeOrdered(bucketSources, (a, b) => Buffer.compare(a.key, b.key), { limit: 50 });
 * for await (const row of rows) console.log(row.key.toString());
 * ```
 */
export function mergeOrdered<T>(
  sources: readonly RowSourceFactory<T>[],
  compare: (a: T, b: T) => number,
  options: OrderedMergeOptions = {},
): AsyncIterableIterator<T> {
  const limit = checkLimit(options.limit);
  const factories = [...sources];
  const signal = new StopSignal();
  const handles: SourceHandle<T>[] = [];
  const heap = new MinHeap<Head<T>>((a, b) => compare(a.item, b.item) || a.handle.index - b.handle.index);
  let started = false;
  let delivered = 0;
  let lastSupplier: SourceHandle<T> | undefined;

  const release = (): void => {
    signal.stop();
    cancelAll(handles);
  };

  const refill = async (handle: SourceHandle<T>): Promise<void> => {
    const outcome = await signal.race(handle.pull());
    if (outcome === STOPPED || signal.stopped) return;
    if (outcome.kind === 'error') throw outcome.error;
    if (outcome.kind === 'item') heap.push({ item: outcome.item, handle });
  };

  const start = async (): Promise<void> => {
    started = true;
    factories.forEach((factory, index) => handles.push(SourceHandle.open(index, factory)));
    await Promise.all(handles.map(refill));
  };

  const pull = async (): Promise<IteratorResult<T, undefined>> => {
    if (signal.stopped || delivered >= limit) return DONE;
    if (!started) await start();
    else if (lastSupplier !== undefined) await refill(lastSupplier);
    lastSupplier = undefined;
    const head = signal.stopped ? undefined : heap.pop();
    if (head === undefined) return DONE;
    delivered += 1;
    lastSupplier = head.handle;
    if (delivered >= limit) release();
    return { done: false, value: head.item };
  };

  return createPullIterator({ pull, release });
}
