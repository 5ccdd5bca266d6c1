import { batchStream, DONE, type BatchStream } from './batch-stream.js';

/**
 * Wraps an async iterable (e.g. a Node readable stream) as a
 * {@link BatchStream} of one item per batch: what a custom
 * {@link BigtableDriver}'s `readRows` can return (the built-in drivers hand
 * over larger batches). `cancel()` calls `onCancel` once and closes
 * `iterable` (its iterator's `return()`); the stream then ends. Leaving a
 * `for await` loop over it early does the same.
 *
 * @example
 * ```ts
 * const stream = table.createReadStream({ ranges: [range] });
 * const rows: BatchStream<Row> = fromAsyncIterable<Row>(stream, () => stream.end());
 * ```
 */
export function fromAsyncIterable<T>(iterable: AsyncIterable<T>, onCancel: () => void): BatchStream<T> {
  return iteratorBatches(() => iterable[Symbol.asyncIterator](), onCancel);
}

/** An async iterator one item per batch; stopping calls `onCancel`, then closes the iterator. @internal */
export function iteratorBatches<T>(open: () => AsyncIterator<T>, onCancel?: () => void): BatchStream<T> {
  let iterator: AsyncIterator<T> | undefined;
  let reading = false;
  return batchStream({
    pull: async () => {
      iterator ??= open();
      reading = true;
      try {
        const result = await iterator.next();
        return result.done === true ? undefined : [result.value];
      } finally {
        reading = false;
      }
    },
    stop: () => {
      let closing: Promise<void> | undefined;
      try {
        onCancel?.();
      } finally {
        closing = closeIterator(iterator);
      }
      // An iterator finishes a pending next() before its return(), and a stalled one never does: don't wait then.
      return reading ? undefined : closing;
    },
  });
}

function closeIterator(iterator: AsyncIterator<unknown> | undefined): Promise<void> | undefined {
  if (iterator?.return === undefined) return undefined;
  try {
    return iterator.return().then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return undefined;
  }
}

/** A batch stream item by item, mapped as taken; `return()` or a `map` error cancels the stream. @internal */
export function eachItem<T, U>(stream: BatchStream<T>, map: (item: T) => U): AsyncIterableIterator<U> {
  return new EachItem(stream, map);
}

/** What {@link eachItem} makes: the current batch and the position of its next item. */
class EachItem<T, U> implements AsyncIterableIterator<U> {
  readonly #stream: BatchStream<T>;
  readonly #map: (item: T) => U;
  #batch: readonly T[] = [];
  #position = 0;

  constructor(stream: BatchStream<T>, map: (item: T) => U) {
    this.#stream = stream;
    this.#map = map;
  }

  next(): Promise<IteratorResult<U, undefined>> {
    if (this.#position >= this.#batch.length) return this.#nextBatch();
    try {
      return Promise.resolve(this.#emit());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async return(): Promise<IteratorResult<U, undefined>> {
    this.#drop();
    await this.#stream.return();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async #nextBatch(): Promise<IteratorResult<U, undefined>> {
    const result = await this.#stream.next();
    if (result.done === true) {
      this.#drop();
      return DONE;
    }
    this.#batch = result.value;
    this.#position = 0;
    return this.#emit();
  }

  #emit(): IteratorResult<U, undefined> {
    const item = this.#batch[this.#position++] as T;
    try {
      return { done: false, value: this.#map(item) };
    } catch (error) {
      this.#drop();
      this.#stream.cancel();
      throw error;
    }
  }

  #drop(): void {
    this.#batch = [];
    this.#position = 0;
  }
}
