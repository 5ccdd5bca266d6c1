import { iteratorBatches } from '../../src/stream/async-iterable.js';
import type { BatchStream } from '../../src/stream/batch-stream.js';

/**
 * Counts how many fake sources are open at the same time.
 *
 * @example
 * ```ts
 * const tracker = new OpenTracker();
 * const fakes = lists.map((items) => new FakeSource(items, { tracker }));
 * expect(tracker.max).toBeLessThanOrEqual(4);
 * ```
 */
export class OpenTracker {
  current = 0;
  max = 0;

  /** Records one more open source. */
  open(): void {
    this.current += 1;
    this.max = Math.max(this.max, this.current);
  }

  /** Records one source released (ended or cancelled). */
  close(): void {
    this.current -= 1;
  }
}

/**
 * Options of a {@link FakeSource}.
 *
 * @example
 * ```ts
 * const options: FakeSourceOptions = { delayMs: 2, failAfter: 3 };
 * ```
 */
export interface FakeSourceOptions {
  /** Sleep this long before producing each item. */
  readonly delayMs?: number;
  /** Throw `error` after producing this many items. */
  readonly failAfter?: number;
  /** The error thrown by `failAfter`. */
  readonly error?: Error;
  /** Never produce anything: each pull stays pending forever. */
  readonly stall?: boolean;
  /** Shared counter of simultaneously open sources. */
  readonly tracker?: OpenTracker;
}

/**
 * A lazily generated list: `count` items, the i-th being `at(i)`.
 *
 * @example
 * ```ts
 * const items: GeneratedItems<number> = { count: 100_000, at: (i) => i };
 * ```
 */
export interface GeneratedItems<T> {
  readonly count: number;
  readonly at: (index: number) => T;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An instrumented source (an async generator read one item per batch): counts
 * opens, pulls, produced items and cancel calls, and knows whether it was
 * released (exhausted, failed or cancelled). Its `factory` is what merges open.
 *
 * @example
 * ```ts
 * const fake = new FakeSource([1, 2, 3]);
 * for await (const n of mergeOrdered([fake.factory], (a, b) => a - b)) break;
 * expect(fake.cancelled).toBe(true);
 * ```
 */
export class FakeSource<T> {
  opens = 0;
  pulls = 0;
  produced = 0;
  cancelCalls = 0;
  exhausted = false;
  failed = false;
  readonly factory = (): BatchStream<T> => this.#open();
  readonly #items: GeneratedItems<T>;
  readonly #options: FakeSourceOptions;
  #released = false;

  constructor(items: readonly T[] | GeneratedItems<T>, options: FakeSourceOptions = {}) {
    this.#items = Array.isArray(items)
      ? { count: items.length, at: (i) => items[i] as T }
      : (items as GeneratedItems<T>);
    this.#options = options;
  }

  /** `cancel()` was called at least once. */
  get cancelled(): boolean {
    return this.cancelCalls > 0;
  }

  /** Opened and neither exhausted, failed nor cancelled: a leaked read if the merge is over. */
  get live(): boolean {
    return this.opens > 0 && !this.exhausted && !this.failed && !this.cancelled;
  }

  #open(): BatchStream<T> {
    this.opens += 1;
    this.#options.tracker?.open();
    const items = this.#generate();
    const counted: AsyncIterator<T> = {
      next: () => {
        this.pulls += 1;
        return items.next();
      },
      return: () => items.return(),
    };
    return iteratorBatches(
      () => counted,
      () => {
        this.cancelCalls += 1;
        this.#release();
      },
    );
  }

  async *#generate(): AsyncGenerator<T, void, undefined> {
    const { delayMs, failAfter, error, stall } = this.#options;
    try {
      if (stall === true) await new Promise<never>(() => undefined);
      for (let i = 0; i < this.#items.count && !this.cancelled; i += 1) {
        if (delayMs !== undefined) await sleep(delayMs);
        if (failAfter === i) {
          this.failed = true;
          throw error ?? new Error(`fake source failed after ${i} items`);
        }
        this.produced += 1;
        yield this.#items.at(i);
      }
      if (!this.cancelled) this.exhausted = true;
    } finally {
      this.#release();
    }
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#options.tracker?.close();
  }
}

/**
 * Tags items with their source and position, so tests can check order and
 * stability: `{ key, source, position }`.
 *
 * @example
 * ```ts
 * const lists = tagged([[1, 3], [2]]); // [[{ key: 1, source: 0, position: 0 }, ...], ...]
 * ```
 */
export interface Tagged {
  readonly key: number;
  readonly source: number;
  readonly position: number;
}

/**
 * Tags every key with its source index and position.
 *
 * @example
 * ```ts
 * tagged([[1, 2], [1]])
 * ```
 */
export function tagged(lists: readonly (readonly number[])[]): Tagged[][] {
  return lists.map((keys, source) => keys.map((key, position) => ({ key, source, position })));
}

/**
 * Orders tagged items by key only (ties are the merge's business).
 *
 * @example
 * ```ts
 * items.sort(byKey)
 * ```
 */
export const byKey = (a: Tagged, b: Tagged): number => a.key - b.key;

/**
 * Orders tagged items by source then position (their identity).
 *
 * @example
 * ```ts
 * items.sort(byIdentity)
 * ```
 */
export const byIdentity = (a: Tagged, b: Tagged): number => a.source - b.source || a.position - b.position;

/**
 * Drains an async iterable into an array.
 *
 * @example
 * ```ts
 * await collect(merge)
 * ```
 */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
