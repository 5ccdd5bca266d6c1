import { DONE } from './pull-iterator.js';
import type { RowSource } from './row-source.js';

/**
 * A source read a batch at a time: `nextBatch()` hands over every item the
 * source already holds (at least one), so a scan pays one promise per batch
 * instead of one per row. The built-in driver's reads and the scan's own
 * stages are batch sources; any other {@link RowSource} is read one item per
 * batch through {@link toBatchSource}.
 * @internal
 * @example
 * ```ts
 * for (let batch = await source.nextBatch(); batch !== undefined; batch = await source.nextBatch()) use(batch);
 * ```
 */
export interface BatchSource<T> {
  /** The items ready now (never an empty array), or `undefined` once the source ended or was cancelled. Not called concurrently. */
  nextBatch(): Promise<T[] | undefined>;
  /** Stops the underlying read; idempotent. A pending `nextBatch()` then resolves `undefined`. */
  cancel(): void;
}

/**
 * A {@link RowSource} that is also a {@link BatchSource}.
 * @internal
 * @example
 * ```ts
 * const rows: BatchedRowSource<RowData> = driver.readRows(request) as BatchedRowSource<RowData>;
 * ```
 */
export type BatchedRowSource<T> = RowSource<T> & BatchSource<T>;

/**
 * Whether a source can be read a batch at a time.
 * @internal
 * @example
 * ```ts
 * if (isBatchSource(source)) await source.nextBatch();
 * ```
 */
export function isBatchSource<T>(source: RowSource<T> | BatchSource<T>): source is BatchedRowSource<T> {
  return typeof (source as Partial<BatchSource<T>>).nextBatch === 'function';
}

/**
 * Reads any {@link RowSource} as a {@link BatchSource}: batch sources as they
 * are, others one item per batch through their iterator (created on the first
 * call; `cancel()` cancels the source, then closes the iterator in the background).
 * @internal
 * @example
 * ```ts
 * const batches = toBatchSource(customDriver.readRows(request));
 * ```
 */
export function toBatchSource<T>(source: RowSource<T>): BatchSource<T> {
  if (isBatchSource(source)) return source;
  let iterator: AsyncIterator<T> | undefined;
  let cancelled = false;
  return {
    async nextBatch(): Promise<T[] | undefined> {
      if (cancelled) return undefined;
      iterator ??= source[Symbol.asyncIterator]();
      const result = await iterator.next();
      return cancelled || result.done === true ? undefined : [result.value];
    },
    cancel(): void {
      if (cancelled) return;
      cancelled = true;
      const opened = iterator;
      try {
        source.cancel();
      } finally {
        if (opened !== undefined) {
          Promise.resolve()
            .then(() => opened.return?.())
            .catch(() => undefined);
        }
      }
    },
  };
}

/**
 * Adds item-by-item async iteration to a {@link BatchSource}, so it is also a
 * {@link RowSource}: `next()` serves the current batch without waiting and
 * fetches the next one when it runs out; `return()` cancels the source.
 * @internal
 * @example
 * ```ts
 * const source = withItemIterator({ nextBatch, cancel });
 * for await (const row of source) use(row);
 * ```
 */
export function withItemIterator<T>(batches: BatchSource<T>): BatchedRowSource<T> {
  let pending: T[] = [];
  let position = 0;
  const source: BatchedRowSource<T> = {
    nextBatch(): Promise<T[] | undefined> {
      if (position < pending.length) {
        const rest = pending.slice(position);
        pending = [];
        position = 0;
        return Promise.resolve(rest);
      }
      return batches.nextBatch();
    },
    cancel(): void {
      pending = [];
      position = 0;
      batches.cancel();
    },
    [Symbol.asyncIterator](): AsyncIterator<T> {
      return {
        async next(): Promise<IteratorResult<T>> {
          while (position >= pending.length) {
            const batch = await batches.nextBatch();
            if (batch === undefined) return DONE;
            pending = batch;
            position = 0;
          }
          return { done: false, value: pending[position++] as T };
        },
        async return(): Promise<IteratorResult<T>> {
          source.cancel();
          return DONE;
        },
      };
    },
  };
  return source;
}
