import { Observable, type OperatorFunction } from 'rxjs';
import type { BigtableDriver, CallOptions } from '../model/driver.js';
import { EntityNotFoundError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { compileCondition, type SaveCondition } from '../mutation/compile-condition.js';
import { compileSave } from '../mutation/compile-save.js';
import { compileDelete, compileUpdate } from '../mutation/compile-update.js';
import { checkChanges, checkKeyValues, checkValues } from '../mutation/validate-values.js';
import type { AggregateInput, CompiledMutation } from '../model/mutation.js';
import { encodeRowKey } from '../key/physical-key.js';
import { previousLayout } from '../key/previous-layout.js';
import { moveFromPreviousLayout, movedFirst } from '../write/move-row.js';
import { planScan } from '../scan/plan-scan.js';
import { READ_OPTION_NAMES, type ReadOptions, type Selected } from '../read/read-options.js';
import { PlannedScan, type ScanPlan } from '../scan/scan-plan.js';
import type { KeyWhere, ScanQuery } from '../scan/scan-query.js';
import { batchesToObservable } from '../stream/observable.js';
import { eachItem } from '../stream/async-iterable.js';
import type { EntityData } from '../model/declarations.js';
import { createEntity } from './create-entity.js';
import { findByKeys } from './find.js';
import { incrementColumn } from './increment.js';
import { compileAggregateAdd, sendNotIdempotent, type AddOptions } from './add.js';
import { compileAdd } from '../mutation/compile-add.js';
import { checkBulkInput, writeMany, type BulkWriteOptions, type BulkWriteResult } from './save-many.js';
import {
  BULK_WRITE_OPTION_NAMES,
  BulkWriter,
  checkBulkWriteOptions,
  WRITER_CONCURRENCY,
  writeThrough,
  type WriteOutcome,
} from '../write/bulk-writer.js';
import { ValidationError } from '../errors/errors.js';
import {
  openScan,
  planShardsOf,
  readPage,
  PLAN_SHARDS_OPTION_NAMES,
  SCAN_CALL_OPTION_NAMES,
  type Page,
} from '../scan/scan-ops.js';
import type { PlanShardsOptions, ScanShard } from '../scan/shards.js';
import { checkOptionNames } from '../util/option-names.js';
import type { OperationKind } from '../model/timeouts.js';
import type {
  CounterProperty,
  EntityChanges,
  EntityInput,
  EntityKey,
  EntityProperty,
} from '../metadata/compile-key-plan.js';
import { compileEntity } from '../metadata/compile-entity.js';
import { planPropagation, type PropagationPlan } from '../denormalize/plan-propagation.js';
import {
  PROPAGATE_OPTION_NAMES,
  propagateCopies,
  type PropagateOptions,
  type PropagationProgress,
} from '../denormalize/propagate.js';
import type { SourceReader, SourceResolver } from '../denormalize/fill-copies.js';
import { bulkWithCopies, withCopies, type FilledCopy } from '../denormalize/fill-copies.js';
import { settleCopies } from '../denormalize/settle-copies.js';
import { PartialWriteError } from '../errors/operation-errors.js';
import { DEFAULT_TIMEOUTS } from '../model/timeouts.js';
import {
  checkOperationOptions,
  OPERATION_OPTION_NAMES,
  runOperation,
  splitOperationOptions,
  type OperationContext,
  type OperationOptions,
} from '../operation/operation.js';

/**
 * What `increment` resolves with for a counter property of type `V`: a
 * `bigint` counter gives a `bigint`; an `int` counter a `number`, or the exact
 * `bigint` once it leaves the safe-integer range.
 *
 * @example
 * ```ts
 * const total: CounterValue<bigint> = await repo.increment(key, 'totalBytes'); // bigint
 * ```
 * @inline
 */
export type CounterValue<V> = [NonNullable<V>] extends [bigint] ? bigint : number | bigint;

/**
 * Typed access to one entity's rows: writes compile to atomic row mutations,
 * reads fetch only what is selected, scans stream over every salt bucket in
 * parallel and merge back in key order. Get one from `mapper.getRepository()`.
 *
 * @example
 * ```ts
 * const readings = mapper.getRepository(Reading);
 * await readings.save(readings.create({ sensorId: 's1', ts: new Date(), temperature: 21.5 }));
 * for await (const r of readings.iterate({ where: { sensorId: 's1' }, limit: 10 })) console.log(r);
 * ```
 */
export class Repository<T extends object> {
  /** The compiled schema of the entity. */
  readonly schema: EntitySchema<T>;
  readonly #driver: BigtableDriver;
  readonly #sources: SourceResolver;
  readonly #context: OperationContext;

  /**
   * @internal `sources` reads the sources of `@Denormalized` copies (default: a repository on the same driver);
   * `context` gives the mapper's timeouts and its closing signal (default: the default timeouts, never closed).
   */
  constructor(
    driver: BigtableDriver,
    schema: EntitySchema<T>,
    sources?: SourceResolver,
    context: OperationContext = standaloneContext,
  ) {
    this.#driver = driver;
    this.schema = schema;
    this.#context = context;
    this.#sources =
      sources ??
      ((source) =>
        new Repository(driver, compileEntity(source) as EntitySchema<object>, undefined, context) as SourceReader);
  }

  /** Runs one call of `kind` after checking that `options` names only `accepted` options. */
  #run<R>(
    kind: OperationKind,
    operation: string,
    options: object | undefined,
    accepted: readonly string[],
    run: (call: CallOptions) => Promise<R>,
  ): Promise<R> {
    const name = `${this.schema.name}.${operation}`;
    try {
      checkOptionNames(name, options, accepted);
    } catch (err) {
      return Promise.reject(err);
    }
    return runOperation(this.#context, kind, name, options, run);
  }

  /**
   * While re-salting (`@Salt` `previous`), moves the row from its previous key first (`moveRow`), so every
   * write (`save`, `update`, `replace`, `increment`, `saveIf`) applies to the whole row, as it would before
   * or after the migration, and the re-salt cannot bring back what it cleared.
   */
  async #moveFirst(key: Record<string, unknown>, call: CallOptions): Promise<void> {
    await moveFromPreviousLayout(this.#driver, this.schema, [key], call);
  }

  #write(
    operation: string,
    options: OperationOptions | undefined,
    mutation: (call: CallOptions) => Promise<CompiledMutation>,
  ): Promise<void> {
    return this.#run('write', operation, options, OPERATION_OPTION_NAMES, async (call) =>
      this.#driver.mutateRow(await mutation(call), call),
    );
  }

  /**
   * A new instance of the entity class (`instanceof` holds, methods work) with
   * `props` assigned over what its constructor set. Only the props object's
   * own enumerable properties are copied; a `__proto__` key, a key that is
   * neither a mapped property nor a field the constructor sets (the error
   * suggests the closest property), a getter without a setter, and values
   * their `validate` validators refuse are `ValidationError`s, so request
   * input is safe to pass. Nothing is sent. The write methods also accept a
   * plain object with the entity's data properties; `create` gives a typed
   * instance.
   * @example
   * ```ts
   * const reading = readings.create({ sensorId: 's1', ts: new Date(), temperature: 21.5 });
   * reading instanceof Reading; // true
   * await readings.save(reading);
   * ```
   */
  create(props: EntityData<T>): T {
    return createEntity(this.schema, props);
  }

  /**
   * The exact mutation `save()` would send, without sending it: the table as sent (with the mapper's
   * `tablePrefix`), cell timestamps from `now` (milliseconds; default the mapper's `clock`). Copies are
   * shown as given: `save()` fills the `undefined` ones from their sources first. The `validate`
   * validators run first, as in `save()`: their issues are one `ValidationError`.
   * @example
   * ```ts
   * repo.compileSave(reading).rowKeyText
   * ```
   */
  compileSave(entity: EntityInput<T>, options: { now?: number } = {}): CompiledMutation {
    checkOptionNames(`${this.schema.name}.compileSave`, options, ['now']);
    const mutation = compileSave(this.schema, entityOf(entity), { now: this.#context.clock(), ...options });
    const { tablePrefix } = this.#context;
    return tablePrefix === '' ? mutation : Object.freeze({ ...mutation, table: tablePrefix + mutation.table });
  }

  /**
   * Writes every defined column in one atomic MutateRow with explicit timestamps; fills `undefined` `@Denormalized` copies from their sources first.
   * Resolves only once the server confirmed the write; retried on transient errors within the `write` deadline (default 60 s).
   * @example
   * ```ts
   * await repo.save(reading, { timeoutMs: 5_000 });
   * ```
   */
  save(entity: EntityInput<T>, options?: OperationOptions): Promise<void> {
    return this.#run('write', 'save', options, OPERATION_OPTION_NAMES, (call) =>
      this.#saveWithCopies(entity, 'save', call),
    );
  }

  /**
   * `save` and `replace`: moves the row first while re-salting, fills the copies, writes, and once the server
   * confirmed the write, settles the filled copies against their sources (`settleCopies`).
   */
  async #saveWithCopies(entity: EntityInput<T>, mode: 'save' | 'replace', call: CallOptions): Promise<void> {
    checkValues(this.schema, entity);
    await this.#moveFirst(entity as Record<string, unknown>, call);
    const filled = await withCopies(this.schema, entityOf(entity), this.#sources);
    const mutation = compileSave(this.schema, filled.entity, { mode, now: this.#context.clock(), checked: true });
    await this.#driver.mutateRow(mutation, call);
    await this.#settle(mutation.rowKey, filled.fills, call);
  }

  #settle(rowKey: Buffer, fills: readonly FilledCopy[], call: CallOptions): Promise<void> {
    if (fills.length === 0) return Promise.resolve();
    return settleCopies(this.#driver, this.schema, rowKey, fills, this.#sources, call, this.#context.clock);
  }

  /**
   * Deletes the row's other cells and writes the entity (copies filled as in `save`), atomically.
   * @example
   * ```ts
   * await repo.replace(reading);
   * ```
   */
  replace(entity: EntityInput<T>, options?: OperationOptions): Promise<void> {
    return this.#run('write', 'replace', options, OPERATION_OPTION_NAMES, (call) =>
      this.#saveWithCopies(entity, 'replace', call),
    );
  }

  /**
   * Writes only the given columns; `null` deletes a cell.
   * @example
   * ```ts
   * await repo.update({ id: 'j1' }, { status: 'done', error: null });
   * ```
   */
  update(key: EntityKey<T>, partial: EntityChanges<T>, options?: OperationOptions): Promise<void> {
    return this.#write('update', options, async (call) => {
      checkChanges(this.schema, key, partial);
      await this.#moveFirst(key as Record<string, unknown>, call);
      return compileUpdate(this.schema, key as Record<string, unknown>, partial as Partial<T>, {
        now: this.#context.clock(),
        checked: true,
      });
    });
  }

  /**
   * Deletes the row.
   * @example
   * ```ts
   * await repo.delete({ sensorId: 's1', ts });
   * ```
   */
  async delete(key: EntityKey<T>, options?: OperationOptions): Promise<void> {
    const now = this.#context.clock();
    await this.#write('delete', options, async () =>
      compileDelete(this.schema, key as Record<string, unknown>, { now }),
    );
    // While re-salting, the new row is now a tombstone that no move can fill again; the old row, if any, goes too.
    const previous = previousLayout(this.schema);
    if (previous !== undefined)
      await this.#write('delete', options, async () =>
        compileDelete({ ...this.schema, key: previous.key }, key as Record<string, unknown>, { now }),
      );
  }

  /**
   * Deletes many rows in bulk (see `saveMany` for batching, deadlines and the failure report).
   * @example
   * ```ts
   * await repo.deleteMany(keys, { timeoutMs: 120_000 });
   * ```
   */
  deleteMany(
    keys: Iterable<EntityKey<T>> | AsyncIterable<EntityKey<T>>,
    options?: BulkWriteOptions & OperationOptions,
  ): Promise<BulkWriteResult> {
    // While re-salting, each new row becomes a tombstone that hides the old row until the re-salt removes it.
    return this.#bulk(
      'deleteMany',
      () => keys,
      (k) => compileDelete(this.schema, k as Record<string, unknown>, { now: this.#context.clock() }),
      options,
    );
  }

  #bulk<I>(
    operation: string,
    input: (call: CallOptions) => Iterable<I> | AsyncIterable<I>,
    compile: (item: I) => CompiledMutation,
    options: (BulkWriteOptions & OperationOptions) | undefined,
    settle?: (call: CallOptions) => Promise<void>,
  ): Promise<BulkWriteResult> {
    const name = `${this.schema.name}.${operation}`;
    try {
      checkOptionNames(name, options, BULK_CALL_OPTION_NAMES);
    } catch (err) {
      return Promise.reject(err);
    }
    const [timing, bulk] = splitOperationOptions(options);
    return runOperation(
      this.#context,
      'bulkWrite',
      name,
      timing,
      async (call) => {
        if (settle === undefined)
          return writeMany(this.#driver, this.schema.name, this.schema.table, input(call), compile, bulk, call);
        let written: BulkWriteResult;
        try {
          written = await writeMany(
            this.#driver,
            this.schema.name,
            this.schema.table,
            input(call),
            compile,
            bulk,
            call,
          );
        } catch (err) {
          // Rows persisted before a failure are settled too, unless the call was cut short. The caller gets the
          // write's own error either way: it lists what to write again, and writing it again settles it.
          if (err instanceof PartialWriteError && err.cause === undefined) await settle(call).catch(() => undefined);
          throw err;
        }
        await settle(call);
        return written;
      },
      { settleFirst: true },
    );
  }

  /**
   * A long-lived bulk writer for this entity (docs/bulk-writes.md): `add()`
   * waits while `maxOutstandingRows` (default 20,000) or `maxOutstandingBytes`
   * (default 100 MiB) are taken, batches close at `batchSize` (500),
   * `batchBytes` (20 MiB) or 100,000 mutations, or `flushIntervalMs` (1 s)
   * after their first row, and `concurrency` (4) calls are in flight. Each
   * batch is one MutateRows call with `timeoutMs` and `attemptTimeoutMs`
   * (default: the mapper's `bulkWrite` timeouts); `signal` and
   * `mapper.close()` stop the writer. Throws a `ValidationError` for a bad
   * option, and for an entity with `@Denormalized` copies or being re-salted
   * (use `saveMany`, which reads the sources and moves rows first).
   * @example
   * ```ts
   * const writer = readings.bulkWriter({ maxOutstandingRows: 10_000, flushIntervalMs: 200 });
   * for await (const r of incoming) await writer.add(r);
   * console.log(await writer.close()); // { accepted, persisted, failed, unknown, pending: 0 }
   * ```
   */
  bulkWriter(options?: BulkWriteOptions & OperationOptions): BulkWriter<EntityInput<T>> {
    const name = `${this.schema.name}.bulkWriter`;
    checkOptionNames(name, options, BULK_CALL_OPTION_NAMES);
    const [timing, bulk] = splitOperationOptions(options);
    const checkedTiming = checkOperationOptions(name, timing);
    const checked = checkBulkWriteOptions(this.schema.name, bulk, { concurrency: WRITER_CONCURRENCY });
    if (this.schema.denormalized.length > 0 || previousLayout(this.schema) !== undefined)
      throw new ValidationError(
        `${name}: ${this.schema.name} ${this.schema.denormalized.length > 0 ? 'has @Denormalized copies, which are filled from reads of their sources' : 'is being re-salted (@Salt previous), so its rows move from their previous keys first'}; a BulkWriter sends rows as they come. Fix: write it with saveMany(), which does both`,
        { entity: this.schema.name, option: 'bulkWriter' },
      );
    const clock = this.#context.clock;
    const table = this.schema.table;
    const batchName = `${this.schema.name}.bulkWriter batch`;
    // A driver that encodes each row as the writer accepts it writes string values as they are.
    const textValues = this.#driver.prepareMutation !== undefined;
    return new BulkWriter<EntityInput<T>>({
      entityName: this.schema.name,
      table,
      // A writer lives long: each row's cells take the time it was added, not the time the writer was made.
      compile: (entity) =>
        compileSave(this.schema, entity as unknown as T, { now: clock(), frozen: false, textValues }),
      compileAdd: (key, inputs, changes) =>
        compileAggregateAdd(this.schema, key, inputs, changes as Partial<T> | undefined, clock()),
      options: checked,
      signals: [checkedTiming.signal, this.#context.closing],
      prepare: this.#driver.prepareMutation?.bind(this.#driver),
      send: (mutations) =>
        runOperation(
          this.#context,
          'bulkWrite',
          batchName,
          checkedTiming,
          (call) => this.#driver.mutateRows({ table, mutations }, call),
          { settleFirst: true },
        ),
    });
  }

  /**
   * An RxJS operator that writes each entity of the source through a new
   * {@link bulkWriter} and emits every outcome as it settles; it completes
   * once the source completed and every outcome was emitted, then closes the
   * writer. The writer's back-pressure cannot slow a push source down: entities
   * that arrive while `add()` waits queue in the operator, so a fast hot source
   * should be throttled or buffered before it. An entity that fails to compile
   * is a `failed` outcome (index -1).
   * @example
   * ```ts
   * events$.pipe(map(toReading), readings.writeTo({ flushIntervalMs: 100 })).subscribe((o) => o.status !== 'persisted' && alert(o));
   * ```
   */
  writeTo(
    options?: BulkWriteOptions & OperationOptions,
  ): OperatorFunction<EntityInput<T>, WriteOutcome<EntityInput<T>>> {
    const writer = this.bulkWriter(options);
    return (source) => {
      const through = writeThrough(writer, source);
      return new Observable<WriteOutcome<EntityInput<T>>>((subscriber) => {
        const subscription = through.subscribe({
          next: (o) => subscriber.next(o),
          error: (e: unknown) => {
            void writer.close();
            subscriber.error(e);
          },
          complete: () => {
            void writer.close().then(() => subscriber.complete());
          },
        });
        return () => {
          subscription.unsubscribe();
          void writer.close();
        };
      });
    };
  }

  /**
   * Saves many entities in chunked MutateRows calls with bounded concurrency;
   * accepts arrays and async iterables, read lazily. A batch closes at
   * `batchSize` rows (default 500), `batchBytes` (default 20 MiB) or 100,000
   * mutations, whichever comes first; `concurrency` calls (default 2) are in
   * flight. `@Denormalized` copies are filled with one source read per
   * distinct source key (one `findMany` per chunk of 1,000 entities).
   * Throws a `PartialWriteError` that accounts for every entity: each failed
   * one with its gRPC code (a missing source included), those not attempted
   * because the input threw, the call was aborted or its deadline passed
   * (the error's `cause`), and the persisted rest. When 3 batches in a row fail as a whole with
   * UNAVAILABLE (or the endpoint accepts no connection), the backend is taken to be down: nothing more is
   * sent, and the error's `cause` is the last of those errors. While re-salting, each chunk of 500 entities
   * moves its rows from their previous keys first.
   * @example
   * ```ts
   * await repo.saveMany(readings, { batchSize: 500, concurrency: 2, timeoutMs: 120_000 });
   * ```
   */
  saveMany(
    entities: Iterable<EntityInput<T>> | AsyncIterable<EntityInput<T>>,
    options?: BulkWriteOptions & OperationOptions,
  ): Promise<BulkWriteResult> {
    try {
      checkBulkInput(this.schema.name, entities);
    } catch (err) {
      return Promise.reject(err);
    }
    const compileOptions = {
      now: this.#context.clock(),
      frozen: false,
      textValues: this.#driver.prepareMutation !== undefined,
    };
    let input: ReturnType<typeof bulkWithCopies<T>> | undefined;
    return this.#bulk(
      'saveMany',
      (call) => {
        const given = entities as unknown as Iterable<T> | AsyncIterable<T>;
        input = bulkWithCopies(this.schema, movedFirst(this.#driver, this.schema, given, call), this.#sources);
        return input.entities;
      },
      (e) => compileSave(this.schema, (input as ReturnType<typeof bulkWithCopies<T>>).take(e), compileOptions),
      options,
      // A source that changed while its copies were written gets propagated again: a propagation of the
      // change may have scanned past rows written after it.
      async (call) => {
        for (const source of await (input as ReturnType<typeof bulkWithCopies<T>>).changedSources())
          await this.#propagate(source, { allowFullScan: true, concurrency: options?.concurrency ?? 2 }, call);
      },
    );
  }

  /**
   * Atomically adds `by` to an `int` or `bigint` counter column (a missing cell counts as 0) and returns the new value:
   * a `bigint` column gives the exact `bigint`; an `int` column a `number` while the value is a safe integer and the exact
   * `bigint` once it leaves ±2^53 (declare counters that can grow that far as `bigint`). Never retried (an increment is not
   * idempotent), and never rejects once the server applied it.
   * @example
   * ```ts
   * const hits = await repo.increment({ page: '/' }, 'hits');
   * ```
   */
  increment<K extends CounterProperty<T>>(
    key: EntityKey<T>,
    field: K,
    by: number | bigint = 1,
    options?: OperationOptions,
  ): Promise<CounterValue<T[K]>> {
    return this.#run('write', 'increment', options, OPERATION_OPTION_NAMES, async (call) => {
      checkKeyValues(this.schema, key);
      await this.#moveFirst(key as Record<string, unknown>, call);
      return incrementColumn(this.#driver, this.schema, key as Record<string, unknown>, field, by, call);
    }) as Promise<CounterValue<T[K]>>;
  }

  /**
   * The exact mutation `add()` would send, without sending it: `addToCell` (and `mergeToCell` for a sketch)
   * per input at timestamp 0, after the cells of `changes`, with `idempotent: false`. The table is as sent
   * (with the mapper's `tablePrefix`); the cells of `changes` are stamped `now` (milliseconds; default the
   * mapper's `clock`).
   * @example
   * ```ts
   * stats.compileAdd({ page: '/' }, { views: 1 }).mutations;
   * // [{ kind: 'addToCell', family: 'stats', qualifier: 'views', timestampMicros: 0, input: 1n }]
   * ```
   */
  compileAdd(
    key: EntityKey<T>,
    inputs: { [K in EntityProperty<T>]?: AggregateInput<T[K]> },
    options: AddOptions<T> & { now?: number } = {},
  ): CompiledMutation {
    checkOptionNames(`${this.schema.name}.compileAdd`, options, ['changes', 'now']);
    const mutation = compileAdd(this.schema, key as Record<string, unknown>, inputs as Record<string, unknown>, {
      now: this.#context.clock(),
      ...options,
      changes: options.changes as Partial<T> | undefined,
    });
    const { tablePrefix } = this.#context;
    return tablePrefix === '' ? mutation : Object.freeze({ ...mutation, table: tablePrefix + mutation.table });
  }

  /**
   * Adds to the columns of aggregate families (`@Family(name, { aggregate })`) in one atomic row write: each
   * int64 input goes to its column as `AddToCell`, and an `hll` sketch given as bytes as `MergeToCell`; the
   * server folds them into the column's one cell (sum, min, max or the sketch). `changes` sets and deletes
   * plain columns in the same write. Not idempotent, so never sent twice: a call cut after it was sent (its
   * deadline, its signal, a reset connection) rejects with `WriteOutcomeUnknownError`, since Bigtable may or
   * may not have applied it (docs/aggregates.md).
   * @example
   * ```ts
   * await stats.add({ page: '/' }, { views: 1, bytes: 4096 });
   * await stats.add({ page: '/' }, { views: 1 }, { changes: { lastPath: '/index.html' } });
   * ```
   */
  add(
    key: EntityKey<T>,
    inputs: { [K in EntityProperty<T>]?: AggregateInput<T[K]> },
    options?: AddOptions<T> & OperationOptions,
  ): Promise<void> {
    return this.#run('write', 'add', options, [...OPERATION_OPTION_NAMES, 'changes'], async (call) => {
      const changes = options?.changes as Partial<T> | undefined;
      if (changes === undefined) checkKeyValues(this.schema, key);
      else checkChanges(this.schema, key, changes);
      await this.#moveFirst(key as Record<string, unknown>, call);
      const mutation = compileAdd(this.schema, key as Record<string, unknown>, inputs as Record<string, unknown>, {
        now: this.#context.clock(),
        checked: true,
        changes,
      });
      await sendNotIdempotent(this.#driver, mutation, `${this.schema.name}.add`, call);
    });
  }

  /**
   * Saves only if the condition holds (CheckAndMutateRow); resolves whether it applied. Never retried.
   * @example
   * ```ts
   * await repo.saveIf(job, { column: 'status', equals: 'pending' });
   * ```
   */
  saveIf(entity: EntityInput<T>, condition: SaveCondition<T>, options?: OperationOptions): Promise<boolean> {
    return this.#run('write', 'saveIf', options, OPERATION_OPTION_NAMES, async (call) => {
      checkValues(this.schema, entity);
      await this.#moveFirst(entity as Record<string, unknown>, call);
      const filled = await withCopies(this.schema, entityOf(entity), this.#sources);
      const mutation = compileSave(this.schema, filled.entity, { now: this.#context.clock(), checked: true });
      const { request, appliesOnMatch } = compileCondition(this.schema, mutation, condition);
      const applied = (await this.#driver.checkAndMutate(request, call)) === appliesOnMatch;
      if (applied) await this.#settle(mutation.rowKey, filled.fills, call);
      return applied;
    });
  }

  /**
   * Reads one row (one key, even when salted) or `undefined`. With `select`,
   * the result's type holds only the key parts and the selected properties
   * (see {@link Selected}).
   * @example
   * ```ts
   * const r = await repo.findOne({ sensorId: 's1', ts }, { select: ['temperature'], timeoutMs: 2_000 });
   * r?.temperature; // r: Pick<Reading, 'sensorId' | 'ts' | 'temperature'> | undefined
   * ```
   */
  findOne<S extends EntityProperty<T>>(
    key: EntityKey<T>,
    options: ReadOptions<T, S> & { select: readonly S[] } & OperationOptions,
  ): Promise<Selected<T, S> | undefined>;
  findOne(key: EntityKey<T>, options?: ReadOptions<T> & OperationOptions): Promise<T | undefined>;
  async findOne(key: EntityKey<T>, options?: ReadOptions<T> & OperationOptions): Promise<T | undefined> {
    const [found] = await this.#find('findOne', [key], options);
    return found;
  }

  /**
   * Like `findOne`, but throws `EntityNotFoundError` when the row is missing.
   * @example
   * ```ts
   * await repo.findOneOrFail({ id: 'j1' });
   * ```
   */
  findOneOrFail<S extends EntityProperty<T>>(
    key: EntityKey<T>,
    options: ReadOptions<T, S> & { select: readonly S[] } & OperationOptions,
  ): Promise<Selected<T, S>>;
  findOneOrFail(key: EntityKey<T>, options?: ReadOptions<T> & OperationOptions): Promise<T>;
  async findOneOrFail(key: EntityKey<T>, options?: ReadOptions<T> & OperationOptions): Promise<T> {
    const [found] = await this.#find('findOneOrFail', [key], options);
    if (found === undefined) {
      const given = key as Record<string, unknown>;
      const parts = Object.fromEntries(this.schema.key.properties.map((name) => [name, given[name]]));
      throw new EntityNotFoundError(this.schema.name, parts, encodeRowKey(this.schema, given).text);
    }
    return found;
  }

  /**
   * Reads many rows in input order, `undefined` for missing ones; `select` narrows the type as for `findOne`.
   * @example
   * ```ts
   * const [a, b] = await repo.findMany([k1, k2]);
   * ```
   */
  findMany<S extends EntityProperty<T>>(
    keys: readonly EntityKey<T>[],
    options: ReadOptions<T, S> & { select: readonly S[] } & OperationOptions,
  ): Promise<(Selected<T, S> | undefined)[]>;
  findMany(keys: readonly EntityKey<T>[], options?: ReadOptions<T> & OperationOptions): Promise<(T | undefined)[]>;
  findMany(keys: readonly EntityKey<T>[], options?: ReadOptions<T> & OperationOptions): Promise<(T | undefined)[]> {
    return this.#find('findMany', keys, options);
  }

  #find(
    operation: string,
    keys: readonly EntityKey<T>[],
    options: (ReadOptions<T> & OperationOptions) | undefined,
  ): Promise<(T | undefined)[]> {
    return this.#run('read', operation, options, READ_CALL_OPTION_NAMES, (call) =>
      findByKeys(
        this.#driver,
        this.schema,
        keys as unknown as Record<string, unknown>[],
        options,
        call,
        this.#context.clock(),
      ),
    );
  }

  /**
   * The physical ranges and filter a scan would read.
   * @example
   * ```ts
   * repo.planScan({ where: { userId: 'u1' } }).sources.length
   * ```
   */
  planScan(query: ScanQuery<T> = {}): ScanPlan {
    checkOptionNames(`${this.schema.name}.planScan`, query, SCAN_CALL_OPTION_NAMES);
    return this.#shown(planScan(this.schema, query));
  }

  /**
   * Cuts the query's key range into `shards` contiguous pieces of roughly equal size at the table's sample row
   * keys (`SampleRowKeys`: tablet boundaries), salt buckets kept whole where the count allows: JSON objects that
   * workers read with `iterate({ where, shard })`, each row in exactly one shard. With fewer samples than
   * shards (a small table) some shards are empty. One `SampleRowKeys` call, bounded by the `read` deadline.
   * @example
   * ```ts
   * const shards = await readings.planShards({ shards: 4, where: { sensorId: 's1' } });
   * for await (const r of readings.iterate({ where: { sensorId: 's1' }, shard: shards[0] })) handle(r);
   * ```
   */
  planShards(options: PlanShardsOptions<KeyWhere<T>> & OperationOptions): Promise<ScanShard[]> {
    return this.#run('read', 'planShards', options, PLAN_SHARDS_OPTION_NAMES, (call) =>
      planShardsOf(this.#driver, this.schema, options, call),
    );
  }

  /**
   * A cold Observable of the scan's entities; unsubscribing cancels every read. The scan's clock (`timeoutMs`, default 12 h; `idleTimeoutMs`,
   * default 30 s of silence on a stream) starts at subscription; `signal` or `mapper.close()` cancels it with an error.
   * `select` narrows the entities' type as for `findOne`.
   * @example
   * ```ts
   * repo.scan({ limit: 10, signal: controller.signal }).subscribe(console.log);
   * ```
   */
  scan<S extends EntityProperty<T>>(
    query: ScanQuery<T, S> & { select: readonly S[] } & OperationOptions,
  ): Observable<Selected<T, S>>;
  scan(query?: ScanQuery<T> & OperationOptions): Observable<T>;
  scan(query: ScanQuery<T> & OperationOptions = {}): Observable<T> {
    return batchesToObservable(() => openScan(this.#driver, this.schema, query, this.#context));
  }

  /**
   * Pull-based async iteration; breaking out cancels every read; deadlines and `signal` as for `scan`;
   * `select` narrows the entities' type as for `findOne`.
   * @example
   * ```ts
   * for await (const r of repo.iterate({ where: { sensorId: 's1' } })) ...
   * ```
   */
  iterate<S extends EntityProperty<T>>(
    query: ScanQuery<T, S> & { select: readonly S[] } & OperationOptions,
  ): AsyncIterable<Selected<T, S>>;
  iterate(query?: ScanQuery<T> & OperationOptions): AsyncIterable<T>;
  iterate(query: ScanQuery<T> & OperationOptions = {}): AsyncIterable<T> {
    return {
      [Symbol.asyncIterator]: () => {
        const { stream, map } = openScan(this.#driver, this.schema, query, this.#context);
        return eachItem(stream, map);
      },
    };
  }

  /**
   * Reads up to `limit` rows and a cursor for the next page, `undefined` once the scan is exhausted;
   * `select` narrows the entities' type as for `findOne`.
   * @example
   * ```ts
   * const { items, cursor } = await repo.page({ limit: 100, cursor });
   * ```
   */
  page<S extends EntityProperty<T>>(
    query: ScanQuery<T, S> & { select: readonly S[] } & OperationOptions & { limit: number },
  ): Promise<Page<Selected<T, S>>>;
  page(query: ScanQuery<T> & OperationOptions & { limit: number }): Promise<Page<T>>;
  page(query: ScanQuery<T> & OperationOptions & { limit: number }): Promise<Page<T>> {
    return readPage(this.#driver, this.schema, query, this.#context);
  }

  /**
   * Rewrites the `@Denormalized` copies of `source` (e.g. a `Sensor` whose
   * location changed) in every row of this entity holding them: scans only
   * those rows, writes only the copies that differ from the stored source
   * row (`source` names it: its class and key), each row with one conditional
   * write that never re-creates a deleted row. Reads the source again after
   * its writes and runs again if it changed, so concurrent writers end with
   * the newest value (see docs/denormalization.md); safe to re-run. Throws
   * `EntityNotFoundError` when the source row does not exist. A key layout that needs a full scan is refused unless
   * `allowFullScan`. Bounded by the `bulkWrite` deadline and `signal`.
   * @example
   * ```ts
   * const { scanned, updated } = await readings.propagate(sensor, { onProgress: (p) => log(p) });
   * ```
   */
  propagate(source: object, options?: PropagateOptions & OperationOptions): Promise<PropagationProgress> {
    const name = `${this.schema.name}.propagate`;
    try {
      checkOptionNames(name, options, PROPAGATE_CALL_OPTION_NAMES);
    } catch (err) {
      return Promise.reject(err);
    }
    const [timing, propagate] = splitOperationOptions(options);
    return runOperation(this.#context, 'bulkWrite', name, timing, (call) => this.#propagate(source, propagate, call), {
      settleFirst: true,
    });
  }

  #propagate(source: object, options: PropagateOptions, call: CallOptions): Promise<PropagationProgress> {
    return propagateCopies(this.#driver, this.schema, source, this.#sources, options, call, this.#context.clock);
  }

  /**
   * What `propagate(source)` would scan, without reading or writing.
   * @example
   * ```ts
   * readings.planPropagation(sensor).groups[0].strategy.kind // 'prefix'
   * ```
   */
  planPropagation(source: object, options?: { allowFullScan?: boolean }): PropagationPlan {
    const plan = planPropagation(this.schema, source, options);
    if (this.#context.tablePrefix === '') return plan;
    return Object.freeze({
      ...plan,
      groups: Object.freeze(plan.groups.map((g) => Object.freeze({ ...g, scan: this.#shown(g.scan) }))),
    });
  }

  /** A scan plan as sent: its table with the mapper's `tablePrefix`. */
  #shown(plan: ScanPlan): ScanPlan {
    const { tablePrefix } = this.#context;
    return tablePrefix === '' ? plan : Object.freeze(new PlannedScan({ ...plan, table: tablePrefix + plan.table }));
  }
}

const READ_CALL_OPTION_NAMES: readonly string[] = [...READ_OPTION_NAMES, ...OPERATION_OPTION_NAMES];
const BULK_CALL_OPTION_NAMES: readonly string[] = [...BULK_WRITE_OPTION_NAMES, ...OPERATION_OPTION_NAMES];
const PROPAGATE_CALL_OPTION_NAMES: readonly string[] = [...PROPAGATE_OPTION_NAMES, ...OPERATION_OPTION_NAMES];

const standaloneContext: OperationContext = Object.freeze({
  timeouts: DEFAULT_TIMEOUTS,
  closing: new AbortController().signal,
  track: <R>(settled: Promise<R>): Promise<R> => settled,
  clock: () => Date.now(),
  tablePrefix: '',
});

/** The write compilers read only data properties, so a plain object of them serves as well as an instance. */
function entityOf<T>(input: EntityInput<T>): T {
  return input as unknown as T;
}
