import type { BatchSource } from './batch-source.js';
import { checkLimit } from './merge-options.js';
import { MinHeap } from './min-heap.js';
import { createPullIterator, DONE, StopSignal, STOPPED } from './pull-iterator.js';
import type { RowSource, RowSourceFactory } from './row-source.js';
import { cancelAll, SourceHandle } from './source-handle.js';

/**
 * Options of {@link mergeOrderedBatches}. There is no `concurrency`: an ordered merge
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

interface Cursor<T> {
  readonly handle: SourceHandle<T>;
  /** The source's current batch; `position` is its head item. */
  items: T[];
  position: number;
}

/**
 * K-way merge of sources that are each sorted by `compare`, yielding items in
 * global order, a batch at a time: each `next()` yields every item that can be
 * placed before some source has to be read again (all its sources' current
 * batches are merged in one go), so a scan pays one promise per batch. Equal
 * items come out by source index (stable).
 *
 * - Pull-based: sources open on the first `next()`; each source holds at most
 *   the batch it last handed over (see {@link BatchSource}; a plain
 *   {@link RowSource} hands over one item at a time), and a source whose batch
 *   ran out is pulled again only on the following `next()`. Memory is O(k)
 *   batches plus each source's own buffer.
 * - Every source is open at once (each head is needed), so concurrency does not
 *   apply; use {@link mergeUnorderedBatches} to bound open reads.
 * - `limit`, `return()` (e.g. `break` in `for await`) and an error from any
 *   source cancel every source still open; the error is rethrown.
 * @internal
 * @example
 * ```ts
 * for await (const rows of mergeOrderedBatches(bucketSources, compareKeys)) rows.forEach(use);
 * ```
 */
export function mergeOrderedBatches<T>(
  sources: readonly RowSourceFactory<T>[],
  compare: (a: T, b: T) => number,
  options: OrderedMergeOptions = {},
): AsyncIterableIterator<T[]> {
  const limit = checkLimit(options.limit);
  const factories = [...sources];
  const signal = new StopSignal();
  const handles: SourceHandle<T>[] = [];
  const heap = new MinHeap<Cursor<T>>(
    (a, b) => compare(a.items[a.position] as T, b.items[b.position] as T) || a.handle.index - b.handle.index,
  );
  let started = false;
  let delivered = 0;
  let exhausted: Cursor<T> | undefined;

  const release = (): void => {
    signal.stop();
    cancelAll(handles);
  };

  const refill = async (cursor: Cursor<T>): Promise<void> => {
    const outcome = await signal.race(cursor.handle.pull());
    if (outcome === STOPPED || signal.stopped) return;
    if (outcome.kind === 'error') throw outcome.error;
    if (outcome.kind === 'done') return;
    cursor.items = outcome.items;
    cursor.position = 0;
    heap.push(cursor);
  };

  const start = async (): Promise<void> => {
    started = true;
    factories.forEach((factory, index) => handles.push(SourceHandle.open(index, factory)));
    await Promise.all(handles.map((handle) => refill({ handle, items: [], position: 0 })));
  };

  const take = (): T[] => {
    const out: T[] = [];
    while (delivered < limit) {
      const top = heap.peek();
      if (top === undefined) break;
      out.push(top.items[top.position] as T);
      top.position += 1;
      delivered += 1;
      if (top.position < top.items.length) {
        heap.updateTop();
        continue;
      }
      heap.pop();
      top.items = [];
      exhausted = top;
      break;
    }
    return out;
  };

  const pull = async (): Promise<IteratorResult<T[], undefined>> => {
    if (signal.stopped || delivered >= limit) return DONE;
    if (!started) await start();
    else if (exhausted !== undefined) {
      const cursor = exhausted;
      exhausted = undefined;
      await refill(cursor);
    }
    const out = signal.stopped ? [] : take();
    if (out.length === 0) return DONE;
    if (delivered >= limit) release();
    return { done: false, value: out };
  };

  return createPullIterator({ pull, release });
}
