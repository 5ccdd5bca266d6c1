import { ValidationError } from '../errors/errors.js';
import { batchStream, takeItems, type BatchProducer, type BatchStream } from './batch-stream.js';

/** Opens a source on demand: merges open sources lazily and never open the ones a consumer does not reach. @internal */
export type OpenStream<T> = () => BatchStream<T>;

/** Options of {@link mergeOrdered}; no `concurrency`: every head is needed, so all sources are open. @internal */
export interface OrderedMergeOptions {
  /** Stop after this many items and cancel every source. Default: no limit. */
  readonly limit?: number;
}

/** Options of {@link mergeUnordered}. @internal */
export interface UnorderedMergeOptions {
  /** Most sources open at once; the next opens when one finishes. A positive integer. */
  readonly concurrency: number;
  /** Stop after this many items and cancel every source. Default: no limit. */
  readonly limit?: number;
}

/** Stable k-way merge of sorted sources; a batch is what can be placed before a source is read again. @internal */
export function mergeOrdered<T>(
  sources: readonly OpenStream<T>[],
  compare: (a: T, b: T) => number,
  options: OrderedMergeOptions = {},
): BatchStream<T> {
  const limit = checkLimit(options.limit);
  return takeItems(batchStream(new OrderedMerge([...sources], compare)), limit);
}

/** Unordered merge, first ready batch first, with at most `concurrency` sources open. @internal */
export function mergeUnordered<T>(sources: readonly OpenStream<T>[], options: UnorderedMergeOptions): BatchStream<T> {
  const concurrency = checkConcurrency(options.concurrency);
  const limit = checkLimit(options.limit);
  return takeItems(batchStream(new UnorderedMerge([...sources], concurrency)), limit);
}

/** A merge `limit`: `undefined` (Infinity) or a non-negative integer, else a ValidationError. @internal */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  if (Number.isSafeInteger(limit) && limit >= 0) return limit;
  throw new ValidationError(
    `Scan merge: limit must be a non-negative integer, got ${String(limit)}. Fix: pass a whole number of rows, or omit it.`,
    { argument: 'limit', value: limit },
  );
}

/** A merge `concurrency`: a positive integer, else a ValidationError. @internal */
export function checkConcurrency(concurrency: number): number {
  if (Number.isSafeInteger(concurrency) && concurrency >= 1) return concurrency;
  throw new ValidationError(
    `Scan merge: concurrency must be a positive integer, got ${String(concurrency)}. Fix: pass how many ranges may be read at once (e.g. 4).`,
    { argument: 'concurrency', value: concurrency },
  );
}

/** One source of an ordered merge: its current batch, whose head item is at `position`. */
interface Cursor<T> {
  readonly index: number;
  readonly stream: BatchStream<T>;
  items: readonly T[];
  position: number;
}

class OrderedMerge<T> implements BatchProducer<T> {
  readonly #sources: OpenStream<T>[];
  readonly #open: BatchStream<T>[] = [];
  readonly #heap: MinHeap<Cursor<T>>;
  #started = false;
  /** The source whose batch ran out in the last pull: read again on the next one. */
  #exhausted: Cursor<T> | undefined;

  constructor(sources: OpenStream<T>[], compare: (a: T, b: T) => number) {
    this.#sources = sources;
    this.#heap = new MinHeap<Cursor<T>>(
      (a, b) => compare(a.items[a.position] as T, b.items[b.position] as T) || a.index - b.index,
    );
  }

  async pull(): Promise<readonly T[] | undefined> {
    if (!this.#started) {
      this.#started = true;
      const cursors = this.#sources.map((open, index): Cursor<T> => {
        const stream = open();
        this.#open.push(stream);
        return { index, stream, items: [], position: 0 };
      });
      await Promise.all(cursors.map((cursor) => this.#refill(cursor)));
    } else if (this.#exhausted !== undefined) {
      const cursor = this.#exhausted;
      this.#exhausted = undefined;
      await this.#refill(cursor);
    }
    const out = this.#take();
    return out.length === 0 ? undefined : out;
  }

  stop(): void {
    cancelAll(this.#open);
  }

  async #refill(cursor: Cursor<T>): Promise<void> {
    const result = await cursor.stream.next();
    if (result.done === true) return;
    cursor.items = result.value;
    cursor.position = 0;
    this.#heap.push(cursor);
  }

  /** Every item that can be placed before the source at the top runs out of items. */
  #take(): T[] {
    const heap = this.#heap;
    const out: T[] = [];
    for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
      out.push(top.items[top.position] as T);
      top.position += 1;
      if (top.position < top.items.length) {
        heap.updateTop();
        continue;
      }
      heap.pop();
      top.items = [];
      this.#exhausted = top;
      break;
    }
    return out;
  }
}

/** What one read of a source in an unordered merge gave. */
type Settled<T> =
  | { readonly stream: BatchStream<T>; readonly result: IteratorResult<readonly T[], undefined> }
  | { readonly stream: BatchStream<T>; readonly error: unknown };

class UnorderedMerge<T> implements BatchProducer<T> {
  readonly #sources: OpenStream<T>[];
  readonly #concurrency: number;
  readonly #open = new Set<BatchStream<T>>();
  readonly #ready: Settled<T>[] = [];
  #opened = 0;
  #stopped = false;
  #wake: (() => void) | undefined;
  /** The source that supplied the last batch: read again on the next pull, once that batch was consumed. */
  #lastSupplier: BatchStream<T> | undefined;

  constructor(sources: OpenStream<T>[], concurrency: number) {
    this.#sources = sources;
    this.#concurrency = concurrency;
  }

  async pull(): Promise<readonly T[] | undefined> {
    if (this.#lastSupplier !== undefined) this.#request(this.#lastSupplier);
    this.#lastSupplier = undefined;
    this.#fill();
    for (;;) {
      const settled = this.#ready.shift();
      if (settled === undefined) {
        if (this.#open.size === 0) return undefined;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      if ('error' in settled) throw settled.error;
      if (settled.result.done === true) {
        this.#open.delete(settled.stream);
        this.#fill();
        continue;
      }
      this.#lastSupplier = settled.stream;
      return settled.result.value;
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#ready.length = 0;
    try {
      cancelAll(this.#open);
    } finally {
      this.#notify();
    }
  }

  #fill(): void {
    while (!this.#stopped && this.#open.size < this.#concurrency && this.#opened < this.#sources.length) {
      const stream = (this.#sources[this.#opened] as OpenStream<T>)();
      this.#opened += 1;
      this.#open.add(stream);
      this.#request(stream);
    }
  }

  #request(stream: BatchStream<T>): void {
    stream.next().then(
      (result) => this.#settled({ stream, result }),
      (error: unknown) => this.#settled({ stream, error }),
    );
  }

  #settled(settled: Settled<T>): void {
    if (this.#stopped) return;
    this.#ready.push(settled);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** Cancels every stream, even when one `cancel()` throws; then rethrows the first error. */
function cancelAll(streams: Iterable<BatchStream<unknown>>): void {
  const errors: unknown[] = [];
  for (const stream of streams) {
    try {
      stream.cancel();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/** A binary min-heap ordered by `compare` (negative: `a` comes first). */
class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.#before(child, parent)) break;
      this.#swap(child, parent);
      child = parent;
    }
  }

  /** The smallest item without removing it, or `undefined` when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Restores the order after the smallest item's priority grew (e.g. its source moved to its next item). */
  updateTop(): void {
    this.#siftDown();
  }

  pop(): T | undefined {
    const items = this.#items;
    if (items.length <= 1) return items.pop();
    const top = items[0] as T;
    items[0] = items.pop() as T;
    this.#siftDown();
    return top;
  }

  #siftDown(): void {
    const items = this.#items;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < items.length && this.#before(left, smallest)) smallest = left;
      if (right < items.length && this.#before(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.#swap(parent, smallest);
      parent = smallest;
    }
  }

  #before(i: number, j: number): boolean {
    return this.#compare(this.#items[i] as T, this.#items[j] as T) < 0;
  }

  #swap(i: number, j: number): void {
    const items = this.#items;
    const held = items[i] as T;
    items[i] = items[j] as T;
    items[j] = held;
  }
}
