import type { RowSource, RowSourceFactory } from './row-source.js';

/**
 * What one pull from a source produced. Pulls never reject: errors are data here.
 * @internal
 *
 * @example
 * ```ts
 * const outcome = await handle.pull();
 * if (outcome.kind === 'item') use(outcome.item);
 * ```
 */
export type PullOutcome<T> =
  | { readonly kind: 'item'; readonly item: T }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly error: unknown };

const DONE_OUTCOME = { kind: 'done' } as const;

/**
 * An opened source inside a merge: its index, its iterator, and whether it is
 * still open, ended by itself (done or error), or cancelled. A source is released
 * exactly once: either it ends by itself or it gets `cancel()`.
 * @internal
 *
 * @example
 * ```ts
 * const handle = SourceHandle.open(0, () => fromAsyncIterable(stream, () => stream.end()));
 * const first = await handle.pull();
 * handle.cancel();
 * ```
 */
export class SourceHandle<T> {
  readonly index: number;
  readonly #source: RowSource<T>;
  readonly #iterator: AsyncIterator<T>;
  #state: 'open' | 'ended' | 'cancelled' = 'open';

  private constructor(index: number, source: RowSource<T>, iterator: AsyncIterator<T>) {
    this.index = index;
    this.#source = source;
    this.#iterator = iterator;
  }

  /** Calls the factory and starts iterating; an error from either propagates. */
  static open<T>(index: number, factory: RowSourceFactory<T>): SourceHandle<T> {
    const source = factory();
    let iterator: AsyncIterator<T>;
    try {
      iterator = source[Symbol.asyncIterator]();
    } catch (error) {
      source.cancel();
      throw error;
    }
    return new SourceHandle(index, source, iterator);
  }

  /** Pulls exactly one item from the source. */
  async pull(): Promise<PullOutcome<T>> {
    try {
      const result = await this.#iterator.next();
      if (result.done === true) {
        this.#end();
        return DONE_OUTCOME;
      }
      return { kind: 'item', item: result.value };
    } catch (error) {
      this.#end();
      return { kind: 'error', error };
    }
  }

  /**
   * Cancels the read if the source is still open (idempotent), then closes its
   * iterator in the background. The read is already stopped at that point, so an
   * error from the iterator's `return()` has no one left to report to and is dropped.
   */
  cancel(): void {
    if (this.#state !== 'open') return;
    this.#state = 'cancelled';
    try {
      this.#source.cancel();
    } finally {
      const iterator = this.#iterator;
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    }
  }

  #end(): void {
    if (this.#state === 'open') this.#state = 'ended';
  }
}

/**
 * Cancels every handle, even when one `cancel()` throws; then rethrows the first error.
 * @internal
 *
 * @example
 * ```ts
 * cancelAll(openHandles);
 * ```
 */
export function cancelAll(handles: Iterable<SourceHandle<unknown>>): void {
  const errors: unknown[] = [];
  for (const handle of handles) {
    try {
      handle.cancel();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}
