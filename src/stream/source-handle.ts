import { toBatchSource, type BatchSource } from './batch-source.js';
import type { RowSourceFactory } from './row-source.js';

/**
 * What one pull from a source produced: the batch of items it had ready
 * (never empty). Pulls never reject: errors are data here.
 * @internal
 *
 * @example
 * ```ts
 * const outcome = await handle.pull();
 * if (outcome.kind === 'items') use(outcome.items);
 * ```
 */
export type PullOutcome<T> =
  | { readonly kind: 'items'; readonly items: T[] }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly error: unknown };

const DONE_OUTCOME = { kind: 'done' } as const;

/**
 * An opened source inside a merge: its index, its batches, and whether it is
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
  readonly #batches: BatchSource<T>;
  #state: 'open' | 'ended' | 'cancelled' = 'open';

  private constructor(index: number, batches: BatchSource<T>) {
    this.index = index;
    this.#batches = batches;
  }

  /** Calls the factory; an error from it propagates. */
  static open<T>(index: number, factory: RowSourceFactory<T>): SourceHandle<T> {
    return new SourceHandle(index, toBatchSource(factory()));
  }

  /** Pulls the next batch from the source: every item it has ready, at least one. */
  async pull(): Promise<PullOutcome<T>> {
    try {
      const items = await this.#batches.nextBatch();
      if (items === undefined) {
        this.#end();
        return DONE_OUTCOME;
      }
      return { kind: 'items', items };
    } catch (error) {
      this.#end();
      return { kind: 'error', error };
    }
  }

  /**
   * Cancels the read if the source is still open (idempotent). A source that
   * is read item by item also gets its iterator closed in the background; an
   * error from that has no one left to report to and is dropped.
   */
  cancel(): void {
    if (this.#state !== 'open') return;
    this.#state = 'cancelled';
    this.#batches.cancel();
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
