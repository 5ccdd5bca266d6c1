import { DONE } from './pull-iterator.js';

/**
 * Iterates the items of an iterator of batches, each mapped by `map`: `next()`
 * serves the current batch without waiting on anything and asks for the next
 * batch only when it runs out. `return()` (e.g. `break`) closes `batches`, and
 * so does an error thrown by `map`, which is then rethrown. `next()` calls are
 * expected one at a time, as `for await` makes them.
 * @internal
 * @example
 * ```ts
 * for await (const entity of flattenBatches(scanBatches, (row) => hydrate(schema, row, read, now))) use(entity);
 * ```
 */
export function flattenBatches<T, U>(batches: AsyncIterator<T[]>, map: (item: T) => U): AsyncIterableIterator<U> {
  let current: T[] = [];
  let position = 0;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    current = [];
    await batches.return?.();
  };
  const iterator: AsyncIterableIterator<U> = {
    async next(): Promise<IteratorResult<U>> {
      while (!closed && position >= current.length) {
        const result = await batches.next();
        if (closed) return DONE;
        if (result.done === true) {
          closed = true;
          current = [];
          return DONE;
        }
        current = result.value;
        position = 0;
      }
      if (closed) return DONE;
      const item = current[position++] as T;
      try {
        return { done: false, value: map(item) };
      } catch (error) {
        await close().catch(() => undefined);
        throw error;
      }
    },
    async return(): Promise<IteratorResult<U>> {
      await close();
      return DONE;
    },
    [Symbol.asyncIterator](): AsyncIterableIterator<U> {
      return iterator;
    },
  };
  return iterator;
}
