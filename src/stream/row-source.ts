import { batchStream, DONE, type BatchStream } from './batch-stream.js';

/**
 * A cancellable, pull-based source of items: what `BigtableDriver.readRows`
 * returns, one per key range (salt bucket) of a scan. Items are produced
 * only when the consumer calls `next()`; `cancel()` stops the underlying read
 * (for a Bigtable stream: `stream.end()`, the only call that cancels the
 * gRPC read) and is idempotent. A source is iterated at most once.
 *
 * A custom driver builds one with {@link fromAsyncIterable}, or returns any
 * object of this shape: the mapper reads it item by item.
 *
 * @example
 * ```ts
 * const source: RowSource<Row> = fromAsyncIterable(stream, () => stream.end());
 * for await (const row of source) if (done(row)) { source.cancel(); break; }
 * ```
 */
export interface RowSource<T> extends AsyncIterable<T> {
  /** Stops the underlying read. Safe to call more than once and after the source ended. */
  cancel(): void;
}

/**
 * Wraps an async iterable (e.g. a Node readable stream) as a {@link RowSource}:
 * what a custom {@link BigtableDriver}'s `readRows` returns (the built-in
 * driver has its own source). `cancel()` calls `onCancel` once and closes
 * `iterable` (its iterator's `return()`); iteration then ends. Breaking out
 * of the iteration does the same.
 *
 * @example
 * ```ts
 * const stream = table.createReadStream({ ranges: [range] });
 * const source = fromAsyncIterable<Row>(stream, () => stream.end());
 * ```
 */
export function fromAsyncIterable<T>(iterable: AsyncIterable<T>, onCancel: () => void): RowSource<T> {
  return rowSource(iteratorBatches(() => iterable[Symbol.asyncIterator](), onCancel));
}

/**
 * A {@link RowSource} over a batch stream: iterated item by item, while the
 * mapper's own stages take its batches whole ({@link toBatchStream}).
 * @internal
 * @example
 * ```ts
 * return rowSource(pushedBatches(openFeed, limits));
 * ```
 */
export function rowSource<T>(stream: BatchStream<T>): RowSource<T> {
  return new StreamRows(stream);
}

class StreamRows<T> implements RowSource<T> {
  readonly #batches: BatchStream<T>;
  /** The one item iterator of this source: cancelling the source also drops the items it holds. */
  #items: BatchItems<T, T> | undefined;

  constructor(batches: BatchStream<T>) {
    this.#batches = batches;
  }

  /** The source's batches: the stream itself, or what is left after items were read one by one. */
  get batches(): BatchStream<T> {
    const items = this.#items;
    if (items === undefined || items.unread) return this.#batches;
    return iteratorBatches(
      () => items,
      () => this.cancel(),
    );
  }

  cancel(): void {
    this.#items?.discard();
    this.#batches.cancel();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    this.#items ??= new BatchItems(this.#batches, identity);
    return this.#items;
  }
}

/**
 * The batches of a {@link RowSource}: a source made by {@link rowSource} (the
 * built-in driver's reads, {@link fromAsyncIterable}) as they are, any other
 * one item per batch (cancelling the stream cancels the source, then closes
 * its iterator).
 * @internal
 * @example
 * ```ts
 * const rows = toBatchStream(driver.readRows(request, call));
 * ```
 */
export function toBatchStream<T>(source: RowSource<T>): BatchStream<T> {
  if (source instanceof StreamRows) return source.batches as BatchStream<T>;
  return iteratorBatches(
    () => source[Symbol.asyncIterator](),
    () => source.cancel(),
  );
}

/**
 * Reads an async iterator one item per batch. The iterator is opened on the
 * first pull. Stopping the stream calls `onCancel`, then closes the iterator
 * (`return()`): awaited by the stream's `return()` when no item is being
 * read, in the background otherwise (an iterator finishes a pending `next()`
 * before its `return()`, and a stalled one never does).
 * @internal
 * @example
 * ```ts
 * const stream = iteratorBatches(() => generator(), () => undefined);
 * ```
 */
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

const identity = <T>(item: T): T => item;

/**
 * Iterates a batch stream item by item, each mapped by `map` as the consumer
 * takes it: `next()` serves the current batch without waiting and asks for
 * the next batch only when it ran out. `return()` (e.g. `break`) closes the
 * stream, and so does an error thrown by `map`, which is then rethrown.
 * `next()` calls are expected one at a time, as `for await` makes them.
 * @internal
 * @example
 * ```ts
 * for await (const entity of eachItem(rows, (row) => hydrate(schema, row, read, now))) use(entity);
 * ```
 */
export function eachItem<T, U>(stream: BatchStream<T>, map: (item: T) => U): AsyncIterableIterator<U> {
  return new BatchItems(stream, map);
}

/**
 * An item iterator over a batch stream ({@link eachItem}). Adapters that
 * can use a whole batch at once (the Observable ones) take `stream` and
 * `map` from one that has not been read yet.
 * @internal
 */
export class BatchItems<T, U> implements AsyncIterableIterator<U> {
  readonly stream: BatchStream<T>;
  readonly map: (item: T) => U;
  #batch: readonly T[] = [];
  #position = 0;
  #read = false;

  constructor(stream: BatchStream<T>, map: (item: T) => U) {
    this.stream = stream;
    this.map = map;
  }

  /** No item was taken yet. */
  get unread(): boolean {
    return !this.#read;
  }

  next(): Promise<IteratorResult<U, undefined>> {
    this.#read = true;
    if (this.#position >= this.#batch.length) return this.#nextBatch();
    try {
      return Promise.resolve(this.#emit());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async return(): Promise<IteratorResult<U, undefined>> {
    this.discard();
    await this.stream.return();
    return DONE;
  }

  /** Drops the items of the current batch not taken yet: the stream was cancelled. */
  discard(): void {
    this.#read = true;
    this.#drop();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async #nextBatch(): Promise<IteratorResult<U, undefined>> {
    const result = await this.stream.next();
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
      return { done: false, value: this.map(item) };
    } catch (error) {
      this.#drop();
      this.stream.cancel();
      throw error;
    }
  }

  #drop(): void {
    this.#batch = [];
    this.#position = 0;
  }
}
