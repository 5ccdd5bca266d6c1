import { abortError } from '../util/operation-signal.js';

/**
 * The mapper's one stream shape: an async iterator of non-empty batches of
 * items, pulled a batch at a time, that can be cancelled. It is what
 * `BigtableDriver.readRows` returns: rows in batches of what the read had
 * ready, so that a reader pays one promise per batch rather than per row.
 * `cancel()` stops the stream and what it reads (for a Bigtable read, the RPC)
 * at once; leaving a `for await` loop early does the same through `return()`.
 * A custom driver makes one from an async iterable with `fromAsyncIterable`.
 *
 * @example
 * ```ts
 * const rows = driver.readRows({ table: 'readings', limit: 100 });
 * for await (const batch of rows) for (const row of batch) console.log(row.key);
 * ```
 */
export interface BatchStream<T> extends AsyncIterableIterator<readonly T[], undefined, undefined> {
  /** The next batch; done once ended, cancelled or failed. An error rejects once; an abort rejects every call. */
  next(): Promise<IteratorResult<readonly T[], undefined>>;
  /** `cancel()`, then waits for the source to close when it can (e.g. `break` in `for await`). */
  return(): Promise<IteratorReturnResult<undefined>>;
  /** Stops the stream and what it reads at once; a pending `next()` resolves done. Idempotent. */
  cancel(): void;
}

/**
 * A batch stream read item by item: `map` is applied to each item as the
 * reader takes it, not to a whole batch ahead of it (what `eachItem` and the
 * Observable adapter read).
 * @internal
 */
export interface MappedBatches<S, T> {
  readonly stream: BatchStream<S>;
  readonly map: (item: S) => T;
}

/** A source of a {@link batchStream}: it opens what it reads on its first `pull()`, never before. @internal */
export interface BatchProducer<T> {
  /** The next batch, or `undefined` at the end. Called one at a time, never after `stop()`. */
  pull(): Promise<readonly T[] | undefined>;
  /** Called once if the stream stops before its end: cancelled, aborted, or `pull()` failed. */
  stop(): void | Promise<void>;
}

/** Options of {@link batchStream}. @internal */
export interface BatchStreamOptions {
  /** Aborting it fails the stream at once: the source is stopped and `next()` rejects with the typed abort error. */
  readonly signal?: AbortSignal;
  /** The operation named by the abort error. */
  readonly name?: string;
  /** Runs once when the source reported its end (not when the stream was cancelled or failed). */
  readonly onEnd?: () => void;
}

/** The final iterator result. @internal */
export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

type State = 'open' | 'ended' | 'failed' | 'cancelled';

/** The pending `next()`: settled by the pull, or earlier by `cancel()` or an abort. */
interface Waiter<T> {
  resolve(result: IteratorResult<readonly T[], undefined>): void;
  reject(error: unknown): void;
}

class ProducedStream<T> implements BatchStream<T> {
  readonly #producer: BatchProducer<T>;
  readonly #signal: AbortSignal | undefined;
  readonly #name: string;
  readonly #onEnd: (() => void) | undefined;
  #state: State = 'open';
  #waiter: Waiter<T> | undefined;
  /** The latest pending `next()`, while any is pending: a `next()` called meanwhile runs after it. */
  #tail: Promise<unknown> | undefined;
  #inFlight = 0;
  #stopping: Promise<void> | undefined;
  readonly #stepAfter = (): Promise<IteratorResult<readonly T[], undefined>> => this.#step();
  readonly #stepSettled = (): void => {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) this.#tail = undefined;
  };
  readonly #onAbort = (): void => {
    if (this.#state !== 'open') return;
    const failure = this.#fail(abortError(this.#signal as AbortSignal, this.#name));
    this.#release()?.reject(failure);
  };

  constructor(producer: BatchProducer<T>, options: BatchStreamOptions) {
    this.#producer = producer;
    this.#signal = options.signal;
    this.#name = options.name ?? 'stream';
    this.#onEnd = options.onEnd;
    if (this.#signal === undefined) return;
    if (this.#signal.aborted) this.#onAbort();
    else this.#signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  next(): Promise<IteratorResult<readonly T[], undefined>> {
    const step = this.#tail === undefined ? this.#step() : this.#tail.then(this.#stepAfter, this.#stepAfter);
    this.#inFlight += 1;
    this.#tail = step;
    step.then(this.#stepSettled, this.#stepSettled);
    return step;
  }

  cancel(): void {
    if (this.#state !== 'open') return;
    this.#settle('cancelled');
    try {
      this.#stop();
    } finally {
      this.#release()?.resolve(DONE);
    }
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    this.cancel();
    await this.#stopping;
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #step(): Promise<IteratorResult<readonly T[], undefined>> {
    if (this.#signal?.aborted === true) return Promise.reject(abortError(this.#signal, this.#name));
    if (this.#state !== 'open') return Promise.resolve(DONE);
    let pulled: Promise<readonly T[] | undefined>;
    try {
      pulled = this.#producer.pull();
    } catch (error) {
      return Promise.reject(this.#fail(error));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = { resolve, reject };
      this.#waiter = waiter;
      pulled.then(
        (batch) => {
          if (this.#waiter !== waiter) return;
          this.#waiter = undefined;
          if (batch === undefined) {
            this.#settle('ended');
            try {
              this.#onEnd?.();
            } catch (error) {
              reject(error);
              return;
            }
            resolve(DONE);
          } else if (batch.length === 0) resolve(this.#step());
          else resolve({ done: false, value: batch });
        },
        (error: unknown) => {
          if (this.#waiter !== waiter) return;
          this.#waiter = undefined;
          reject(this.#fail(error));
        },
      );
    });
  }

  #fail(error: unknown): unknown {
    this.#settle('failed');
    try {
      this.#stop();
    } catch {
      // The stream's own error is the one to report.
    }
    return error;
  }

  #stop(): void {
    const stopping = this.#producer.stop();
    if (stopping !== undefined) this.#stopping = stopping.catch(() => undefined);
  }

  #settle(state: Exclude<State, 'open'>): void {
    this.#state = state;
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  #release(): Waiter<T> | undefined {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    return waiter;
  }
}

/** The one open/ended/failed/cancelled state machine: every batch stream is made here. @internal */
export function batchStream<T>(producer: BatchProducer<T>, options: BatchStreamOptions = {}): BatchStream<T> {
  return new ProducedStream(producer, options);
}

/** A stream of `items` in one batch (none when empty). @internal */
export function batchOf<T>(items: readonly T[]): BatchStream<T> {
  let handed = false;
  return batchStream({
    pull: () => {
      const batch = handed ? undefined : items;
      handed = true;
      return Promise.resolve(batch);
    },
    stop: () => undefined,
  });
}

/** Maps (or, mapping to `undefined`, drops) items a batch at a time. @internal */
export function mapBatches<A, B>(
  inner: BatchStream<A>,
  map: (item: A) => B | undefined,
  onEnd?: () => void,
): BatchStream<B> {
  return batchStream(
    {
      pull: async () => {
        for (;;) {
          const result = await inner.next();
          if (result.done === true) return undefined;
          const mapped: B[] = [];
          for (const item of result.value) {
            const out = map(item);
            if (out !== undefined) mapped.push(out);
          }
          if (mapped.length > 0) return mapped;
        }
      },
      stop: () => inner.cancel(),
    },
    { onEnd },
  );
}

/** The first `limit` items: `inner` is cancelled as soon as the limit is reached. @internal */
export function takeItems<T>(inner: BatchStream<T>, limit: number | undefined): BatchStream<T> {
  if (limit === undefined || limit === Number.POSITIVE_INFINITY) return inner;
  let delivered = 0;
  return batchStream({
    pull: async () => {
      if (delivered >= limit) {
        inner.cancel();
        return undefined;
      }
      const result = await inner.next();
      if (result.done === true) return undefined;
      const batch = result.value;
      const items = batch.length <= limit - delivered ? batch : batch.slice(0, limit - delivered);
      delivered += items.length;
      if (delivered >= limit) inner.cancel();
      return items;
    },
    stop: () => inner.cancel(),
  });
}
