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

/** A {@link RowSource} over a batch stream, whose batches the mapper's stages take whole. @internal */
export function rowSource<T>(stream: BatchStream<T>): RowSource<T> {
  return new StreamRows(stream);
}

/** What {@link rowSource} makes: {@link toBatchStream} recognizes it and takes its stream. */
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

/** A {@link RowSource}'s batches: its stream if {@link rowSource} made it, else one item per batch. @internal */
export function toBatchStream<T>(source: RowSource<T>): BatchStream<T> {
  if (source instanceof StreamRows) return source.batches as BatchStream<T>;
  return iteratorBatches(
    () => source[Symbol.asyncIterator](),
    () => source.cancel(),
  );
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

const identity = <T>(item: T): T => item;

/** A batch stream item by item, mapped as taken; `return()` or a `map` error cancels the stream. @internal */
export function eachItem<T, U>(stream: BatchStream<T>, map: (item: T) => U): AsyncIterableIterator<U> {
  return new BatchItems(stream, map);
}

/** What {@link eachItem} makes; the Observable adapters read an unread one's `stream` a batch at a time. @internal */
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
