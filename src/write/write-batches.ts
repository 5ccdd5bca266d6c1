import { closesBatch, type BatchFill, type ResolvedBatchLimits } from '../mutation/batch.js';
import { rowMutationBytes } from '../mutation/request-limits.js';
import type { CompiledMutation } from '../model/mutation.js';

/**
 * One MutateRows batch of a bulk write: the compiled rows, and for each the
 * position, entity and row key of its input, to report failures with.
 * @internal
 */
export interface WriteBatch<T> {
  readonly indices: number[];
  readonly entities: T[];
  readonly rowKeys: string[];
  /** Emptied by {@link takeMutations}. */
  mutations: CompiledMutation[];
}

/**
 * Hands a batch's compiled rows over, leaving the batch without them: once
 * the driver has turned them into its request they can be collected while
 * the RPC runs, and the batch still knows what to report.
 * @internal
 */
export function takeMutations<T>(batch: WriteBatch<T>): CompiledMutation[] {
  const { mutations } = batch;
  batch.mutations = [];
  return mutations;
}

/** Called for an entity whose compilation threw; it is left out of every batch. @internal */
export type OnCompileError<T> = (index: number, entity: T, error: unknown) => void;

const emptyBatch = <T>(): WriteBatch<T> => ({ indices: [], entities: [], rowKeys: [], mutations: [] });

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Reads a bulk write's input lazily and compiles it into MutateRows batches
 * within the entry, mutation and byte limits ({@link closesBatch}), one batch
 * per `next()`: an entity is read and compiled only when a batch is asked
 * for, and the entity that closes a batch opens the next one, so the reader
 * holds at most one open batch and one entity. Calls are served in order, one
 * at a time, so several workers can share a reader. A sync iterable is read
 * without a promise per entity (its thenable values are awaited, as
 * `for await` does); an async iterable is awaited entity by entity.
 *
 * It stops reading when the input throws (that `next()` rejects with the
 * input's error), when `signal` aborts (a pending `next()` resolves
 * `undefined` at once, and the input's iterator is closed) or on `stop()`;
 * either way the rows read into the open batch are never handed out and are
 * listed in {@link dropped}, and every later `next()` resolves `undefined`.
 * @internal
 */
export class WriteBatchReader<T> {
  readonly #input: Iterable<T> | AsyncIterable<T>;
  readonly #compile: (entity: T) => CompiledMutation;
  readonly #limits: ResolvedBatchLimits;
  readonly #onCompileError: OnCompileError<T>;
  readonly #signal: AbortSignal | undefined;
  readonly #dropped: number[] = [];
  #sync: Iterator<T> | undefined;
  #async: AsyncIterator<T> | undefined;
  #open: WriteBatch<T> = emptyBatch();
  readonly #fill: BatchFill = { entries: 0, mutations: 0, bytes: 0 };
  #index = 0;
  #ended = false;
  #exhausted = false;
  #queue: Promise<unknown> = Promise.resolve();
  #onAbort: (() => void) | undefined;

  constructor(
    input: Iterable<T> | AsyncIterable<T>,
    compile: (entity: T) => CompiledMutation,
    limits: ResolvedBatchLimits,
    onCompileError: OnCompileError<T>,
    signal?: AbortSignal,
  ) {
    this.#input = input;
    this.#compile = compile;
    this.#limits = limits;
    this.#onCompileError = onCompileError;
    this.#signal = signal;
  }

  /** Entities read from the input so far: every position from here on was never read. */
  get read(): number {
    return this.#index;
  }

  /** True once the input was read to its end. */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** Input positions read but never handed out or sent (see {@link drop}), in input order. */
  get dropped(): readonly number[] {
    return this.#dropped;
  }

  /** Records a batch that was handed out but will not be sent. */
  drop(batch: WriteBatch<T>): void {
    for (const index of batch.indices) this.#dropped.push(index);
  }

  /** The next batch, or `undefined` once the input is exhausted or the signal aborted. */
  next(): Promise<WriteBatch<T> | undefined> {
    const filled = this.#queue.then(() => this.#nextBatch());
    this.#queue = filled.catch(() => undefined);
    const signal = this.#signal;
    if (signal === undefined || this.#ended) return filled;
    return new Promise<WriteBatch<T> | undefined>((resolve, reject) => {
      const onAbort = (): void => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      filled.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async #nextBatch(): Promise<WriteBatch<T> | undefined> {
    if (this.#ended || this.#stopIfAborted()) return undefined;
    try {
      if (this.#sync === undefined && this.#async === undefined) this.#start();
      const sync = this.#sync;
      for (;;) {
        let entity: T;
        if (sync !== undefined) {
          const step = sync.next();
          if (this.#ended) return undefined;
          if (step.done) break;
          entity = step.value;
          if (isThenable(entity)) {
            entity = (await entity) as T;
            if (this.#ended) return undefined;
          }
        } else {
          const step = await (this.#async as AsyncIterator<T>).next();
          if (this.#ended) return undefined;
          if (step.done) break;
          entity = step.value;
        }
        const full = this.#add(entity);
        if (full !== undefined) return full;
      }
    } catch (err) {
      this.#end();
      throw err;
    }
    this.#exhausted = true;
    const last = this.#open;
    this.#open = emptyBatch();
    this.#end();
    return last.indices.length > 0 ? last : undefined;
  }

  #start(): void {
    const input = this.#input as Partial<AsyncIterable<T>> & Iterable<T>;
    const asyncIterator = input[Symbol.asyncIterator];
    if (asyncIterator !== undefined && asyncIterator !== null) this.#async = asyncIterator.call(input);
    else this.#sync = input[Symbol.iterator]();
    const signal = this.#signal;
    if (signal !== undefined) {
      this.#onAbort = () => this.#stopIfAborted();
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /**
   * Stops reading for good: the rows of the open batch become dropped, the
   * input's iterator is closed (its `finally` blocks run), and every later
   * `next()` resolves `undefined`.
   */
  stop(): void {
    if (this.#ended) return;
    this.#end();
    const iterator = this.#async ?? this.#sync;
    if (iterator?.return !== undefined) {
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    }
  }

  #stopIfAborted(): boolean {
    if (this.#signal?.aborted !== true) return false;
    this.stop();
    return true;
  }

  /** Stops reading; the rows of the open batch, never handed out, become dropped. */
  #end(): void {
    this.#ended = true;
    this.drop(this.#open);
    this.#open = emptyBatch();
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  /** Compiles one entity into the open batch; returns the batch it closed, if any. */
  #add(entity: T): WriteBatch<T> | undefined {
    const index = this.#index++;
    let mutation: CompiledMutation;
    try {
      mutation = this.#compile(entity);
    } catch (err) {
      this.#onCompileError(index, entity, err);
      return undefined;
    }
    const cells = mutation.mutations.length;
    const bytes = rowMutationBytes(mutation.rowKey, mutation.mutations);
    const fill = this.#fill;
    let open = this.#open;
    let full: WriteBatch<T> | undefined;
    if (closesBatch(fill, cells, bytes, this.#limits)) {
      full = open;
      open = this.#open = emptyBatch();
      fill.entries = fill.mutations = fill.bytes = 0;
    }
    open.indices.push(index);
    open.entities.push(entity);
    open.rowKeys.push(mutation.rowKeyText);
    open.mutations.push(mutation);
    fill.entries += 1;
    fill.mutations += cells;
    fill.bytes += bytes;
    return full;
  }
}
