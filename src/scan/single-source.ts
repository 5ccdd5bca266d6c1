import type { RowSource } from './row-source.js';

/**
 * Iterates one source directly, without a merge: a scan of a single key range
 * (an unsalted entity, or a salted one whose bucket is fixed) needs neither a
 * heap nor per-row races. Stops after `limit` items; `return()` and errors
 * cancel the source at once, even while a read is pending.
 * @internal
 */
export function iterateSingleSource<T>(source: RowSource<T>, limit: number | undefined): AsyncIterableIterator<T> {
  const rows = source[Symbol.asyncIterator]();
  let delivered = 0;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    source.cancel();
  };
  const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });
  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      if (closed) return done();
      if (limit !== undefined && delivered >= limit) {
        close();
        return done();
      }
      try {
        const result = await rows.next();
        if (closed) return done();
        if (result.done === true) {
          closed = true;
          return done();
        }
        delivered += 1;
        return result;
      } catch (error) {
        close();
        throw error;
      }
    },
    async return(): Promise<IteratorResult<T>> {
      close();
      return done();
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
