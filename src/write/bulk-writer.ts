import { Observable, Subject } from 'rxjs';
import { DriverError, extractGrpcCode, TableNotFoundError, ValidationError } from '../errors/errors.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError, OperationAbortedError } from '../errors/operation-errors.js';
import { closesBatch, DEFAULT_BATCH_BYTES, resolveBatchLimits, type ResolvedBatchLimits } from '../mutation/batch.js';
import { MAX_REQUEST_BYTES, rowMutationBytes } from '../mutation/request-limits.js';
import type { RowMutationFailure } from '../model/driver.js';
import type { AggregateInput, CompiledMutation, PreparedMutation } from '../model/mutation.js';
import { abortError } from '../util/operation-signal.js';
import { checkOptionNames } from '../util/option-names.js';
import { DEAD_BACKEND_BATCHES, DeadBackendBreaker } from './dead-backend-breaker.js';

/**
 * Options of bulk writes: `saveMany`, `deleteMany` and a `BulkWriter`. A
 * batch closes at `batchSize` rows, about `batchBytes` bytes or 100,000
 * mutations, whichever comes first. What is accepted but not yet settled is
 * capped by `maxOutstandingRows` and `maxOutstandingBytes`: past either,
 * `add()` waits (and `saveMany` reads no further). A `BulkWriter` also
 * sends a batch that is not full once it has waited `flushIntervalMs`.
 * @example
 * ```ts
 * { batchSize: 500, concurrency: 4, batchBytes: 8 * 1024 * 1024, maxOutstandingRows: 20_000, flushIntervalMs: 1_000 }
 * ```
 */
export interface BulkWriteOptions {
  /** Rows per MutateRows request, 1 to 100,000. Default 500. */
  batchSize?: number;
  /** Requests in flight, 1 to 64. Default 2 for `saveMany`, 4 for a `BulkWriter`. */
  concurrency?: number;
  /** About how many bytes per MutateRows request (keys, qualifiers, values and framing), 1 to 256 MiB. Default 20 MiB. */
  batchBytes?: number;
  /** Rows accepted and not yet settled, 1 to 10,000,000. Default 20,000 (the Java client's bulk-mutation flow control). */
  maxOutstandingRows?: number;
  /** Bytes accepted and not yet settled, 1 byte to 4 GiB. Default 100 MiB (the Java client's bulk-mutation flow control). */
  maxOutstandingBytes?: number;
  /** A `BulkWriter` sends a batch that is not full this long after its first row, 0 (never) to 3,600,000 ms. Default 1,000 (the Java client's delay threshold). */
  flushIntervalMs?: number;
}

/**
 * How one entity of a bulk write ended. `persisted`: the server confirmed the
 * row. `failed`: it was not written: the server rejected it (its gRPC
 * `grpcCode`), or it was never sent because the writer stopped first
 * (`error` says why). `unknown`: a mutation that is not idempotent was cut
 * in flight (its call failed or was cut with no status for it): it may or
 * may not have been applied, and it is never sent again.
 * @example
 * ```ts
 * writer.outcomes.subscribe((o) => { if (o.status !== 'persisted') console.error(o.index, o.rowKey, o.grpcCode, o.error.message); });
 * ```
 */
export type WriteOutcome<T> =
  | {
      /** The server confirmed the row. */
      readonly status: 'persisted';
      /** Position of the entity among those the writer accepted, from 0. */
      readonly index: number;
      /** The entity as added. */
      readonly entity: T;
      /** The row key as text. */
      readonly rowKey: string;
    }
  | {
      /** `failed`: not written; `unknown`: a non-idempotent mutation cut in flight, which may or may not have been applied. */
      readonly status: 'failed' | 'unknown';
      /** Position of the entity among those the writer accepted, from 0. */
      readonly index: number;
      /** The entity as added. */
      readonly entity: T;
      /** The row key as text. */
      readonly rowKey: string;
      /** The entry's or the call's gRPC status code, when there was one (1 CANCELLED for an abort, 4 for a deadline). */
      readonly grpcCode: number | undefined;
      /** The server's message for the entry, or the message of the error that ended it. */
      readonly message: string;
      /** Why: a typed error (`DriverError`, `DeadlineExceededError`, `OperationAbortedError`, `TableNotFoundError` ...). */
      readonly error: Error;
    };

/**
 * The aggregate inputs {@link BulkWriter.addTo} takes for an entity `T`: per
 * property, the int64 to add (a safe integer `number` or a `bigint`), or for
 * an `hll` column (a `bytes` property) also a sketch to merge; any property
 * name for a writer of several entities.
 * @example
 * ```ts
 * const inputs: AggregateInputs<SiteTraffic> = { views: 3, bytes: 12_288n };
 * ```
 * @inline
 */
export type AggregateInputs<T> = object extends T
  ? Readonly<Record<string, number | bigint | Uint8Array>>
  : { readonly [K in keyof T]?: AggregateInput<T[K]> };

interface Range {
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

const RANGES = {
  batchSize: { min: 1, max: 100_000, fallback: 500 },
  concurrency: { min: 1, max: 64, fallback: 2 },
  batchBytes: { min: 1, max: MAX_REQUEST_BYTES, fallback: DEFAULT_BATCH_BYTES },
  maxOutstandingRows: { min: 1, max: 10_000_000, fallback: 20_000 },
  maxOutstandingBytes: { min: 1, max: 4 * 1024 * 1024 * 1024, fallback: 100 * 1024 * 1024 },
  flushIntervalMs: { min: 0, max: 3_600_000, fallback: 1_000 },
} as const satisfies Record<keyof BulkWriteOptions, Range>;

/** The names of {@link BulkWriteOptions}. @internal */
export const BULK_WRITE_OPTION_NAMES: readonly string[] = Object.keys(RANGES);

/** The default `concurrency` of a `BulkWriter` (its `saveMany` default is 2). @internal */
export const WRITER_CONCURRENCY = 4;

/**
 * Checks bulk write options: an object naming only known options, each an
 * integer in its range. Throws a `ValidationError` naming the entity, the
 * option and the fix; returns every option with its default applied.
 * @internal
 */
export function checkBulkWriteOptions(
  entityName: string,
  options: BulkWriteOptions,
  defaults: Partial<Record<keyof BulkWriteOptions, number>> = {},
): Required<BulkWriteOptions> {
  if (options === null || typeof options !== 'object')
    throw new ValidationError(
      `${entityName}: bulk write options must be an object, got ${String(options)}. Fix: pass e.g. { batchSize: 500, concurrency: 2 }`,
      { entity: entityName, option: 'options' },
    );
  checkOptionNames(`${entityName} bulk write`, options, BULK_WRITE_OPTION_NAMES);
  const checked = {} as Required<BulkWriteOptions>;
  for (const [name, range] of Object.entries(RANGES) as [keyof BulkWriteOptions, Range][]) {
    const value: unknown = options[name];
    const fallback = defaults[name] ?? range.fallback;
    if (value === undefined) {
      checked[name] = fallback;
      continue;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
      throw new ValidationError(
        `${entityName}: ${name} must be an integer from ${range.min} to ${range.max}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}. Fix: pass ${name}: ${fallback} (the default) or another value in that range`,
        { entity: entityName, option: name },
      );
    }
    checked[name] = value;
  }
  return checked;
}

/**
 * What a {@link BulkWriter} needs from its repository: the entity and table,
 * how to compile an entity, and how to send one batch (one MutateRows call
 * with its own deadline, cancelled when the writer's signals abort).
 * @internal
 */
export interface BulkWriterSetup<T> {
  readonly entityName: string;
  readonly table: string;
  readonly compile: (entity: T) => CompiledMutation;
  /** Compiles {@link BulkWriter.addTo}: the aggregate inputs of the row `key` names, after its `changes` (`saveMany`'s writer has none). */
  readonly compileAdd?: (
    key: T,
    inputs: Readonly<Record<string, unknown>>,
    changes: Partial<T> | undefined,
  ) => CompiledMutation;
  /**
   * The driver's `prepareMutation()`: each row is held, from the moment it is
   * compiled until it settles, in the form the driver sends (its request
   * bytes), not as the compiled mutation's objects.
   */
  readonly prepare?: ((mutation: CompiledMutation) => CompiledMutation | PreparedMutation) | undefined;
  readonly send: (mutations: (CompiledMutation | PreparedMutation)[]) => Promise<RowMutationFailure[]>;
  /** The writer stops (refusing adds, failing what it has not sent) when any of them aborts. */
  readonly signals: readonly (AbortSignal | undefined)[];
  readonly options: Required<BulkWriteOptions>;
  /** Checked before each batch is sent and after each settles: an error stops the writer with it (a total deadline that passed). */
  readonly cut?: () => Error | undefined;
  /** Hears each accepted entity failed because the writer stopped before sending it. */
  readonly onUnsent?: (index: number) => void;
  /** Hears each outcome that is not `persisted` (before the Observable does). */
  readonly onFailure?: (outcome: Exclude<WriteOutcome<T>, { readonly status: 'persisted' }>) => void;
  /**
   * A full batch waits for the row that does not fit (or a flush, the timer, a stop) before it
   * is sent, as a reader that reads one row ahead would: `saveMany`'s input is read no further
   * than the batches in flight and one row, and a stop leaves the last batch read unsent.
   */
  readonly holdFullBatches?: boolean;
}

/** One accepted entity until it settles. */
interface Entry<T> {
  readonly index: number;
  readonly entity: T;
  readonly rowKey: string;
  readonly bytes: number;
  /** What it counts against `maxOutstandingBytes` ({@link heldBytes}). */
  readonly held: number;
  readonly cells: number;
  readonly idempotent: boolean;
  /** Dropped once the batch is handed to the driver. */
  mutation: CompiledMutation | PreparedMutation | undefined;
  /** Set once settled; a `persisted` outcome nobody listened for is made only if asked for ({@link outcomeOf}). */
  outcome: WriteOutcome<T> | undefined;
  persisted: boolean;
  listeners: ((outcome: WriteOutcome<T>) => void)[] | undefined;
}

/**
 * A compiled row ready to be accepted: in the form the writer holds it (the
 * driver's prepared form when it has one) and what the writer counts of it.
 * @internal
 */
export interface HeldRow {
  readonly mutation: CompiledMutation | PreparedMutation;
  readonly rowKey: string;
  readonly bytes: number;
  readonly cells: number;
  readonly idempotent: boolean;
}

/** An `add()` waiting for room under the outstanding caps. */
interface Waiter<T> {
  readonly entity: T;
  readonly row: HeldRow;
  readonly resolve: (accepted: AcceptedWrite<T>) => void;
  readonly reject: (error: unknown) => void;
}

/** What `add()` resolves with once the entity is in a batch. */
type AcceptedWrite<T> = Awaited<ReturnType<BulkWriter<T>['add']>>;

/** The single reader of {@link BulkWriter.results}: its buffer of outcomes not yet taken. */
interface ResultsReader<T> {
  readonly buffer: WriteOutcome<T>[];
  wake: (() => void) | undefined;
}

const CANCELLED = 1;
const DEADLINE_EXCEEDED = 4;

/**
 * What an accepted row holds in the heap beyond its request bytes, until it
 * settles: the entity, the writer's own record, and the compiled mutation
 * with its cell objects and the request entry the driver builds (about 2.5
 * KiB per row of 500 request bytes on the bench's ten-cell rows,
 * bench/workloads/bulk-writer.ts), or, when the driver prepares mutations,
 * only their encoded entry: the count stays an upper bound either way.
 */
const ROW_HEAP_BYTES = 768;
const CELL_HEAP_BYTES = 160;

/** The bytes a row counts against `maxOutstandingBytes`: its request bytes plus what its objects hold in the heap. */
function heldBytes(requestBytes: number, cells: number): number {
  return requestBytes + ROW_HEAP_BYTES + CELL_HEAP_BYTES * cells;
}

/**
 * A long-lived bulk writer of one entity (`repo.bulkWriter()`): it batches
 * what it is given by rows, bytes and mutations (and sends a batch that is
 * not full after `flushIntervalMs`), keeps `concurrency` MutateRows calls in
 * flight, and caps what is accepted but not settled at `maxOutstandingRows`
 * and `maxOutstandingBytes`: past either cap, `add()` waits, which is the
 * back-pressure on the producer. Each entity ends `persisted`, `failed` or
 * `unknown` ({@link WriteOutcome}), reported by its own `outcome` promise, on
 * the {@link outcomes} Observable, by the {@link results} async iterable and
 * in {@link totals}.
 *
 * Each batch is one call with the deadline and attempt timeout of the
 * writer's options (default: the mapper's `bulkWrite` timeouts). The
 * writer's `signal`, and `mapper.close()`, stop it: calls in flight are
 * cancelled, what was accepted but not sent fails with the typed abort error,
 * waiting and later `add()` calls reject with it. A dead backend (3 batches
 * in a row failing as a whole with UNAVAILABLE) or a missing table stops it
 * the same way, with that error. `close()` flushes, then refuses new adds
 * with an `OperationAbortedError`.
 *
 * @example
 * ```ts
 * const writer = readings.bulkWriter({ maxOutstandingRows: 10_000 });
 * writer.outcomes.subscribe((o) => o.status !== 'persisted' && console.error(o.rowKey, o.error.message));
 * for await (const message of consumer) await writer.add(toReading(message)); // waits while the caps are full
 * const totals = await writer.close(); // { accepted, persisted, failed, unknown, pending: 0 }
 * ```
 */
export class BulkWriter<T> {
  readonly #setup: BulkWriterSetup<T>;
  readonly #limits: ResolvedBatchLimits;
  readonly #breaker = new DeadBackendBreaker(DEAD_BACKEND_BATCHES);
  readonly #subject = new Subject<WriteOutcome<T>>();
  readonly #waiting: Waiter<T>[] = [];
  readonly #queue: Entry<T>[][] = [];
  readonly #unsettled = new Set<Promise<void>>();
  readonly #roomWaiters: (() => void)[] = [];
  readonly #cleanups: (() => void)[] = [];
  #open: Entry<T>[] = [];
  readonly #fill = { entries: 0, mutations: 0, bytes: 0 };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = 0;
  #outstandingRows = 0;
  #outstandingBytes = 0;
  #accepted = 0;
  #persisted = 0;
  #failed = 0;
  #unknown = 0;
  #closing = false;
  #stopped: { readonly error: BigtableMapperError | Error } | undefined;
  #drained: { promise: Promise<void>; resolve: () => void } | undefined;
  #reader: ResultsReader<T> | undefined;
  #ended = false;

  /** @internal Made by `repo.bulkWriter()`. */
  constructor(setup: BulkWriterSetup<T>) {
    this.#setup = setup;
    const { options } = setup;
    this.#limits = resolveBatchLimits({ maxEntries: options.batchSize, maxBytes: options.batchBytes });
    for (const signal of setup.signals) {
      if (signal === undefined) continue;
      if (signal.aborted) {
        this.#stop(abortError(signal, this.#name));
        break;
      }
      const onAbort = (): void => this.#stop(abortError(signal, this.#name));
      signal.addEventListener('abort', onAbort, { once: true });
      this.#cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
  }

  get #name(): string {
    return `${this.#setup.entityName}.bulkWriter`;
  }

  /**
   * Every outcome as it settles, to every subscriber at that moment (a hot
   * Observable: nothing is kept for a later subscriber, so an unsubscribed
   * stream holds no memory). Completes once the writer is closed or stopped
   * and every accepted entity has settled.
   * @example
   * ```ts
   * writer.outcomes.pipe(filter((o) => o.status === 'failed')).subscribe((o) => log.error(o.error));
   * ```
   */
  get outcomes(): Observable<WriteOutcome<T>> {
    return this.#subject.asObservable();
  }

  /**
   * Counts so far: entities accepted, persisted, failed, unknown, and pending
   * (accepted, not yet settled).
   * @example
   * ```ts
   * const { persisted, failed, unknown, pending } = writer.totals;
   * ```
   */
  get totals(): {
    /** Entities accepted (those `add()` resolved for). */
    readonly accepted: number;
    /** Confirmed written by the server. */
    readonly persisted: number;
    /** Not written: rejected by the server, or never sent because the writer stopped. */
    readonly failed: number;
    /** Non-idempotent mutations cut in flight: may or may not have been applied. */
    readonly unknown: number;
    /** Accepted and not yet settled. */
    readonly pending: number;
  } {
    const settled = this.#persisted + this.#failed + this.#unknown;
    return {
      accepted: this.#accepted,
      persisted: this.#persisted,
      failed: this.#failed,
      unknown: this.#unknown,
      pending: this.#accepted - settled,
    };
  }

  /** The error that stopped the writer (abort, deadline, dead backend, missing table), if one did. @internal */
  get stoppedBy(): Error | undefined {
    return this.#stopped?.error;
  }

  /** True once `close()` was called or the writer stopped (abort, `mapper.close()`, dead backend, missing table). */
  get closed(): boolean {
    return this.#closing || this.#stopped !== undefined;
  }

  /**
   * Adds an entity: compiles it (a `ValidationError` or encoding error
   * rejects at once, and nothing is accepted) and resolves once it is in a
   * batch. While the outstanding rows or bytes are at their cap it waits,
   * in call order, and the batch being filled is sent so room frees up. The
   * resolved value's `outcome` settles when the entity is persisted, failed
   * or unknown. Rejects with `OperationAbortedError` after `close()`, and
   * with the stopping error once the writer stopped.
   * @example
   * ```ts
   * const { outcome } = await writer.add(reading);
   * const o = await outcome; // { status: 'persisted', ... }
   * ```
   */
  add(entity: T): Promise<{
    /** Position of the entity among those the writer accepted, from 0. */
    readonly index: number;
    /** The row key as text. */
    readonly rowKey: string;
    /** Settles once the entity is persisted, failed or unknown; never rejects. */
    readonly outcome: Promise<WriteOutcome<T>>;
  }> {
    return this.#take(entity, () => this.#setup.compile(entity));
  }

  /**
   * Adds to the aggregate columns (`@Family(name, { aggregate })`) of the row
   * `key` names, in the writer's batches: each int64 input as `AddToCell`, an
   * `hll` sketch as `MergeToCell`, after the sets and deletes of `changes` to
   * its plain columns, in one atomic row write, as `repo.add()` compiles it.
   * Resolves, like {@link add}, once the row is accepted into a batch. Such a
   * write is not idempotent, so it is never sent twice: cut in flight (a reset
   * connection, the deadline, a stop) its outcome is `unknown`, since Bigtable
   * may or may not have applied it. The outcome's `entity` is `key` as given.
   * A writer of several entities (`mapper.bulkWriter()`) takes the key as an
   * instance of the entity's class.
   * @example
   * ```ts
   * const counters = traffic.bulkWriter();
   * await counters.addTo({ site: 'a.example', day: '2026-11-27' }, { views: 3, bytes: 12_288 });
   * await counters.addTo({ site: 'b.example', day: '2026-11-27' }, { views: 1 }, { changes: { lastPath: '/' } });
   * console.log(await counters.close()); // { accepted: 2, persisted: 2, failed: 0, unknown: 0, pending: 0 }
   * ```
   */
  addTo(
    key: T,
    inputs: AggregateInputs<T>,
    options?: { readonly changes?: Partial<T> },
  ): Promise<{
    /** Position of the row among those the writer accepted, from 0. */
    readonly index: number;
    /** The row key as text. */
    readonly rowKey: string;
    /** Settles once the row is persisted, failed or unknown; never rejects. */
    readonly outcome: Promise<WriteOutcome<T>>;
  }> {
    return this.#take(key, () => {
      checkOptionNames(`${this.#name}.addTo`, options, ['changes']);
      const { compileAdd } = this.#setup;
      if (compileAdd === undefined)
        throw new ValidationError(`${this.#name}.addTo: this writer takes entities only. Fix: use repo.bulkWriter()`, {
          entity: this.#setup.entityName,
        });
      return compileAdd(key, inputs as Readonly<Record<string, unknown>>, options?.changes);
    });
  }

  /** Compiles a row (`compile` throws what the call rejects with), then accepts it or waits for room. */
  #take(entity: T, compile: () => CompiledMutation): Promise<AcceptedWrite<T>> {
    let offered: ReturnType<BulkWriter<T>['offer']>;
    try {
      const refused = this.#refusal();
      if (refused !== undefined) throw refused;
      offered = this.#offerCompiled(entity, compile());
    } catch (err) {
      return Promise.reject(err);
    }
    if (offered.accepted !== undefined) return Promise.resolve(offered.accepted);
    return this.enqueue(entity, offered.row);
  }

  /**
   * Waits for room for an entity {@link offer} compiled but could not accept.
   * @internal
   */
  enqueue(entity: T, row: HeldRow): Promise<AcceptedWrite<T>> {
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(refused);
    return new Promise<AcceptedWrite<T>>((resolve, reject) => {
      this.#waiting.push({ entity, row, resolve, reject });
      this.#unblock();
    });
  }

  /**
   * `add()` without a promise when there is room: accepts the entity at once
   * (`accepted`), or compiles it and says it must wait (then hand it
   * to {@link enqueue}). Throws what `add()` rejects with.
   * @internal
   */
  offer(
    entity: T,
  ):
    | { readonly accepted: AcceptedWrite<T>; readonly row?: undefined }
    | { readonly accepted: undefined; readonly row: HeldRow } {
    const refused = this.#refusal();
    if (refused !== undefined) throw refused;
    return this.#offerCompiled(entity, this.#setup.compile(entity));
  }

  #offerCompiled(
    entity: T,
    mutation: CompiledMutation,
  ):
    | { readonly accepted: AcceptedWrite<T>; readonly row?: undefined }
    | { readonly accepted: undefined; readonly row: HeldRow } {
    const bytes = rowMutationBytes(mutation.rowKey, mutation.mutations);
    const cells = mutation.mutations.length;
    // Prepared before it is accepted: what the driver throws rejects the add, and a waiting row holds its bytes too.
    const held = this.#setup.prepare?.(mutation) ?? mutation;
    if (this.#waiting.length === 0 && this.#fits(heldBytes(bytes, cells)))
      return { accepted: this.#accept(entity, held, mutation.rowKeyText, bytes, cells, mutation.idempotent) };
    return {
      accepted: undefined,
      row: { mutation: held, rowKey: mutation.rowKeyText, bytes, cells, idempotent: mutation.idempotent },
    };
  }

  /**
   * `undefined` while another row fits under `maxOutstandingRows`; else a
   * promise that resolves once one does or the writer stopped (a reader can
   * then read its next entity without holding more than the cap).
   * @internal
   */
  room(): Promise<void> | undefined {
    if (this.#stopped !== undefined || this.#outstandingRows < this.#setup.options.maxOutstandingRows) return undefined;
    return new Promise<void>((resolve) => {
      this.#roomWaiters.push(resolve);
      this.#unblock();
    });
  }

  /**
   * Sends the batch being filled and resolves once every entity accepted
   * before the call has settled (an `add()` still waiting for room is not
   * accepted yet). Never rejects: failures are outcomes.
   * @example
   * ```ts
   * await writer.flush();
   * ```
   */
  async flush(): Promise<void> {
    this.#sendOpen();
    await Promise.all([...this.#unsettled]);
  }

  /**
   * Refuses new adds (`OperationAbortedError`), lets the adds already waiting
   * in, sends everything, waits for every outcome, ends {@link outcomes} and
   * {@link results}, and resolves the final {@link totals}. Idempotent.
   * Never rejects: a stopped writer resolves its totals too.
   * @example
   * ```ts
   * process.once('SIGTERM', () => void writer.close().then((t) => console.log(t)));
   * ```
   */
  async close(): Promise<{
    /** Entities accepted (those `add()` resolved for). */
    readonly accepted: number;
    /** Confirmed written by the server. */
    readonly persisted: number;
    /** Not written: rejected by the server, or never sent because the writer stopped. */
    readonly failed: number;
    /** Non-idempotent mutations cut in flight: may or may not have been applied. */
    readonly unknown: number;
    /** Accepted and not yet settled. */
    readonly pending: number;
  }> {
    this.#closing = true;
    this.#drained ??= withResolvers();
    this.#sendOpen();
    this.#checkDrained();
    await this.#drained.promise;
    return this.totals;
  }

  /**
   * The outcomes as an async iterable, for one reader at a time (a second
   * one while the first is open throws a `ValidationError`). It holds the
   * outcomes settled since it was opened and not yet taken, and each of them
   * counts against `maxOutstandingRows` until taken: a reader that lags holds
   * `add()` back rather than letting memory grow. Ends after `close()` (or
   * the writer stopping) once every outcome was taken; leaving the loop
   * early releases what it held.
   * @example
   * ```ts
   * for await (const o of writer.results()) if (o.status !== 'persisted') retryLater(o.entity);
   * ```
   */
  results(): AsyncIterableIterator<WriteOutcome<T>> {
    if (this.#reader !== undefined)
      throw new ValidationError(
        `${this.#name}: results() already has a reader. Fix: read the outcomes in one loop, or subscribe to writer.outcomes (any number of subscribers)`,
        { entity: this.#setup.entityName },
      );
    const reader: ResultsReader<T> = { buffer: [], wake: undefined };
    this.#reader = reader;
    const release = (): void => {
      if (this.#reader !== reader) return;
      this.#reader = undefined;
      this.#outstandingRows -= reader.buffer.length;
      reader.buffer.length = 0;
      this.#admit();
    };
    const iterator: AsyncIterableIterator<WriteOutcome<T>> = {
      next: async () => {
        for (;;) {
          if (this.#reader !== reader) return { done: true, value: undefined };
          const outcome = reader.buffer.shift();
          if (outcome !== undefined) {
            this.#outstandingRows -= 1;
            this.#admit();
            return { done: false, value: outcome };
          }
          if (this.#ended) {
            release();
            return { done: true, value: undefined };
          }
          await new Promise<void>((resolve) => (reader.wake = resolve));
          reader.wake = undefined;
        }
      },
      return: () => {
        release();
        reader.wake?.();
        return Promise.resolve({ done: true, value: undefined });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  #refusal(): Error | undefined {
    if (this.#stopped !== undefined) return this.#stopped.error;
    if (this.#closing)
      return new OperationAbortedError(
        this.#name,
        'the writer was closed, so it takes no more entities. Fix: add before close(), or make a new writer with repo.bulkWriter()',
      );
    return undefined;
  }

  /** Whether a row holding `held` bytes fits under the caps now; a row over the byte cap goes alone. */
  #fits(held: number): boolean {
    const { maxOutstandingRows, maxOutstandingBytes } = this.#setup.options;
    if (this.#outstandingRows + 1 > maxOutstandingRows) return false;
    return this.#outstandingRows === 0 || this.#outstandingBytes + held <= maxOutstandingBytes;
  }

  #accept(
    entity: T,
    mutation: CompiledMutation | PreparedMutation,
    rowKey: string,
    bytes: number,
    cells: number,
    idempotent: boolean,
  ): AcceptedWrite<T> {
    const entry: Entry<T> = {
      index: this.#accepted++,
      entity,
      rowKey,
      bytes,
      held: heldBytes(bytes, cells),
      cells,
      idempotent,
      mutation,
      outcome: undefined,
      persisted: false,
      listeners: undefined,
    };
    this.#outstandingRows += 1;
    this.#outstandingBytes += entry.held;
    const fill = this.#fill;
    if (closesBatch(fill, entry.cells, bytes, this.#limits)) this.#sendOpen();
    this.#open.push(entry);
    fill.entries += 1;
    fill.mutations += entry.cells;
    fill.bytes += bytes;
    if (fill.entries >= this.#limits.maxEntries && this.#setup.holdFullBatches !== true) this.#sendOpen();
    else if (fill.entries === 1) this.#startTimer();
    return new AcceptedHandle(entry);
  }

  #startTimer(): void {
    const interval = this.#setup.options.flushIntervalMs;
    if (interval === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sendOpen();
    }, interval);
    this.#timer.unref?.();
  }

  /** Closes the batch being filled (if it holds a row) and queues it to be sent. */
  #sendOpen(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#open.length === 0) return;
    const batch = this.#open;
    this.#open = [];
    this.#fill.entries = this.#fill.mutations = this.#fill.bytes = 0;
    if (this.#stopped !== undefined) {
      this.#failUnsent(batch, this.#stopped.error);
      return;
    }
    this.#queue.push(batch);
    this.#pump();
  }

  #pump(): void {
    this.#checkCut();
    while (this.#inFlight < this.#setup.options.concurrency && this.#queue.length > 0) {
      const batch = this.#queue.shift() as Entry<T>[];
      this.#inFlight += 1;
      const sent = this.#send(batch).finally(() => {
        this.#unsettled.delete(sent);
        this.#inFlight -= 1;
        this.#pump();
        this.#unblock();
        this.#checkDrained();
      });
      this.#unsettled.add(sent);
    }
  }

  async #send(batch: Entry<T>[]): Promise<void> {
    const mutations = batch.map((entry) => entry.mutation as CompiledMutation | PreparedMutation);
    for (const entry of batch) entry.mutation = undefined;
    let failures: RowMutationFailure[];
    try {
      failures = await this.#setup.send(mutations);
    } catch (err) {
      this.#batchFailed(batch, err);
      return;
    }
    this.#breaker.answered();
    let next = 0;
    for (const [i, entry] of batch.entries()) {
      const failure = failures[next];
      if (failure === undefined || failure.index !== i) {
        this.#settlePersisted(entry);
        continue;
      }
      next += 1;
      // No status from the server (the call failed or was cut with this entry in flight): it may have landed.
      const inFlight = failure.cause !== undefined || failure.grpcCode === undefined;
      this.#settle(entry, {
        status: inFlight && !entry.idempotent ? 'unknown' : 'failed',
        index: entry.index,
        entity: entry.entity,
        rowKey: entry.rowKey,
        grpcCode: failure.grpcCode,
        message: failure.message,
        error: this.#entryError(entry, failure),
      });
    }
    this.#admit();
  }

  #entryError(entry: Entry<T>, failure: RowMutationFailure): Error {
    if (failure.cause instanceof BigtableMapperError) return failure.cause;
    const cause = Object.assign(new Error(failure.message), { code: failure.grpcCode });
    return new DriverError(
      `${this.#setup.entityName}: mutateRows "${this.#setup.table}" row ${JSON.stringify(entry.rowKey)}`,
      cause,
      failure.grpcCode,
    );
  }

  /** The whole call failed: a missing table or a dead backend stops the writer first; then the batch's entries settle with the error. */
  #batchFailed(batch: Entry<T>[], err: unknown): void {
    const error = err instanceof Error ? err : new Error(String(err));
    const grpcCode = codeOf(error);
    if (error instanceof TableNotFoundError) this.#stop(error);
    else if (!(error instanceof DeadlineExceededError) && !(error instanceof OperationAbortedError)) {
      this.#breaker.failed(error);
      if (this.#breaker.open) this.#stop(this.#breaker.cause as Error);
    }
    // A DriverError means attempts were sent; a typed deadline or abort before the first attempt means none was.
    const sent = error instanceof DriverError && !(error instanceof TableNotFoundError);
    for (const entry of batch)
      this.#settle(entry, {
        status: sent && !entry.idempotent ? 'unknown' : 'failed',
        index: entry.index,
        entity: entry.entity,
        rowKey: entry.rowKey,
        grpcCode,
        message: error.message,
        error,
      });
    this.#admit();
  }

  /** A persisted entry: counted and released; its outcome object is made only when someone listens. */
  #settlePersisted(entry: Entry<T>): void {
    if (entry.listeners === undefined && this.#reader === undefined && !this.#subject.observed) {
      entry.persisted = true;
      this.#persisted += 1;
      this.#outstandingBytes -= entry.held;
      this.#outstandingRows -= 1;
      return;
    }
    this.#settle(entry, { status: 'persisted', index: entry.index, entity: entry.entity, rowKey: entry.rowKey });
  }

  #settle(entry: Entry<T>, outcome: WriteOutcome<T>): void {
    entry.outcome = outcome;
    if (outcome.status === 'persisted') this.#persisted += 1;
    else {
      if (outcome.status === 'failed') this.#failed += 1;
      else this.#unknown += 1;
      this.#setup.onFailure?.(outcome);
    }
    this.#outstandingBytes -= entry.held;
    const reader = this.#reader;
    if (reader === undefined) this.#outstandingRows -= 1;
    else {
      // Taken from the buffer by the reader: the row stays outstanding until then.
      reader.buffer.push(outcome);
      reader.wake?.();
    }
    const listeners = entry.listeners;
    entry.listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(outcome);
    this.#subject.next(outcome);
  }

  /** Stops the writer when its `cut` says so (a total deadline that passed before its signal fired). */
  #checkCut(): void {
    if (this.#stopped !== undefined) return;
    const error = this.#setup.cut?.();
    if (error !== undefined) this.#stop(error);
  }

  /** Lets waiting adds in, in call order, while they fit. */
  #admit(): void {
    this.#checkCut();
    while (this.#waiting.length > 0 && this.#stopped === undefined) {
      const head = this.#waiting[0] as Waiter<T>;
      const { row } = head;
      if (!this.#fits(heldBytes(row.bytes, row.cells))) break;
      this.#waiting.shift();
      head.resolve(this.#accept(head.entity, row.mutation, row.rowKey, row.bytes, row.cells, row.idempotent));
    }
    if (this.#waiting.length === 0 && this.#roomWaiters.length > 0)
      if (this.#stopped !== undefined || this.#outstandingRows < this.#setup.options.maxOutstandingRows)
        for (const resolve of this.#roomWaiters.splice(0)) resolve();
    if (this.#closing && this.#waiting.length === 0) this.#sendOpen();
    else this.#unblock();
    this.#checkDrained();
  }

  /**
   * With adds waiting and no call in flight or queued, only the batch being
   * filled holds the room they wait for: send it, or the wait never ends.
   * (With calls in flight, their settling frees room, and batches stay full.)
   */
  #unblock(): void {
    if ((this.#waiting.length > 0 || this.#roomWaiters.length > 0) && this.#inFlight === 0 && this.#queue.length === 0)
      this.#sendOpen();
  }

  /** Stops for good with `error`: what was not sent fails with it, waiting adds reject with it. */
  #stop(error: Error): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = { error };
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
    for (const resolve of this.#roomWaiters.splice(0)) resolve();
    const unsent = [this.#open, ...this.#queue.splice(0)];
    this.#open = [];
    this.#fill.entries = this.#fill.mutations = this.#fill.bytes = 0;
    for (const batch of unsent) this.#failUnsent(batch, error);
    this.#drained ??= withResolvers();
    this.#checkDrained();
  }

  #failUnsent(batch: Entry<T>[], error: Error): void {
    const grpcCode = codeOf(error);
    for (const entry of batch) {
      entry.mutation = undefined;
      this.#setup.onUnsent?.(entry.index);
      this.#settle(entry, {
        status: 'failed',
        index: entry.index,
        entity: entry.entity,
        rowKey: entry.rowKey,
        grpcCode,
        message: error.message,
        error,
      });
    }
  }

  /** Once closing or stopped with nothing left to send or settle: ends the streams and resolves `close()`. */
  #checkDrained(): void {
    const drained = this.#drained;
    if (drained === undefined || this.#ended) return;
    if (this.#waiting.length > 0 || this.#open.length > 0 || this.#queue.length > 0 || this.#inFlight > 0) return;
    this.#ended = true;
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#subject.complete();
    this.#reader?.wake?.();
    drained.resolve();
  }
}

/** The gRPC code an error stands for: its own, 4 for a deadline, 1 for an abort. */
function codeOf(error: Error): number | undefined {
  if (error instanceof DriverError) return error.grpcCode;
  if (error instanceof DeadlineExceededError) return DEADLINE_EXCEEDED;
  if (error instanceof OperationAbortedError) return CANCELLED;
  return extractGrpcCode(error);
}

/**
 * The handle `add()` resolves with: the entry's index and key, and its
 * `outcome` promise, made only when asked for (a writer of a million rows
 * whose outcomes nobody awaits makes none).
 */
class AcceptedHandle<T> {
  readonly index: number;
  readonly rowKey: string;
  readonly #entry: Entry<T>;
  #promise: Promise<WriteOutcome<T>> | undefined;

  constructor(entry: Entry<T>) {
    this.index = entry.index;
    this.rowKey = entry.rowKey;
    this.#entry = entry;
  }

  get outcome(): Promise<WriteOutcome<T>> {
    const entry = this.#entry;
    if (entry.persisted && entry.outcome === undefined)
      entry.outcome = { status: 'persisted', index: entry.index, entity: entry.entity, rowKey: entry.rowKey };
    this.#promise ??=
      entry.outcome === undefined
        ? new Promise<WriteOutcome<T>>((resolve) => (entry.listeners ??= []).push(resolve))
        : Promise.resolve(entry.outcome);
    return this.#promise;
  }
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * An Observable of entities that `writer.add()`s each one (in order, waiting
 * for room: the source is not unsubscribed from, so a hot source should
 * buffer or drop before it) and emits every outcome as it settles; it
 * completes once the source completed and the writer flushed every outcome.
 * An entity that fails to compile is a `failed` outcome with index -1.
 * @internal
 */
export function writeThrough<T>(writer: BulkWriter<T>, source: Observable<T>): Observable<WriteOutcome<T>> {
  return new Observable<WriteOutcome<T>>((subscriber) => {
    let chain: Promise<unknown> = Promise.resolve();
    let pending = 0;
    let sourceDone = false;
    const finish = (): void => {
      if (sourceDone && pending === 0) subscriber.complete();
    };
    const emit = (outcome: WriteOutcome<T>): void => {
      pending -= 1;
      subscriber.next(outcome);
      finish();
    };
    const subscription = source.subscribe({
      next: (entity) => {
        pending += 1;
        chain = chain.then(async () => {
          if (subscriber.closed) return;
          try {
            const handle = await writer.add(entity);
            void handle.outcome.then(emit);
          } catch (err) {
            const error = err instanceof Error ? err : new Error(String(err));
            emit({
              status: 'failed',
              index: -1,
              entity,
              rowKey: '',
              grpcCode: codeOf(error),
              message: error.message,
              error,
            });
          }
        });
      },
      error: (err: unknown) => subscriber.error(err),
      complete: () => {
        chain = chain.then(async () => {
          await writer.flush();
          sourceDone = true;
          finish();
        });
      },
    });
    return () => subscription.unsubscribe();
  });
}
