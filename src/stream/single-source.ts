import { toBatchSource } from './batch-source.js';
import { firstItems } from './merge-options.js';
import { DONE } from './pull-iterator.js';
import type { RowSource } from './row-source.js';

/**
 * Reads one source directly, without a merge, handing over its batches as
 * they come (the last one cut to `limit`): a scan of a single key range (an
 * unsalted entity, or a salted one whose bucket is fixed) needs neither a heap
 * nor per-row races. `return()` and errors cancel the source at once, even
 * while a read is pending.
 * @internal
 * @example
 * ```ts
 * for await (const rows of singleSourceBatches(driver.readRows(request), undefined)) rows.forEach(use);
 * ```
 */
export function singleSourceBatches<T>(source: RowSource<T>, limit: number | undefined): AsyncIterableIterator<T[]> {
  const batches = toBatchSource(source);
  let delivered = 0;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    batches.cancel();
  };
  const iterator: AsyncIterableIterator<T[]> = {
    async next(): Promise<IteratorResult<T[]>> {
      if (closed) return DONE;
      if (limit !== undefined && delivered >= limit) {
        close();
        return DONE;
      }
      try {
        const batch = await batches.nextBatch();
        if (closed) return DONE;
        if (batch === undefined) {
          closed = true;
          return DONE;
        }
        const items = limit === undefined ? batch : firstItems(batch, limit - delivered);
        delivered += items.length;
        if (limit !== undefined && delivered >= limit) close();
        return { done: false, value: items };
      } catch (error) {
        close();
        throw error;
      }
    },
    async return(): Promise<IteratorResult<T[]>> {
      close();
      return DONE;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
