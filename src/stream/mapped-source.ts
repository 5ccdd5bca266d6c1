import { toBatchSource, withItemIterator, type BatchedRowSource } from './batch-source.js';
import type { RowSource } from './row-source.js';

/**
 * A source that maps (or, returning `undefined`, skips) the items of another
 * source a batch at a time: no promise per item. `onEnd` runs once when the
 * inner source ran to its end (not when cancelled).
 * @internal
 * @example
 * ```ts
 * const keys = mapSource(rows, (row) => row.key, () => console.log('read to the end'));
 * ```
 */
export function mapSource<A, B>(
  inner: RowSource<A>,
  map: (item: A) => B | undefined,
  onEnd: () => void,
): BatchedRowSource<B> {
  const batches = toBatchSource(inner);
  let cancelled = false;
  let ended = false;
  const nextBatch = async (): Promise<B[] | undefined> => {
    while (!cancelled && !ended) {
      const batch = await batches.nextBatch();
      if (cancelled) break;
      if (batch === undefined) {
        ended = true;
        onEnd();
        break;
      }
      const mapped: B[] = [];
      for (const item of batch) {
        const out = map(item);
        if (out !== undefined) mapped.push(out);
      }
      if (mapped.length > 0) return mapped;
    }
    return undefined;
  };
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    batches.cancel();
  };
  return withItemIterator({ nextBatch, cancel });
}
