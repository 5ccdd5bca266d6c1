/**
 * The value a {@link StopSignal} race resolves to once stopped.
 * @internal
 *
 * @example
 * ```ts
 * if ((await signal.race(handle.pull())) === STOPPED) return DONE;
 * ```
 */
export const STOPPED: unique symbol = Symbol('bigtable-mapper:stopped');

/**
 * The final iterator result.
 * @internal
 *
 * @example
 * ```ts
 * if (heap.size === 0) return DONE;
 * ```
 */
export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A one-shot stop flag whose `race` lets a pending await end as soon as the
 * merge is stopped, instead of waiting for a slow source.
 * @internal
 *
 * @example
 * ```ts
 * const signal = new StopSignal();
 * const outcome = await signal.race(handle.pull()); // STOPPED after signal.stop()
 * ```
 */
export class StopSignal {
  #stopped = false;
  /** Pending races' STOPPED callbacks. Each race removes its own when it settles, so nothing accumulates. */
  readonly #waiters = new Set<() => void>();

  /** Whether `stop()` was called. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Stops (idempotent) and settles every pending `race`. */
  stop(): void {
    this.#stopped = true;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const settle of waiters) settle();
  }

  /**
   * Resolves like `promise`, or with {@link STOPPED} if stopped first.
   *
   * Not `Promise.race([promise, stopped])` with one long-lived `stopped`
   * promise: every such race leaves a reaction on that never-settled promise,
   * and the reaction keeps the race's result (a row) reachable, so a long scan
   * retained every row it had delivered until it ended.
   */
  race<V>(promise: Promise<V>): Promise<V | typeof STOPPED> {
    if (this.#stopped) return Promise.race([promise, Promise.resolve(STOPPED)]);
    return new Promise<V | typeof STOPPED>((resolve, reject) => {
      const onStop = (): void => resolve(STOPPED);
      this.#waiters.add(onStop);
      promise.then(
        (value) => {
          this.#waiters.delete(onStop);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiters.delete(onStop);
          reject(error);
        },
      );
    });
  }
}

/**
 * The two operations a merge provides to {@link createPullIterator}.
 * @internal
 *
 * @example
 * ```ts
 * const steps: PullSteps<Row> = { pull: async () => DONE, release: () => cancelAll(handles) };
 * ```
 */
export interface PullSteps<T> {
  /** Produces the next result. Never called concurrently, never after `release()`. */
  pull(): Promise<IteratorResult<T, undefined>>;
  /** Cancels every open source. Idempotent. */
  release(): void;
}

/**
 * Builds the merge's async iterator: `next()` calls are serialized; `return()`
 * releases every source at once, even while a `next()` is pending (that `next()`
 * then resolves done); an error from `pull()` releases every source and is
 * rethrown once; after the end, `next()` resolves done. Errors surfacing after
 * `return()` (e.g. a cancelled read failing) are dropped: the consumer left.
 * @internal
 *
 * @example
 * ```ts
 * return createPullIterator({ pull, release });
 * ```
 */
export function createPullIterator<T>(steps: PullSteps<T>): AsyncIterableIterator<T> {
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const close = (): void => {
    if (closed) return;
    closed = true;
    steps.release();
  };
  const step = async (): Promise<IteratorResult<T, undefined>> => {
    if (closed) return DONE;
    try {
      const result = await steps.pull();
      if (result.done === true) close();
      return closed ? DONE : result;
    } catch (error) {
      if (closed) return DONE;
      close();
      throw error;
    }
  };
  const iterator: AsyncIterableIterator<T> = {
    next(): Promise<IteratorResult<T, undefined>> {
      const result = queue.then(step);
      queue = result.catch(() => undefined);
      return result;
    },
    return(): Promise<IteratorResult<T, undefined>> {
      try {
        close();
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator](): AsyncIterableIterator<T> {
      return iterator;
    },
  };
  return iterator;
}
