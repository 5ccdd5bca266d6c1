import { abortError } from '../util/operation-signal.js';

/**
 * The one stream shape of the mapper: items handed over a batch at a time
 * (whatever the source had ready; never an empty batch), pulled by the
 * consumer, cancellable. A scan pays one promise per batch, not per row.
 *
 * - `next()` resolves the next batch, or done once the stream ended, was
 *   cancelled or failed (an error rejects once; an abort rejects every call).
 * - `cancel()` stops the stream and everything it reads at once, even while a
 *   `next()` is pending (that `next()` then resolves done); idempotent.
 *   `return()` (e.g. `break` in `for await`) is `cancel()` that also waits
 *   for the source to close when it can.
 *
 * Every batch stream is made by {@link batchStream}, which owns this state
 * machine once; sources only say how to pull a batch and how to stop.
 * @internal
 * @example
 * ```ts
 * for await (const rows of stream) if (rows.some(isLast)) break; // break cancels the read
 * ```
 */
export interface BatchStream<T> extends AsyncIterableIterator<readonly T[], undefined, undefined> {
  next(): Promise<IteratorResult<readonly T[], undefined>>;
  return(): Promise<IteratorReturnResult<undefined>>;
  cancel(): void;
}

/**
 * What a source gives {@link batchStream}: how to pull its next batch and how
 * to stop reading. Anything it opens, it opens on its first `pull()`, so a
 * stream cancelled before its first `next()` opens nothing.
 * @internal
 * @example
 * ```ts
 * const producer: BatchProducer<number> = { pull: async () => (done ? undefined : [1, 2, 3]), stop: () => undefined };
 * ```
 */
export interface BatchProducer<T> {
  /** The next batch (an empty one is skipped), or `undefined` at the end. Called one at a time, never after `stop()`. */
  pull(): Promise<readonly T[] | undefined>;
  /**
   * Releases what the source holds. Called once, when the stream stops before
   * its end: cancelled, aborted, or after `pull()` failed; never after the end.
   * A promise it returns is what `return()` waits for (its error is dropped).
   */
  stop(): void | Promise<void>;
}

/**
 * Options of {@link batchStream}.
 * @internal
 * @example
 * ```ts
 * const options: BatchStreamOptions = { signal: operation.signal, name: 'Reading.scan' };
 * ```
 */
export interface BatchStreamOptions {
  /** Aborting it fails the stream at once: the source is stopped and `next()` rejects with the typed abort error. */
  readonly signal?: AbortSignal;
  /** The operation named by the abort error. */
  readonly name?: string;
  /** Runs once when the source reported its end (not when the stream was cancelled or failed). */
  readonly onEnd?: () => void;
}

/**
 * The final iterator result.
 * @internal
 * @example
 * ```ts
 * return DONE;
 * ```
 */
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
    this.#settle('failed');
    this.#stop();
    this.#release()?.reject(abortError(this.#signal as AbortSignal, this.#name));
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

/**
 * Makes a {@link BatchStream} from a {@link BatchProducer}: the one place
 * that knows whether a stream is open, ended, failed or cancelled, settles a
 * pending `next()` when it is cancelled or aborted, serializes `next()`
 * calls, and stops the source exactly once when it stops early.
 * @internal
 * @example
 * ```ts
 * const stream = batchStream({ pull: () => source.read(), stop: () => source.close() }, { signal, name: 'Reading.scan' });
 * ```
 */
export function batchStream<T>(producer: BatchProducer<T>, options: BatchStreamOptions = {}): BatchStream<T> {
  return new ProducedStream(producer, options);
}

/**
 * A stream of `items` in one batch (none when empty).
 * @internal
 * @example
 * ```ts
 * const nothing = batchOf<RowData>([]);
 * ```
 */
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

/**
 * Maps (or, returning `undefined`, drops) the items of a stream a batch at a
 * time; `onEnd` runs once when `inner` reached its end. Cancelling the result
 * cancels `inner`.
 * @internal
 * @example
 * ```ts
 * const keys = mapBatches(rows, (row) => row.key, () => console.log('read to the end'));
 * ```
 */
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

/**
 * The first `limit` items of a stream: the batch that reaches the limit is
 * cut and `inner` is cancelled at once, before the consumer asks again (a
 * limit of 0 cancels it without reading). Without a limit, `inner` itself.
 * @internal
 * @example
 * ```ts
 * for await (const rows of takeItems(merged, 100)) rows.forEach(use);
 * ```
 */
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
