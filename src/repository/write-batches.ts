import { closesBatch, type ResolvedBatchLimits } from '../mutation/batch.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';

/**
 * One MutateRows batch of a bulk write: the compiled rows, and for each the
 * position, entity and row key of its input, to report failures with.
 * @internal
 * @example
 * ```ts
 * const batch: WriteBatch<Reading> = { indices: [0, 2], entities: [a, c], rowKeys: [ma.rowKeyText, mc.rowKeyText], mutations: [ma, mc] };
 * ```
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
 * @example
 * ```ts
 * const failed = await driver.mutateRows(table, takeMutations(batch));
 * ```
 */
export function takeMutations<T>(batch: WriteBatch<T>): CompiledMutation[] {
  const { mutations } = batch;
  batch.mutations = [];
  return mutations;
}

/** Called for an entity whose compilation threw; it is left out of every batch. @internal @example `(index, entity, err) => failures.push({ index, entity, err })` */
export type OnCompileError<T> = (index: number, entity: T, error: unknown) => void;

const emptyBatch = <T>(): WriteBatch<T> => ({ indices: [], entities: [], rowKeys: [], mutations: [] });

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Reads a bulk write's input lazily and compiles it into MutateRows batches
 * within the entry and mutation limits ({@link closesBatch}), one batch per `next()`: an
 * entity is read and compiled only when a batch is asked for, and the entity
 * that closes a batch opens the next one. Calls are served in order, one at
 * a time, so several workers can share a reader. A sync iterable is read
 * without a promise per entity (its thenable values are awaited, as
 * `for await` does); an async iterable is awaited entity by entity. After the
 * input throws, `next()` resolves `undefined` and the rows read into the
 * open batch are dropped.
 * @internal
 * @example
 * ```ts
 * const reader = new WriteBatchReader(entities, (e) => compileSave(schema, e), resolveBatchLimits({ maxEntries: 500 }), onError);
 * for (let b = await reader.next(); b !== undefined; b = await reader.next()) await driver.mutateRows(table, b.mutations);
 * ```
 */
export class WriteBatchReader<T> {
  readonly #input: Iterable<T> | AsyncIterable<T>;
  readonly #compile: (entity: T) => CompiledMutation;
  readonly #limits: ResolvedBatchLimits;
  readonly #onCompileError: OnCompileError<T>;
  #sync: Iterator<T> | undefined;
  #async: AsyncIterator<T> | undefined;
  #open: WriteBatch<T> = emptyBatch();
  #cells = 0;
  #index = 0;
  #ended = false;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(input: Iterable<T> | AsyncIterable<T>, compile: (entity: T) => CompiledMutation, limits: ResolvedBatchLimits, onCompileError: OnCompileError<T>) {
    this.#input = input;
    this.#compile = compile;
    this.#limits = limits;
    this.#onCompileError = onCompileError;
  }

  /** The next batch, or `undefined` once the input is exhausted. */
  next(): Promise<WriteBatch<T> | undefined> {
    const result = this.#queue.then(() => this.#fill());
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #fill(): Promise<WriteBatch<T> | undefined> {
    if (this.#ended) return undefined;
    try {
      if (this.#sync === undefined && this.#async === undefined) this.#start();
      const sync = this.#sync;
      for (;;) {
        let entity: T;
        if (sync !== undefined) {
          const step = sync.next();
          if (step.done) break;
          entity = step.value;
          if (isThenable(entity)) entity = (await entity) as T;
        } else {
          const step = await (this.#async as AsyncIterator<T>).next();
          if (step.done) break;
          entity = step.value;
        }
        const full = this.#add(entity);
        if (full !== undefined) return full;
      }
    } catch (err) {
      this.#ended = true;
      this.#open = emptyBatch();
      throw err;
    }
    this.#ended = true;
    const last = this.#open;
    this.#open = emptyBatch();
    return last.indices.length > 0 ? last : undefined;
  }

  #start(): void {
    const input = this.#input as Partial<AsyncIterable<T>> & Iterable<T>;
    const asyncIterator = input[Symbol.asyncIterator];
    if (asyncIterator !== undefined && asyncIterator !== null) this.#async = asyncIterator.call(input);
    else this.#sync = input[Symbol.iterator]();
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
    const size = mutation.mutations.length;
    let open = this.#open;
    let full: WriteBatch<T> | undefined;
    if (closesBatch(open.indices.length, this.#cells, size, this.#limits)) {
      full = open;
      open = this.#open = emptyBatch();
      this.#cells = 0;
    }
    open.indices.push(index);
    open.entities.push(entity);
    open.rowKeys.push(mutation.rowKeyText);
    open.mutations.push(mutation);
    this.#cells += size;
    return full;
  }
}
