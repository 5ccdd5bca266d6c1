import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type {
  ActualFamily,
  BigtableDriver,
  CallOptions,
  CheckAndMutateRequest,
  CreateFamilyRequest,
  CreateTableRequest,
  DeleteFamilyRequest,
  IncrementRequest,
  ListTablesRequest,
  MutateRowsRequest,
  ReadRowsRequest,
  RowData,
  RowKeySample,
  RowMutationFailure,
  SetFamilyGcRequest,
  TableRequest,
} from '../model/driver.js';
import { isPreparedMutation, preparedElsewhere, type CompiledMutation } from '../model/mutation.js';
import { ValidationError } from '../errors/errors.js';
import { OperationAbortedError } from '../errors/operation-errors.js';
import type { BatchStream } from '../stream/batch-stream.js';
import { fromAsyncIterable } from '../stream/async-iterable.js';
import { applyFilter, toRowData } from './in-memory-cells.js';
import { checkCall, grpcError } from './in-memory-checks.js';
import { MemoryInstance } from './in-memory-instance.js';
import type { DriverMethod, RecordedCall, RecordedCallOf, RecordedRead } from './recorded-call.js';

/**
 * Options of an {@link InMemoryBigtable}.
 *
 * @example
 * ```ts
 * const options: InMemoryBigtableOptions = { recordCalls: true, nowMs: () => clock };
 * ```
 */
export interface InMemoryBigtableOptions {
  /**
   * The server's clock, in epoch milliseconds: the time of cells written with
   * the server's time, of increments, and of {@link InMemoryBigtable.collectGarbage}.
   * Default: `Date.now()`, read at each use (so it follows fake timers that
   * mock `Date`).
   */
  readonly nowMs?: () => number;
  /**
   * Tables spring into existence on their first write, and reading a missing
   * one yields no rows. Default false: as on Bigtable, a table must be created
   * first (`mapper.sync()`, or `sync: true` in `BigtableModule.forRoot`), and a
   * data call on a missing table fails with `TableNotFoundError`.
   */
  readonly implicitTables?: boolean;
  /**
   * Record every call in `calls` and each read's progress in `reads`. Default
   * false: the driver then holds nothing but the rows you write.
   */
  readonly recordCalls?: boolean;
  /**
   * Let the event loop run once in every data call, as a network round trip
   * would, so concurrent calls overlap. Default true. With false, a call
   * completes within microtasks: faster, and always in the same order. The
   * yield never waits on a timer, so fake timers cannot stall it.
   */
  readonly yieldInCalls?: boolean;
  /**
   * How many rows apart the keys `sampleRowKeys` returns are: the keys of
   * rows `sampleEvery`, `2 × sampleEvery`, ... counting from 0 in key order
   * (never the first row), then the empty key that ends the table, each with the
   * bytes of keys and values stored before it. Default 100: a table
   * of 1,000 rows gives 9 samples and the end, which shard plans cut at.
   * Bigtable itself samples about every few hundred megabytes.
   */
  readonly sampleEvery?: number;
}

/** The progress of a read, updated while it runs. */
type ReadProgress = { -readonly [K in keyof RecordedRead]: RecordedRead[K] };

/**
 * An in-memory Bigtable: a {@link BigtableDriver} for applications' unit
 * tests, in the spirit of Go's `bttest`. Pass it to a mapper as `driver` and
 * every repository call runs against it, in process, with no emulator and no
 * Java or Go binary: salted and reverse scans, paging, every row filter the
 * mapper sends, GC rules, conditional writes, increments and denormalized
 * copies. It is held to the same driver contract suite as the real driver on
 * the emulator (`docs/testing.md` lists where it differs from Bigtable).
 *
 * - Rows are kept in key byte order, cells per family and qualifier, newest
 *   first; a row's mutations apply atomically. Keys over 4 KiB, more than
 *   100,000 mutations in one request, timestamps that are not whole
 *   milliseconds, and families a table does not have are rejected as
 *   Bigtable rejects them.
 * - Call options are honoured: an aborted `signal` fails a call with
 *   `OperationAbortedError`, a `deadlineSignal()` past its deadline with `DeadlineExceededError`,
 *   when the call starts and at every row a read hands out.
 * - It holds the rows you write (every version, until you delete them or
 *   run {@link collectGarbage}) and, only with `recordCalls: true`, a record
 *   of the calls. Each instance is a separate, empty Bigtable instance.
 *
 * @example
 * ```ts
 * import { BigtableMapper } from 'bigtable-mapper';
 * import { InMemoryBigtable } from 'bigtable-mapper/testing';
 *
 * const bigtable = new InMemoryBigtable();
 * const mapper = new BigtableMapper({ driver: bigtable, entities: [Order] });
 * await mapper.sync(); // creates the tables and families in memory
 * const orders = mapper.getRepository(Order);
 * await orders.save({ customerId: 'c1', placedAt: new Date(), total: 42 });
 * ```
 */
export class InMemoryBigtable implements BigtableDriver {
  readonly #instance: MemoryInstance;
  readonly #failures = new Map<DriverMethod, unknown[]>();
  readonly #calls: RecordedCall[] = [];
  readonly #reads: ReadProgress[] = [];
  readonly #yield: boolean;
  readonly #recording: boolean;
  readonly #sampleEvery: number;
  #closed = false;

  /**
   * An empty in-memory Bigtable instance.
   *
   * @example
   * ```ts
   * const bigtable = new InMemoryBigtable({ recordCalls: true });
   * ```
   */
  constructor(options: InMemoryBigtableOptions = {}) {
    this.#instance = new MemoryInstance(options.nowMs ?? (() => Date.now()), options.implicitTables ?? false);
    this.#yield = options.yieldInCalls ?? true;
    this.#recording = options.recordCalls ?? false;
    this.#sampleEvery = checkSampleEvery(options.sampleEvery);
  }

  // ---- inspection and failure injection ------------------------------------

  /**
   * Every call received, in order, with its arguments as passed. Needs
   * `recordCalls: true` (throws a `ValidationError` otherwise).
   *
   * @example
   * ```ts
   * expect(bigtable.calls.map((c) => c.method)).toEqual(['readRows', 'mutateRow']);
   * ```
   */
  get calls(): readonly RecordedCall[] {
    this.#requireRecording('calls');
    return this.#calls;
  }

  /**
   * The progress of every `readRows` call, in order: rows handed out, and
   * whether the reader cancelled or reached the end. Needs `recordCalls: true`.
   *
   * @example
   * ```ts
   * await firstValueFrom(orders.scan({}).pipe(take(1)));
   * expect(bigtable.reads.every((r) => r.cancelled || r.ended)).toBe(true);
   * ```
   */
  get reads(): readonly RecordedRead[] {
    this.#requireRecording('reads');
    return this.#reads;
  }

  /**
   * The recorded calls of one method, typed by it. Needs `recordCalls: true`.
   *
   * @example
   * ```ts
   * expect(bigtable.callsOf('mutateRows').map((c) => c.mutations.length)).toEqual([500, 500, 34]);
   * ```
   */
  callsOf<M extends DriverMethod>(method: M): RecordedCallOf<M>[] {
    return this.calls.filter((c): c is RecordedCallOf<M> => c.method === method);
  }

  /**
   * Forgets the recorded calls and reads; the data stays.
   *
   * @example
   * ```ts
   * await seedOrders();
   * bigtable.clearCalls(); // assert only on what the code under test sends
   * ```
   */
  clearCalls(): void {
    this.#calls.length = 0;
    this.#reads.length = 0;
  }

  /**
   * Makes every later write of `rowKey` (in any table) fail with `grpcCode`:
   * `mutateRow`, `checkAndMutate` and `increment` throw a `DriverError`
   * carrying it, and `mutateRows` reports the entry as failed (a bulk write
   * then rejects with `PartialWriteError` listing the row). Keys are physical
   * row keys, the salt segment included (`repo.compileSave(e).rowKey`).
   *
   * @example
   * ```ts
   * bigtable.reject(orders.compileSave(order).rowKey, GrpcCode.PermissionDenied);
   * await expect(orders.saveMany([order, other])).rejects.toBeInstanceOf(PartialWriteError);
   * ```
   */
  reject(
    rowKey: Buffer | string,
    grpcCode: number,
    message = `row rejected by the in-memory Bigtable (gRPC ${grpcCode})`,
  ): void {
    this.#instance.reject(rowKey, { grpcCode, message });
  }

  /**
   * Makes the next call of `method` fail, before it changes anything. A
   * number fails it with the `DriverError` of that gRPC code (what the real
   * driver throws once it gives up); anything else is thrown as it is. Calls
   * queue up: call it twice to fail the next two calls. The real driver
   * retries transient codes itself; this driver never does, so the failure
   * reaches the caller directly.
   *
   * @example
   * ```ts
   * bigtable.failNext('mutateRow', GrpcCode.Unavailable);
   * await expect(orders.save(order)).rejects.toMatchObject({ grpcCode: 14 });
   * ```
   */
  failNext(method: DriverMethod, failure: unknown): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(
      typeof failure === 'number' ? grpcError(method, failure, `injected failure (gRPC ${failure})`) : failure,
    );
    this.#failures.set(method, queue);
  }

  /**
   * Writes mutations directly, as they are: no call recorded, no checks, no
   * injected failure; a missing table is created (accepting any family).
   * For fixtures, including rows your code would not write itself (an older
   * layout, a corrupt cell).
   *
   * @example
   * ```ts
   * bigtable.seed(orders.compileSave({ customerId: 'c1', placedAt: new Date(0), total: 1 }));
   * ```
   */
  seed(...mutations: CompiledMutation[]): void {
    this.#instance.seed(mutations);
  }

  /**
   * Every row of a table in key order, with every cell version, as an
   * unfiltered read returns them (`[]` for a missing table). Table ids are
   * as sent: with the mapper's `tablePrefix`.
   *
   * @example
   * ```ts
   * expect(bigtable.rows('orders').map((r) => r.key.toString())).toEqual(['00#c1#1970-01-01T00:00:00.000Z']);
   * ```
   */
  rows(table: string): RowData[] {
    return this.#instance.rows(table);
  }

  /**
   * One row with every cell version, or `undefined`. `key` is the physical
   * row key (a string is taken as UTF-8).
   *
   * @example
   * ```ts
   * const row = bigtable.row('orders', orders.compileSave(order).rowKey);
   * expect(row?.cells.o?.total).toHaveLength(1);
   * ```
   */
  row(table: string, key: Buffer | string): RowData | undefined {
    return this.#instance.row(table, key);
  }

  /**
   * Runs one garbage-collection pass now, as Bigtable does in the background:
   * deletes the cells each family's GC rule condemns at the driver's clock
   * (`nowMs`), in every table or in `table`. Rows left without cells are
   * gone. Returns the number of cells deleted. Until you call it, condemned
   * cells stay, as on Bigtable, where collection can take up to a week; the
   * mapper's reads hide them either way.
   *
   * @example
   * ```ts
   * await orders.save(order); await orders.save(order); // two versions of each cell
   * expect(bigtable.collectGarbage()).toBeGreaterThan(0); // under maxVersions: 1
   * ```
   */
  collectGarbage(table?: string): number {
    return this.#instance.collectGarbage(table);
  }

  // ---- admin ---------------------------------------------------------------

  /**
   * The ids of every table, sorted.
   * @example
   * ```ts
   * expect(await bigtable.listTables()).toEqual(['orders', 'users']);
   * ```
   */
  async listTables(_request?: ListTablesRequest, call?: CallOptions): Promise<string[]> {
    this.#begin({ method: 'listTables' }, call);
    return this.#instance.tableIds();
  }

  /**
   * The table's families with their GC rules, by name; `undefined` when the table does not exist.
   * @example
   * ```ts
   * await bigtable.getFamilies({ table: 'orders' }); // [{ name: 'o', gc: { kind: 'maxVersions', count: 1 } }]
   * ```
   */
  async getFamilies({ table }: TableRequest, call?: CallOptions): Promise<ActualFamily[] | undefined> {
    this.#begin({ method: 'getFamilies', table }, call);
    return this.#instance.families(table);
  }

  /**
   * Creates a table with these families; rejects with gRPC 6 when it exists. A row key schema is accepted and not kept.
   * @example
   * ```ts
   * await bigtable.createTable({ table: 'orders', families: [{ name: 'o', gc: undefined }] });
   * ```
   */
  async createTable({ table, families, rowKeySchema }: CreateTableRequest, call?: CallOptions): Promise<void> {
    this.#begin(
      { method: 'createTable', table, families, ...(rowKeySchema === undefined ? {} : { rowKeySchema }) },
      call,
    );
    this.#instance.createTable(table, families);
  }

  /**
   * Adds a family to a table; rejects with gRPC 6 when it exists, gRPC 5 when the table does not.
   * @example
   * ```ts
   * await bigtable.createFamily({ table: 'orders', family: { name: 'audit', gc: { kind: 'maxAge', seconds: 86_400 } } });
   * ```
   */
  async createFamily({ table, family }: CreateFamilyRequest, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'createFamily', table, family }, call);
    this.#instance.createFamily(table, family);
  }

  /**
   * Replaces a family's GC rule (`undefined` removes it); rejects with gRPC 5 for an unknown table or family.
   * @example
   * ```ts
   * await bigtable.setFamilyGc({ table: 'orders', family: 'o', gc: { kind: 'maxVersions', count: 3 } });
   * ```
   */
  async setFamilyGc({ table, family, gc }: SetFamilyGcRequest, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'setFamilyGc', table, family, gc }, call);
    this.#instance.setFamilyGc(table, family, gc);
  }

  /**
   * Deletes a family and its cells (rows left without cells are gone); rejects with gRPC 5 when it is unknown.
   * @example
   * ```ts
   * await bigtable.deleteFamily({ table: 'orders', family: 'audit' });
   * ```
   */
  async deleteFamily({ table, family }: DeleteFamilyRequest, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'deleteFamily', table, family }, call);
    this.#instance.deleteFamily(table, family);
  }

  /**
   * Deletes a table and its rows; rejects with gRPC 5 when it does not exist.
   * @example
   * ```ts
   * await bigtable.deleteTable({ table: 'orders' });
   * ```
   */
  async deleteTable({ table }: TableRequest, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'deleteTable', table }, call);
    this.#instance.deleteTable(table);
  }

  /**
   * Marks the driver closed: reads, open or new, then reject with `OperationAbortedError` when pulled. The data stays.
   * @example
   * ```ts
   * await bigtable.close();
   * ```
   */
  async close(): Promise<void> {
    this.#record({ method: 'close' });
    this.#closed = true;
  }

  // ---- data ----------------------------------------------------------------

  /**
   * Applies one row's mutations atomically, or none of them.
   * @example
   * ```ts
   * await bigtable.mutateRow(orders.compileSave(order));
   * ```
   */
  async mutateRow(mutation: CompiledMutation, call?: CallOptions): Promise<void> {
    return this.#dataCall({ method: 'mutateRow', mutation }, call, () => this.#instance.mutateRow(mutation));
  }

  /**
   * Applies each entry atomically per row; resolves the entries that failed, by index.
   * @example
   * ```ts
   * const failures = await bigtable.mutateRows({ table: 'orders', mutations: [m1, m2] }); // [] when both were written
   * ```
   */
  async mutateRows({ table, mutations }: MutateRowsRequest, call?: CallOptions): Promise<RowMutationFailure[]> {
    // It prepares nothing (a bulk writer gives it compiled mutations), so a prepared one came from another driver.
    const prepared = mutations.findIndex(isPreparedMutation);
    if (prepared >= 0) throw preparedElsewhere(table, prepared);
    const compiled = mutations as readonly CompiledMutation[];
    return this.#dataCall({ method: 'mutateRows', table, mutations: compiled }, call, () =>
      this.#instance.mutateRows(table, compiled),
    );
  }

  /**
   * Streams the selected rows in key order (descending when `reversed`), filtered, pull-based: one row per
   * batch, each pulled on its own, so call options are checked, and the event loop runs, at every row.
   * @example
   * ```ts
   * for await (const rows of bigtable.readRows({ table: 'orders', limit: 10 })) for (const row of rows) console.log(row.key);
   * ```
   */
  readRows(request: ReadRowsRequest, call?: CallOptions): BatchStream<RowData> {
    const { limit } = request;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new ValidationError(
        `readRows ${JSON.stringify(request.table)}: limit ${String(limit)} is not a non-negative integer. Fix: pass a row count.`,
        { limit },
      );
    }
    this.#record({ method: 'readRows', request });
    const progress: ReadProgress = { request, yielded: 0, cancelled: false, ended: false };
    if (this.#recording) this.#reads.push(progress);
    const failure = this.#takeFailure('readRows');
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const pulled = (): void => {
      if (self.#closed) throw new OperationAbortedError('readRows', 'the driver was closed');
      checkCall('readRows', call);
    };
    async function* rows(): AsyncGenerator<RowData> {
      await self.#pause();
      if (failure !== undefined) throw failure;
      pulled();
      const table = self.#instance.existing('readRows', request.table);
      for (const id of table?.select(request) ?? []) {
        if (progress.cancelled) return;
        if (limit !== undefined && progress.yielded >= limit) break;
        const stored = table?.get(id);
        if (stored === undefined) continue;
        const cells = request.filter === undefined ? stored.cells : applyFilter(request.filter, stored.cells);
        if (cells.length === 0) continue;
        pulled();
        if (progress.cancelled) return;
        progress.yielded += 1;
        yield toRowData({ key: stored.key, cells });
        await self.#pause();
      }
      progress.ended = true;
    }
    return fromAsyncIterable(rows(), () => {
      progress.cancelled = true;
    });
  }

  /**
   * Applies `onMatch` when the predicate yields a cell of the row (any cell without a predicate), else `onNoMatch`; resolves whether it matched.
   * @example
   * ```ts
   * const claimed = await bigtable.checkAndMutate({ table: 'jobs', rowKey, predicate, onMatch, onNoMatch: [] });
   * ```
   */
  async checkAndMutate(request: CheckAndMutateRequest, call?: CallOptions): Promise<boolean> {
    return this.#dataCall({ method: 'checkAndMutate', request }, call, () => this.#instance.checkAndMutate(request));
  }

  /**
   * Adds int64 amounts to 8-byte big-endian cells (a missing cell counts as 0); resolves the new cells.
   * @example
   * ```ts
   * const row = await bigtable.increment({ table: 'counters', rowKey: Buffer.from('home'), rules: [{ family: 'c', qualifier: 'hits', amount: 1n }] });
   * ```
   */
  async increment({ table, rowKey, rules }: IncrementRequest, call?: CallOptions): Promise<RowData> {
    return this.#dataCall({ method: 'increment', table, rowKey, rules }, call, () =>
      this.#instance.increment(table, rowKey, rules),
    );
  }

  /**
   * Sample row keys of the table: the key of every `sampleEvery`-th row (option, default 100), then the empty key
   * (the end of the table), each with the bytes of the keys and cell values before it. A table with fewer rows
   * gives the end key only, as a small Bigtable table does.
   * @example
   * ```ts
   * const samples = await bigtable.sampleRowKeys({ table: 'orders' }); // [..., { key: <Buffer >, offsetBytes: 52_000 }]
   * ```
   */
  async sampleRowKeys({ table }: TableRequest, call?: CallOptions): Promise<RowKeySample[]> {
    return this.#dataCall({ method: 'sampleRowKeys', table }, call, () => {
      const stored = this.#instance.existing('sampleRowKeys', table);
      const samples: RowKeySample[] = [];
      let offsetBytes = 0;
      let index = 0;
      for (const id of stored?.ids() ?? []) {
        const row = stored?.get(id);
        if (row === undefined) continue;
        if (index > 0 && index % this.#sampleEvery === 0) samples.push({ key: Buffer.from(row.key), offsetBytes });
        index += 1;
        offsetBytes += row.key.length;
        for (const cell of row.cells) offsetBytes += cell.value.length;
      }
      samples.push({ key: Buffer.alloc(0), offsetBytes });
      return samples;
    });
  }

  // ---- internals -----------------------------------------------------------

  #requireRecording(what: string): void {
    if (!this.#recording)
      throw new ValidationError(
        `InMemoryBigtable.${what}: calls are not recorded. Fix: create it with new InMemoryBigtable({ recordCalls: true }).`,
      );
  }

  #record(entry: RecordedCall): void {
    if (this.#recording) this.#calls.push(entry);
  }

  /** One turn of the event loop, as a round trip to a server would take, unless `yieldInCalls` is false. */
  async #pause(): Promise<void> {
    if (this.#yield) await nextMacrotask();
  }

  #takeFailure(method: DriverMethod): unknown {
    const queue = this.#failures.get(method);
    return queue === undefined || queue.length === 0 ? undefined : queue.shift();
  }

  /** What every admin call does first: record it, honour its signal and deadline, and throw a failure queued by `failNext`. */
  #begin(entry: RecordedCall, call: CallOptions | undefined): void {
    this.#record(entry);
    this.#check(entry.method, call);
  }

  #check(method: DriverMethod, call: CallOptions | undefined): void {
    checkCall(method, call);
    const failure = this.#takeFailure(method);
    if (failure !== undefined) throw failure;
  }

  /** A data call: recorded at once, then run after one turn of the event loop (unless `yieldInCalls` is false). */
  async #dataCall<T>(entry: RecordedCall, call: CallOptions | undefined, run: () => T): Promise<T> {
    this.#record(entry);
    await this.#pause();
    this.#check(entry.method, call);
    return run();
  }
}

/** The `sampleEvery` option: a positive integer, default 100. */
function checkSampleEvery(value: unknown): number {
  if (value === undefined) return 100;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  throw new ValidationError(
    `InMemoryBigtable: sampleEvery must be a positive integer, got ${String(value)}. Fix: pass how many rows apart the sampled keys are (default 100)`,
    { argument: 'sampleEvery' },
  );
}
