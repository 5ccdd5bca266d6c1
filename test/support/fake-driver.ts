import type {
  ActualFamily,
  BigtableDriver,
  CallOptions,
  CellData,
  CheckAndMutateRequest,
  IncrementRule,
  KeyRange,
  ReadRowsRequest,
  RowData,
  RowKeySchema,
  RowMutationFailure,
} from '../../src/model/driver.js';
import type { RowFilter } from '../../src/model/row-filter.js';
import type { CellMutation, CompiledMutation } from '../../src/model/mutation.js';
import type { GcRule } from '../../src/model/gc-rule.js';
import { DriverError, TableNotFoundError, ValidationError } from '../../src/errors/errors.js';
import { DeadlineExceededError, OperationAbortedError } from '../../src/errors/operation-errors.js';
import { throwIfAborted } from '../../src/util/operation-signal.js';
import { fromAsyncIterable, type RowSource } from '../../src/stream/row-source.js';

/** gRPC status codes the fake uses. @example `GrpcCode.NotFound // 5` */
export const GrpcCode = Object.freeze({
  InvalidArgument: 3,
  NotFound: 5,
  AlreadyExists: 6,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Internal: 13,
  Unavailable: 14,
});

/** Bigtable's per-request mutation cap. */
const MAX_MUTATIONS_PER_REQUEST = 100_000;
/** Bigtable's row key limit (the emulator has none). */
const MAX_ROW_KEY_BYTES = 4096;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** A setCell timestamp asking for the server's time. */
const SERVER_TIME = -1;

/**
 * One recorded driver call, with its arguments exactly as passed.
 *
 * @example
 * ```ts
 * const call: DriverCall = { method: 'mutateRows', table: 'readings', mutations: [m1, m2] };
 * ```
 */
export type DriverCall =
  | { readonly method: 'listTables' }
  | { readonly method: 'getFamilies'; readonly table: string }
  | {
      readonly method: 'createTable';
      readonly table: string;
      readonly families: readonly ActualFamily[];
      readonly rowKeySchema?: RowKeySchema;
    }
  | { readonly method: 'createFamily'; readonly table: string; readonly family: ActualFamily }
  | { readonly method: 'setFamilyGc'; readonly table: string; readonly family: string; readonly gc: GcRule | undefined }
  | { readonly method: 'deleteFamily'; readonly table: string; readonly family: string }
  | { readonly method: 'deleteTable'; readonly table: string }
  | { readonly method: 'close' }
  | { readonly method: 'mutateRow'; readonly mutation: CompiledMutation }
  | { readonly method: 'mutateRows'; readonly table: string; readonly mutations: readonly CompiledMutation[] }
  | { readonly method: 'readRows'; readonly request: ReadRowsRequest }
  | { readonly method: 'checkAndMutate'; readonly request: CheckAndMutateRequest }
  | {
      readonly method: 'increment';
      readonly table: string;
      readonly rowKey: Buffer;
      readonly rules: readonly IncrementRule[];
    };

/** A driver method name. @example `'mutateRows'` */
export type DriverMethod = DriverCall['method'];

/** Statistics of one readRows call. @example `{ yielded: 3, cancelled: true, ended: false }` */
export interface ReadStats {
  /** The request as passed. */
  readonly request: ReadRowsRequest;
  /** Rows handed to the consumer so far. */
  yielded: number;
  /** `cancel()` was called. */
  cancelled: boolean;
  /** The stream reached its natural end. */
  ended: boolean;
}

/** Options of a {@link FakeDriver}. @example `{ nowMs: () => 1_700_000_000_000 }` */
export interface FakeDriverOptions {
  /** Server clock in milliseconds, for increments and server-time cells. Default `Date.now`. */
  readonly nowMs?: () => number;
  /** Await a macrotask in every data call, so concurrent callers really overlap. Default true. */
  readonly yieldInCalls?: boolean;
  /**
   * Tables spring into existence on their first write, and reading a missing
   * one yields no rows, so unit tests need no `createTable`. Default true.
   * With false, as on Bigtable, data calls on a table that was neither
   * created nor seeded fail with gRPC 5.
   */
  readonly implicitTables?: boolean;
}

/** One cell version. */
interface Cell {
  readonly family: string;
  readonly qualifier: string;
  readonly timestampMicros: number;
  readonly value: Buffer;
}

/** A row's cells in Bigtable's order: family, qualifier bytes, newest first. Never empty while stored. */
interface StoredRow {
  readonly key: Buffer;
  cells: Cell[];
}

interface FakeTable {
  /** Families and GC rules of a table created through the admin API; `undefined` for a table born of a write (any family goes). */
  families: Map<string, GcRule | undefined> | undefined;
  readonly rows: Map<string, StoredRow>;
  sorted: string[] | undefined;
}

type Problem = { readonly grpcCode: number; readonly message: string };

/**
 * An in-memory {@link BigtableDriver} for unit tests, with Bigtable's
 * semantics (checked against the real driver by the driver contract suite in
 * `test/contract`): rows sorted by key bytes, cells per family and qualifier
 * newest first, every {@link RowFilter} kind, call options honoured; every
 * call is recorded in `calls`.
 *
 * - `mutateRow`/`mutateRows` apply atomically per row; `reject(key, code)`
 *   makes writes of a row key fail with a gRPC code (thrown by `mutateRow`,
 *   reported as an entry failure by `mutateRows`); `failNext('mutateRows', err)`
 *   makes the next whole call throw. More than 100,000 mutations in one call or
 *   keys over 4 KiB are rejected like the service does.
 * - `readRows` is pull-based and records each read's progress and
 *   cancellation in `reads`.
 * - Tables spring into existence on first write unless `implicitTables` is
 *   false; a table created with `createTable` rejects writes to undeclared
 *   families (gRPC 5).
 *
 * @example
 * ```ts
 * const driver = new FakeDriver();
 * const repo = new Repository(driver, compileEntity(Reading));
 * await repo.save(reading);
 * expect(driver.callsOf('mutateRow')).toHaveLength(1);
 * ```
 */
export class FakeDriver implements BigtableDriver {
  /** Every call, in order. */
  readonly calls: DriverCall[] = [];
  /** One entry per readRows call. */
  readonly reads: ReadStats[] = [];
  /** Data calls currently awaiting. */
  inFlight = 0;
  /** Most data calls seen awaiting at the same time. */
  maxInFlight = 0;
  /** `close()` was called. */
  closed = false;

  readonly #tables = new Map<string, FakeTable>();
  readonly #rejected = new Map<string, Problem>();
  readonly #failures = new Map<DriverMethod, unknown[]>();
  readonly #nowMs: () => number;
  readonly #yield: boolean;
  readonly #implicitTables: boolean;

  constructor(options: FakeDriverOptions = {}) {
    this.#nowMs = options.nowMs ?? Date.now;
    this.#yield = options.yieldInCalls ?? true;
    this.#implicitTables = options.implicitTables ?? true;
  }

  // ---- test controls -------------------------------------------------------

  /** Recorded calls of one method. @example `driver.callsOf('mutateRows').map((c) => c.mutations.length)` */
  callsOf<M extends DriverMethod>(method: M): Extract<DriverCall, { method: M }>[] {
    return this.calls.filter((c): c is Extract<DriverCall, { method: M }> => c.method === method);
  }

  /** Makes every later write of `rowKey` fail with `grpcCode`. @example `driver.reject('s1#…', GrpcCode.Internal)` */
  reject(rowKey: Buffer | string, grpcCode: number, message = `row rejected by the fake (gRPC ${grpcCode})`): void {
    this.#rejected.set(toId(rowKey), { grpcCode, message });
  }

  /** Makes the next call of `method` throw `error` (queued: call again to fail more calls). @example `driver.failNext('mutateRows', Object.assign(new Error('down'), { code: 14 }))` */
  failNext(method: DriverMethod, error: unknown): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(error);
    this.#failures.set(method, queue);
  }

  /** Forgets the recorded calls and reads (the data stays). */
  clearCalls(): void {
    this.calls.length = 0;
    this.reads.length = 0;
    this.maxInFlight = this.inFlight;
  }

  /** Writes mutations directly, without recording a call (creating the table if needed). @example `driver.seed(compileSave(schema, e))` */
  seed(...mutations: CompiledMutation[]): void {
    for (const m of mutations) this.#commit(m.table, m.rowKey, m.mutations);
  }

  /** Every row of a table in key order, as readRows would return it unfiltered. @example `driver.rows('readings').length` */
  rows(table: string): RowData[] {
    const t = this.#tables.get(table);
    if (t === undefined) return [];
    return sortedIds(t).map((id) => toRowData(t.rows.get(id) as StoredRow));
  }

  /** One row, or undefined. @example `driver.row('readings', 's1#…')?.cells.m?.temp` */
  row(table: string, key: Buffer | string): RowData | undefined {
    const stored = this.#tables.get(table)?.rows.get(toId(key));
    return stored === undefined ? undefined : toRowData(stored);
  }

  // ---- admin ---------------------------------------------------------------

  async listTables(call?: CallOptions): Promise<string[]> {
    this.#begin({ method: 'listTables' }, call);
    return [...this.#tables.keys()].sort();
  }

  async getFamilies(table: string, call?: CallOptions): Promise<ActualFamily[] | undefined> {
    this.#begin({ method: 'getFamilies', table }, call);
    const t = this.#tables.get(table);
    if (t === undefined) return undefined;
    const names = t.families !== undefined ? [...t.families.keys()] : familiesInRows(t);
    return names.sort().map((name) => ({ name, gc: t.families?.get(name) }));
  }

  async createTable(
    table: string,
    families: readonly ActualFamily[],
    call?: CallOptions,
    rowKeySchema?: RowKeySchema,
  ): Promise<void> {
    this.#begin(
      { method: 'createTable', table, families, ...(rowKeySchema === undefined ? {} : { rowKeySchema }) },
      call,
    );
    if (this.#tables.has(table))
      throw grpcError('createTable', GrpcCode.AlreadyExists, `table ${table} already exists`);
    this.#tables.set(table, {
      families: new Map(families.map((f) => [f.name, f.gc])),
      rows: new Map(),
      sorted: undefined,
    });
  }

  async createFamily(table: string, family: ActualFamily, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'createFamily', table, family }, call);
    const families = this.#families('createFamily', table);
    if (families.has(family.name))
      throw grpcError('createFamily', GrpcCode.AlreadyExists, `family ${family.name} already exists`);
    families.set(family.name, family.gc);
  }

  async setFamilyGc(table: string, family: string, gc: GcRule | undefined, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'setFamilyGc', table, family, gc }, call);
    const families = this.#families('setFamilyGc', table);
    if (!families.has(family)) throw grpcError('setFamilyGc', GrpcCode.NotFound, `family ${family} not found`);
    families.set(family, gc);
  }

  async deleteFamily(table: string, family: string, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'deleteFamily', table, family }, call);
    const families = this.#families('deleteFamily', table);
    if (!families.delete(family)) throw grpcError('deleteFamily', GrpcCode.NotFound, `family ${family} not found`);
    const t = this.#tables.get(table) as FakeTable;
    for (const [id, row] of t.rows) this.#store(t, id, row.key, row.cells, (c) => c.family !== family);
  }

  async deleteTable(table: string, call?: CallOptions): Promise<void> {
    this.#begin({ method: 'deleteTable', table }, call);
    if (!this.#tables.delete(table)) throw grpcError('deleteTable', GrpcCode.NotFound, `table ${table} not found`);
  }

  /** Marks the driver closed: reads, open or new, then reject with `OperationAbortedError` when pulled. */
  async close(): Promise<void> {
    this.calls.push({ method: 'close' });
    this.closed = true;
  }

  // ---- data ----------------------------------------------------------------

  async mutateRow(mutation: CompiledMutation, call?: CallOptions): Promise<void> {
    return this.#dataCall({ method: 'mutateRow', mutation }, call, () => {
      if (mutation.mutations.length === 0) return;
      this.#existing('mutateRow', mutation.table);
      this.#write('mutateRow', mutation.table, mutation.rowKey, mutation.mutations);
    });
  }

  async mutateRows(
    table: string,
    mutations: readonly CompiledMutation[],
    call?: CallOptions,
  ): Promise<RowMutationFailure[]> {
    return this.#dataCall({ method: 'mutateRows', table, mutations }, call, () => {
      const stray = mutations.findIndex((m) => m.table !== table);
      if (stray >= 0) {
        throw new ValidationError(
          `mutateRows ${JSON.stringify(table)}: mutation #${stray} targets another table. Fix: send one table's mutations per call.`,
          { table, index: stray },
        );
      }
      const total = mutations.reduce((n, m) => n + m.mutations.length, 0);
      if (total === 0) return [];
      if (total > MAX_MUTATIONS_PER_REQUEST) {
        const message = `too many mutations in one request: ${total} > ${MAX_MUTATIONS_PER_REQUEST}`;
        throw grpcError('mutateRows', GrpcCode.InvalidArgument, message);
      }
      this.#existing('mutateRows', table);
      const failures: RowMutationFailure[] = [];
      mutations.forEach((m, index) => {
        const problem = m.mutations.length === 0 ? undefined : this.#problem(table, m.rowKey, m.mutations);
        if (problem !== undefined) failures.push({ index, grpcCode: problem.grpcCode, message: problem.message });
        else this.#commit(table, m.rowKey, m.mutations);
      });
      return failures;
    });
  }

  readRows(request: ReadRowsRequest, call?: CallOptions): RowSource<RowData> {
    const { limit } = request;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new ValidationError(
        `readRows ${JSON.stringify(request.table)}: limit ${String(limit)} is not a non-negative integer. Fix: pass a row count.`,
        { limit },
      );
    }
    this.calls.push({ method: 'readRows', request });
    const stats: ReadStats = { request, yielded: 0, cancelled: false, ended: false };
    this.reads.push(stats);
    const failure = this.#takeFailure('readRows');
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const pulled = (): void => {
      if (self.closed) throw new OperationAbortedError('readRows', 'the driver was closed');
      checkCall('readRows', call);
    };
    async function* rows(): AsyncGenerator<RowData> {
      await self.#enter();
      self.#leave();
      if (failure !== undefined) throw failure;
      pulled();
      const table = self.#existing('readRows', request.table);
      const selected = selection(request);
      const sorted = table === undefined ? [] : sortedIds(table);
      for (const id of request.reversed === true ? [...sorted].reverse() : sorted) {
        if (stats.cancelled) return;
        if (limit !== undefined && stats.yielded >= limit) break;
        const stored = table?.rows.get(id);
        if (stored === undefined || !selected(id, stored.key)) continue;
        const cells = request.filter === undefined ? stored.cells : applyFilter(request.filter, stored.cells);
        if (cells.length === 0) continue;
        pulled();
        if (stats.cancelled) return;
        stats.yielded += 1;
        yield toRowData({ key: stored.key, cells });
        if (self.#yield) await macrotask();
      }
      stats.ended = true;
    }
    return fromAsyncIterable(rows(), () => {
      stats.cancelled = true;
    });
  }

  async checkAndMutate(request: CheckAndMutateRequest, call?: CallOptions): Promise<boolean> {
    return this.#dataCall({ method: 'checkAndMutate', request }, call, () => {
      const { table, rowKey, predicate } = request;
      const stored = this.#existing('checkAndMutate', table)?.rows.get(toId(rowKey));
      const matched =
        stored !== undefined && (predicate === undefined || applyFilter(predicate, stored.cells).length > 0);
      const mutations = matched ? request.onMatch : request.onNoMatch;
      if (mutations.length > 0) this.#write('checkAndMutate', table, rowKey, mutations);
      return matched;
    });
  }

  async increment(
    table: string,
    rowKey: Buffer,
    rules: readonly IncrementRule[],
    call?: CallOptions,
  ): Promise<RowData> {
    return this.#dataCall({ method: 'increment', table, rowKey, rules }, call, () => {
      checkIncrementRules(table, rules);
      const stored = this.#existing('increment', table)?.rows.get(toId(rowKey));
      const nowMicros = Math.floor(this.#nowMs()) * 1000;
      const latest = new Map<string, Cell>();
      for (const { family, qualifier, amount } of rules) {
        const column = `${family}\u0000${qualifier}`;
        const previous =
          latest.get(column) ?? stored?.cells.find((c) => c.family === family && c.qualifier === qualifier);
        if (previous !== undefined && previous.value.length !== 8) {
          const message = `cell ${family}:${qualifier} is not a 64-bit big-endian integer`;
          throw grpcError('increment', GrpcCode.FailedPrecondition, message);
        }
        const value = Buffer.alloc(8);
        value.writeBigInt64BE(BigInt.asIntN(64, (previous?.value.readBigInt64BE() ?? 0n) + amount));
        const timestampMicros = Math.max(nowMicros, previous?.timestampMicros ?? 0);
        latest.set(column, { family, qualifier, timestampMicros, value });
      }
      const cells = [...latest.values()].sort(compareCells);
      this.#write(
        'increment',
        table,
        rowKey,
        cells.map((c) => ({ kind: 'setCell', ...c })),
      );
      return toRowData({ key: rowKey, cells });
    });
  }

  // ---- internals -----------------------------------------------------------

  async #enter(): Promise<void> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.#yield) await macrotask();
  }

  #leave(): void {
    this.inFlight -= 1;
  }

  #takeFailure(method: DriverMethod): unknown {
    const queue = this.#failures.get(method);
    return queue === undefined || queue.length === 0 ? undefined : queue.shift();
  }

  /** What every admin call does first: record it, honour its signal and deadline, and throw a failure queued by `failNext`. */
  #begin(entry: DriverCall, call: CallOptions | undefined): void {
    this.calls.push(entry);
    this.#check(entry.method, call);
  }

  #check(method: DriverMethod, call: CallOptions | undefined): void {
    checkCall(method, call);
    const failure = this.#takeFailure(method);
    if (failure !== undefined) throw failure;
  }

  /** A data call: recorded at once, then counted in flight (overlapping other callers unless `yieldInCalls` is false) while it runs. */
  async #dataCall<T>(entry: DriverCall, call: CallOptions | undefined, run: () => T): Promise<T> {
    this.calls.push(entry);
    await this.#enter();
    try {
      this.#check(entry.method, call);
      return run();
    } finally {
      this.#leave();
    }
  }

  /** Applies one row's mutations atomically, or throws the row's problem as a DriverError. */
  #write(method: DriverMethod, table: string, rowKey: Buffer, mutations: readonly CellMutation[]): void {
    const problem = this.#problem(table, rowKey, mutations);
    if (problem !== undefined) throw grpcError(method, problem.grpcCode, problem.message);
    this.#commit(table, rowKey, mutations);
  }

  /** The table a data call works on: `undefined` when missing and tables are implicit, otherwise `TableNotFoundError`. */
  #existing(method: DriverMethod, table: string): FakeTable | undefined {
    const t = this.#tables.get(table);
    if (t === undefined && !this.#implicitTables)
      throw new TableNotFoundError(
        `${method} ${JSON.stringify(table)}`,
        table,
        Object.assign(new Error(`table ${table} not found`), { code: GrpcCode.NotFound }),
      );
    return t;
  }

  /** The families of a table, for the admin calls that change them (a table born of writes gets those in its rows). */
  #families(method: DriverMethod, table: string): Map<string, GcRule | undefined> {
    const t = this.#tables.get(table);
    if (t === undefined) throw grpcError(method, GrpcCode.NotFound, `table ${table} not found`);
    t.families ??= new Map(familiesInRows(t).map((name) => [name, undefined]));
    return t.families;
  }

  #problem(table: string, rowKey: Buffer, mutations: readonly CellMutation[]): Problem | undefined {
    const rejected = this.#rejected.get(toId(rowKey));
    if (rejected !== undefined) return rejected;
    if (rowKey.length === 0) return { grpcCode: GrpcCode.InvalidArgument, message: 'row key must not be empty' };
    if (rowKey.length > MAX_ROW_KEY_BYTES)
      return {
        grpcCode: GrpcCode.InvalidArgument,
        message: `row key is ${rowKey.length} bytes, over ${MAX_ROW_KEY_BYTES}`,
      };
    const families = this.#tables.get(table)?.families;
    for (const m of mutations) {
      if (m.kind === 'deleteFromRow') continue;
      if (families !== undefined && !families.has(m.family))
        return { grpcCode: GrpcCode.NotFound, message: `family ${m.family} not found in table ${table}` };
      if (m.kind !== 'setCell') continue;
      const { timestampMicros } = m;
      if (
        timestampMicros !== SERVER_TIME &&
        (!Number.isSafeInteger(timestampMicros) || timestampMicros < 0 || timestampMicros % 1000 !== 0)
      ) {
        return {
          grpcCode: GrpcCode.InvalidArgument,
          message: `timestamp ${timestampMicros} is not a whole number of milliseconds in microseconds`,
        };
      }
      if (!Buffer.isBuffer(m.value))
        return { grpcCode: GrpcCode.InvalidArgument, message: 'cell value is not a Buffer' };
    }
    return undefined;
  }

  #commit(tableName: string, rowKey: Buffer, mutations: readonly CellMutation[]): void {
    let table = this.#tables.get(tableName);
    if (table === undefined) {
      table = { families: undefined, rows: new Map(), sorted: undefined };
      this.#tables.set(tableName, table);
    }
    const id = toId(rowKey);
    let cells = table.rows.get(id)?.cells ?? [];
    for (const m of mutations) cells = this.#apply(cells, m);
    this.#store(table, id, rowKey, cells, () => true);
  }

  #apply(cells: Cell[], m: CellMutation): Cell[] {
    switch (m.kind) {
      case 'deleteFromRow':
        return [];
      case 'deleteFromFamily':
        return cells.filter((c) => c.family !== m.family);
      case 'deleteFromColumn':
        return cells.filter((c) => c.family !== m.family || c.qualifier !== m.qualifier);
      case 'setCell': {
        const timestampMicros =
          m.timestampMicros === SERVER_TIME ? Math.floor(this.#nowMs()) * 1000 : m.timestampMicros;
        const kept = cells.filter(
          (c) => c.family !== m.family || c.qualifier !== m.qualifier || c.timestampMicros !== timestampMicros,
        );
        return [...kept, { family: m.family, qualifier: m.qualifier, timestampMicros, value: Buffer.from(m.value) }];
      }
    }
  }

  /** Stores a row's cells that pass `keep`, in Bigtable's order; a row left without cells is gone. */
  #store(table: FakeTable, id: string, key: Buffer, cells: readonly Cell[], keep: (cell: Cell) => boolean): void {
    const kept = cells.filter(keep).sort(compareCells);
    const existing = table.rows.get(id);
    if (kept.length > 0 && existing !== undefined) existing.cells = kept;
    else if (kept.length > 0) table.rows.set(id, { key: Buffer.from(key), cells: kept });
    else if (existing !== undefined) table.rows.delete(id);
    if ((existing === undefined) !== (kept.length === 0)) table.sorted = undefined;
  }
}

/** Rejects like the real driver does before sending a ReadModifyWriteRow. */
function checkIncrementRules(table: string, rules: readonly IncrementRule[]): void {
  if (rules.length === 0)
    throw new ValidationError(`increment ${JSON.stringify(table)}: no rules. Fix: pass at least one IncrementRule.`, {
      table,
    });
  for (const rule of rules) {
    if (typeof rule.amount !== 'bigint' || rule.amount < INT64_MIN || rule.amount > INT64_MAX) {
      throw new ValidationError(
        `increment ${JSON.stringify(table)}: amount of ${rule.family}:${rule.qualifier} is not an int64 bigint. Fix: pass a bigint in [-2^63, 2^63-1].`,
        { table, family: rule.family, qualifier: rule.qualifier },
      );
    }
  }
}

function checkCall(operation: string, call: CallOptions | undefined): void {
  throwIfAborted(call?.signal, operation);
  if (call?.deadline !== undefined && call.deadline <= Date.now())
    throw new DeadlineExceededError(operation, 0, 'total');
}

/** Which rows a request reads: every row without `keys` and `ranges`, otherwise those keys and ranges. */
function selection(request: ReadRowsRequest): (id: string, key: Buffer) => boolean {
  if (request.keys === undefined && request.ranges === undefined) return () => true;
  const keys = new Set((request.keys ?? []).map(toId));
  const ranges = request.ranges ?? [];
  return (id, key) => keys.has(id) || ranges.some((r) => inRange(key, r));
}

/** Row keys as binary strings: JS string order is then byte order. */
function toId(key: Buffer | string): string {
  return (typeof key === 'string' ? Buffer.from(key, 'utf8') : key).toString('latin1');
}

function sortedIds(table: FakeTable): string[] {
  table.sorted ??= [...table.rows.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return table.sorted;
}

function familiesInRows(table: FakeTable): string[] {
  const names = new Set<string>();
  for (const row of table.rows.values()) for (const cell of row.cells) names.add(cell.family);
  return [...names];
}

function inRange(key: Buffer, range: KeyRange): boolean {
  const start = Buffer.compare(key, range.start.key);
  if (start < 0 || (start === 0 && !range.start.inclusive)) return false;
  if (range.end === undefined) return true;
  const end = Buffer.compare(key, range.end.key);
  return end < 0 || (end === 0 && range.end.inclusive);
}

/** Bigtable's cell order: family, then qualifier bytes, then newest first. */
function compareCells(a: Cell, b: Cell): number {
  if (a.family !== b.family) return a.family < b.family ? -1 : 1;
  return Buffer.compare(Buffer.from(a.qualifier), Buffer.from(b.qualifier)) || b.timestampMicros - a.timestampMicros;
}

/** A row filter over one row's cells, in Bigtable's cell order; no cell left means Bigtable omits the row. */
function applyFilter(filter: RowFilter, cells: readonly Cell[]): readonly Cell[] {
  switch (filter.kind) {
    case 'passAll':
      return cells;
    case 'blockAll':
      return [];
    case 'condition':
      return applyFilter(applyFilter(filter.test, cells).length > 0 ? filter.pass : filter.fail, cells);
    case 'chain':
      return filter.filters.reduce((acc, f) => applyFilter(f, acc), cells);
    case 'interleave':
      // Every branch's output, merged in cell order: a cell output by two branches comes twice, as on Bigtable.
      return filter.filters.flatMap((f) => applyFilter(f, cells)).sort(compareCells);
    case 'family':
      return cells.filter((c) => c.family === filter.name);
    case 'qualifiers':
      return cells.filter((c) => filter.names.includes(c.qualifier));
    case 'cellsPerColumn': {
      const seen = new Map<string, number>();
      return cells.filter((c) => {
        const column = `${c.family}\u0000${c.qualifier}`;
        const n = (seen.get(column) ?? 0) + 1;
        seen.set(column, n);
        return n <= filter.limit;
      });
    }
    case 'timestampRange':
      return cells.filter(
        (c) =>
          (filter.startMicros === undefined || c.timestampMicros >= filter.startMicros) &&
          (filter.endMicros === undefined || c.timestampMicros < filter.endMicros),
      );
    case 'valueEquals':
      return cells.filter((c) => c.value.equals(filter.value));
    case 'stripValue':
      return cells.map((c) => ({ ...c, value: Buffer.alloc(0) }));
  }
}

function toRowData(row: { readonly key: Buffer; readonly cells: readonly Cell[] }): RowData {
  const cells: Record<string, Record<string, CellData[]>> = {};
  for (const c of row.cells)
    ((cells[c.family] ??= {})[c.qualifier] ??= []).push({
      value: Buffer.from(c.value),
      timestampMicros: c.timestampMicros,
    });
  return { key: Buffer.from(row.key), cells };
}

function grpcError(operation: string, code: number, message: string): DriverError {
  return new DriverError(operation, Object.assign(new Error(message), { code }), code);
}

function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
