import { ValidationError } from '../errors/errors.js';
import { batchStream, takeItems, type BatchProducer, type BatchStream } from './batch-stream.js';

/** Opens a source on demand: merges open sources lazily and never open the ones a consumer does not reach. @internal */
export type OpenStream<T> = () => BatchStream<T>;

/** Options of {@link mergeOrdered}; no `concurrency`: every head is needed, so all sources are open. @internal */
export interface OrderedMergeOptions<T> {
  /** Stop after this many items and cancel every source. Default: no limit. */
  readonly limit?: number;
  /**
   * Read each source ahead of the merge, up to `items` items or about `size`
   * in total (by `sizeOf`), whichever comes first, instead of only when its
   * current batch ran out: items then wait here, where they can be kept
   * compact, rather than in the source. Default: no read-ahead.
   */
  readonly readAhead?: { readonly items: number; readonly size: number; readonly sizeOf: (item: T) => number };
  /** Hears each wait for a source's next batch, and the items read ahead over all sources after each batch arrived. */
  readonly observer?: MergeObserver;
}

/** Measurements of an ordered merge (telemetry). @internal */
export interface MergeObserver {
  /** The merge waited `ms` for a source's next batch: nothing could be placed meanwhile. */
  waited(ms: number): void;
  /** Items read ahead over all sources, after a batch arrived. */
  readAhead(items: number): void;
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
  options: OrderedMergeOptions<T> = {},
): BatchStream<T> {
  const limit = checkLimit(options.limit);
  const readAhead = options.readAhead ?? { items: 0, size: 0, sizeOf: () => 0 };
  return takeItems(batchStream(new OrderedMerge([...sources], compare, readAhead, options.observer)), limit);
}

/** Unordered merge, first ready batch first, with at most `concurrency` sources open. @internal */
export function mergeUnordered<T>(sources: readonly OpenStream<T>[], options: UnorderedMergeOptions): BatchStream<T> {
  const concurrency = checkConcurrency(options.concurrency);
  const limit = checkLimit(options.limit);
  return takeItems(batchStream(new UnorderedMerge([...sources], concurrency)), limit);
}

/**
 * A merge's `limit`: `undefined` (Infinity) or a non-negative integer. Callers
 * check what their users pass with their own messages (a scan's in `scan/`);
 * this guards the merge itself.
 */
function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  if (Number.isSafeInteger(limit) && limit >= 0) return limit;
  throw new ValidationError(`merge: limit must be a non-negative integer, got ${String(limit)}`, {
    argument: 'limit',
    value: limit,
  });
}

/** A merge's `concurrency`: a positive integer (see {@link checkLimit}). */
function checkConcurrency(concurrency: number): number {
  if (Number.isSafeInteger(concurrency) && concurrency >= 1) return concurrency;
  throw new ValidationError(`merge: concurrency must be a positive integer, got ${String(concurrency)}`, {
    argument: 'concurrency',
    value: concurrency,
  });
}

/** One source of an ordered merge: its current batch, whose head item is at `position`, and the batches read ahead. */
interface Cursor<T> {
  readonly index: number;
  readonly stream: BatchStream<T>;
  items: readonly T[];
  position: number;
  readonly ahead: { readonly items: readonly T[]; readonly size: number }[];
  aheadItems: number;
  aheadSize: number;
  reading: boolean;
  ended: boolean;
  error: { readonly cause: unknown } | undefined;
}

class OrderedMerge<T> implements BatchProducer<T> {
  readonly #sources: OpenStream<T>[];
  readonly #readAhead: NonNullable<OrderedMergeOptions<T>['readAhead']>;
  readonly #cursors: Cursor<T>[] = [];
  readonly #heap: MinHeap<Cursor<T>>;
  readonly #observer: MergeObserver | undefined;
  #aheadItems = 0;
  #started = false;
  #stopped = false;
  /** The source whose batch ran out in the last pull: its next batch is needed before anything else can be placed. */
  #exhausted: Cursor<T> | undefined;
  #wake: (() => void) | undefined;

  constructor(
    sources: OpenStream<T>[],
    compare: (a: T, b: T) => number,
    readAhead: NonNullable<OrderedMergeOptions<T>['readAhead']>,
    observer: MergeObserver | undefined,
  ) {
    this.#sources = sources;
    this.#readAhead = readAhead;
    this.#observer = observer;
    this.#heap = new MinHeap<Cursor<T>>(
      (a, b) => compare(a.items[a.position] as T, b.items[b.position] as T) || a.index - b.index,
    );
  }

  async pull(): Promise<readonly T[] | undefined> {
    if (!this.#started) {
      this.#started = true;
      for (const [index, open] of this.#sources.entries()) {
        const cursor: Cursor<T> = {
          index,
          stream: open(),
          items: [],
          position: 0,
          ahead: [],
          aheadItems: 0,
          aheadSize: 0,
          reading: false,
          ended: false,
          error: undefined,
        };
        this.#cursors.push(cursor);
        this.#read(cursor);
      }
      for (const cursor of this.#cursors) await this.#place(cursor);
    } else if (this.#exhausted !== undefined) {
      const cursor = this.#exhausted;
      this.#exhausted = undefined;
      await this.#place(cursor);
    }
    const out = this.#take();
    return out.length === 0 ? undefined : out;
  }

  stop(): void {
    this.#stopped = true;
    this.#notify();
    cancelAll(this.#cursors.map((cursor) => cursor.stream));
  }

  /** Asks the source for its next batch, unless one is asked for already, it ended, or enough is read ahead. */
  #read(cursor: Cursor<T>): void {
    if (cursor.reading || cursor.ended || cursor.error !== undefined || this.#stopped) return;
    cursor.reading = true;
    cursor.stream.next().then(
      (result) => {
        cursor.reading = false;
        if (result.done === true) cursor.ended = true;
        else {
          let size = 0;
          for (const item of result.value) size += this.#readAhead.sizeOf(item);
          cursor.ahead.push({ items: result.value, size });
          cursor.aheadItems += result.value.length;
          cursor.aheadSize += size;
          this.#aheadItems += result.value.length;
          this.#observer?.readAhead(this.#aheadItems);
          this.#readAheadOf(cursor);
        }
        this.#notify();
      },
      (cause: unknown) => {
        cursor.reading = false;
        cursor.error = { cause };
        this.#notify();
      },
    );
  }

  /** Reads the source ahead while its read-ahead has room. */
  #readAheadOf(cursor: Cursor<T>): void {
    if (cursor.aheadItems < this.#readAhead.items && cursor.aheadSize < this.#readAhead.size) this.#read(cursor);
  }

  /** The source's next batch read ahead, if any, taken out of its read-ahead. */
  #nextAhead(cursor: Cursor<T>): readonly T[] | undefined {
    const batch = cursor.ahead.shift();
    if (batch === undefined) return undefined;
    cursor.aheadItems -= batch.items.length;
    cursor.aheadSize -= batch.size;
    this.#aheadItems -= batch.items.length;
    this.#readAheadOf(cursor);
    return batch.items;
  }

  /** Waits for the source's next batch and puts the source back in the heap; a source that ended stays out. */
  async #place(cursor: Cursor<T>): Promise<void> {
    const observer = this.#observer;
    let waitedFrom: number | undefined;
    try {
      await this.#waitAndPlace(cursor, () => (waitedFrom ??= observer === undefined ? 0 : performance.now()));
    } finally {
      if (observer !== undefined && waitedFrom !== undefined) observer.waited(performance.now() - waitedFrom);
    }
  }

  async #waitAndPlace(cursor: Cursor<T>, waiting: () => void): Promise<void> {
    for (;;) {
      if (cursor.error !== undefined) throw cursor.error.cause;
      const batch = this.#nextAhead(cursor);
      if (batch !== undefined) {
        cursor.items = batch;
        cursor.position = 0;
        this.#heap.push(cursor);
        return;
      }
      if (cursor.ended || this.#stopped) return;
      this.#read(cursor);
      waiting();
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Every item that can be placed before a source runs out of items it has read. */
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
      const next = this.#nextAhead(top);
      if (next !== undefined) {
        top.items = next;
        top.position = 0;
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

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
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
