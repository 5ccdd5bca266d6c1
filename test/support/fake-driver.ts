import type {
  ActualFamily,
  BigtableDriver,
  CellData,
  CheckAndMutateRequest,
  IncrementRule,
  KeyRange,
  ReadRowsRequest,
  RowData,
  RowMutationFailure,
} from '../../src/model/driver.js';
import type { RowFilter } from '../../src/model/row-filter.js';
import { DriverError } from '../../src/errors/driver-error.js';
import type { CellMutation, CompiledMutation } from '../../src/model/mutation.js';
import { fromAsyncIterable, type RowSource } from '../../src/stream/row-source.js';
import type { GcRule } from '../../src/model/gc-rule.js';

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

/** Bigtable's per-request mutation cap (enforced by the fake like the real service). */
const MAX_MUTATIONS_PER_REQUEST = 100_000;
/** Bigtable's row key limit. */
const MAX_ROW_KEY_BYTES = 4096;

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
  | { readonly method: 'createTable'; readonly table: string; readonly families: readonly ActualFamily[] }
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
  /** Server clock in milliseconds, used for increments. Default `Date.now`. */
  readonly nowMs?: () => number;
  /** Await a macrotask in every data call, so concurrent callers really overlap. Default true. */
  readonly yieldInCalls?: boolean;
}

interface Cell {
  family: string;
  qualifier: string;
  timestampMicros: number;
  value: Buffer;
}

/** family → qualifier → timestamp (µs) → value. Versions are sorted when read. */
type StoredRow = Map<string, Map<string, Map<number, Buffer>>>;

interface FakeTable {
  /** Families, when the table was created through the admin API (then writes to other families fail). */
  declared: Map<string, GcRule | undefined> | undefined;
  rows: Map<string, { key: Buffer; cells: StoredRow }>;
  sorted: string[] | undefined;
}

/**
 * An in-memory {@link BigtableDriver} for unit tests: rows sorted by key bytes,
 * cells per family/qualifier newest first, and every call recorded in `calls`.
 *
 * - `mutateRow`/`mutateRows` apply atomically per row; `reject(key, code)`
 *   makes writes of a row key fail with a gRPC code (thrown by `mutateRow`,
 *   reported as an entry failure by `mutateRows`); `failNext('mutateRows', err)`
 *   makes the next whole call throw. More than 100,000 mutations in one call or
 *   keys over 4 KiB are rejected like the real service does.
 * - `readRows` honours ranges, keys, limit and the {@link RowFilter} kinds the
 *   mapper uses; it is pull-based and records cancellation in `reads`.
 * - Tables spring into existence on first write; a table created with
 *   `createTable` rejects writes to undeclared families (gRPC 5). Reading a
 *   missing table yields no rows.
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
  readonly #rejected = new Map<string, { grpcCode: number; message: string }>();
  readonly #failures = new Map<DriverMethod, unknown[]>();
  readonly #nowMs: () => number;
  readonly #yield: boolean;

  constructor(options: FakeDriverOptions = {}) {
    this.#nowMs = options.nowMs ?? Date.now;
    this.#yield = options.yieldInCalls ?? true;
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

  /** Writes mutations directly, without recording a call. @example `driver.seed(compileSave(schema, e))` */
  seed(...mutations: CompiledMutation[]): void {
    for (const m of mutations) this.#commit(m.table, m.rowKey, m.mutations);
  }

  /** Every row of a table in key order, as readRows would return it unfiltered. @example `driver.rows('readings').length` */
  rows(table: string): RowData[] {
    const t = this.#tables.get(table);
    if (t === undefined) return [];
    return sortedIds(t).map((id) => toRowData(t.rows.get(id)!));
  }

  /** One row, or undefined. @example `driver.row('readings', 's1#…')?.cells.m?.temp` */
  row(table: string, key: Buffer | string): RowData | undefined {
    const stored = this.#tables.get(table)?.rows.get(toId(key));
    return stored === undefined ? undefined : toRowData(stored);
  }

  // ---- admin ---------------------------------------------------------------

  async listTables(): Promise<string[]> {
    this.calls.push({ method: 'listTables' });
    this.#maybeFail('listTables');
    return [...this.#tables.keys()].sort();
  }

  async getFamilies(table: string): Promise<ActualFamily[] | undefined> {
    this.calls.push({ method: 'getFamilies', table });
    this.#maybeFail('getFamilies');
    const t = this.#tables.get(table);
    if (t === undefined) return undefined;
    const names = t.declared !== undefined ? [...t.declared.keys()] : familiesInRows(t);
    return names.sort().map((name) => ({ name, gc: t.declared?.get(name) }));
  }

  async createTable(table: string, families: readonly ActualFamily[]): Promise<void> {
    this.calls.push({ method: 'createTable', table, families });
    this.#maybeFail('createTable');
    if (this.#tables.has(table))
      throw grpcError('createTable', GrpcCode.AlreadyExists, `table ${table} already exists`);
    this.#tables.set(table, {
      declared: new Map(families.map((f) => [f.name, f.gc])),
      rows: new Map(),
      sorted: undefined,
    });
  }

  async createFamily(table: string, family: ActualFamily): Promise<void> {
    this.calls.push({ method: 'createFamily', table, family });
    this.#maybeFail('createFamily');
    const t = this.#declaredTable('createFamily', table);
    if (t.has(family.name))
      throw grpcError('createFamily', GrpcCode.AlreadyExists, `family ${family.name} already exists`);
    t.set(family.name, family.gc);
  }

  async setFamilyGc(table: string, family: string, gc: GcRule | undefined): Promise<void> {
    this.calls.push({ method: 'setFamilyGc', table, family, gc });
    this.#maybeFail('setFamilyGc');
    const t = this.#declaredTable('setFamilyGc', table);
    if (!t.has(family)) throw grpcError('setFamilyGc', GrpcCode.NotFound, `family ${family} not found`);
    t.set(family, gc);
  }

  async deleteFamily(table: string, family: string): Promise<void> {
    this.calls.push({ method: 'deleteFamily', table, family });
    this.#maybeFail('deleteFamily');
    const t = this.#declaredTable('deleteFamily', table);
    t.delete(family);
    for (const row of this.#tables.get(table)!.rows.values()) row.cells.delete(family);
    this.#dropEmptyRows(this.#tables.get(table)!);
  }

  async deleteTable(table: string): Promise<void> {
    this.calls.push({ method: 'deleteTable', table });
    this.#maybeFail('deleteTable');
    if (!this.#tables.delete(table)) throw grpcError('deleteTable', GrpcCode.NotFound, `table ${table} not found`);
  }

  async close(): Promise<void> {
    this.calls.push({ method: 'close' });
    this.closed = true;
  }

  // ---- data ----------------------------------------------------------------

  async mutateRow(mutation: CompiledMutation): Promise<void> {
    this.calls.push({ method: 'mutateRow', mutation });
    await this.#enter();
    try {
      this.#maybeFail('mutateRow');
      const problem = this.#problem(mutation.table, mutation.rowKey, mutation.mutations);
      if (problem !== undefined) throw grpcError('mutateRow', problem.grpcCode, problem.message);
      this.#commit(mutation.table, mutation.rowKey, mutation.mutations);
    } finally {
      this.#leave();
    }
  }

  async mutateRows(table: string, mutations: readonly CompiledMutation[]): Promise<RowMutationFailure[]> {
    this.calls.push({ method: 'mutateRows', table, mutations });
    await this.#enter();
    try {
      this.#maybeFail('mutateRows');
      const total = mutations.reduce((n, m) => n + m.mutations.length, 0);
      if (total > MAX_MUTATIONS_PER_REQUEST) {
        throw grpcError(
          'mutateRows',
          GrpcCode.InvalidArgument,
          `too many mutations in one request: ${total} > ${MAX_MUTATIONS_PER_REQUEST}`,
        );
      }
      const failures: RowMutationFailure[] = [];
      mutations.forEach((m, index) => {
        const problem = this.#problem(table, m.rowKey, m.mutations);
        if (problem !== undefined) failures.push({ index, grpcCode: problem.grpcCode, message: problem.message });
        else this.#commit(table, m.rowKey, m.mutations);
      });
      return failures;
    } finally {
      this.#leave();
    }
  }

  readRows(request: ReadRowsRequest): RowSource<RowData> {
    this.calls.push({ method: 'readRows', request });
    const stats: ReadStats = { request, yielded: 0, cancelled: false, ended: false };
    this.reads.push(stats);
    const failure = this.#takeFailure('readRows');
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    async function* rows(): AsyncGenerator<RowData> {
      await self.#enter();
      self.#leave();
      if (failure !== undefined) throw failure;
      const table = self.#tables.get(request.table);
      if (table === undefined) {
        stats.ended = true;
        return;
      }
      const keys = request.keys === undefined ? undefined : new Set(request.keys.map(toId));
      const ranges = request.ranges;
      const everything = keys === undefined && ranges === undefined;
      for (const id of sortedIds(table)) {
        if (stats.cancelled) return;
        if (request.limit !== undefined && stats.yielded >= request.limit) break;
        const stored = table.rows.get(id);
        if (stored === undefined) continue;
        const selected = everything || keys?.has(id) === true || (ranges ?? []).some((r) => inRange(stored.key, r));
        if (!selected) continue;
        const row = filterRow(stored, request.filter);
        if (row === undefined) continue;
        if (stats.cancelled) return;
        stats.yielded += 1;
        yield row;
        if (self.#yield) await macrotask();
      }
      stats.ended = true;
    }
    return fromAsyncIterable(rows(), () => {
      stats.cancelled = true;
    });
  }

  async checkAndMutate(request: CheckAndMutateRequest): Promise<boolean> {
    this.calls.push({ method: 'checkAndMutate', request });
    await this.#enter();
    try {
      this.#maybeFail('checkAndMutate');
      const stored = this.#tables.get(request.table)?.rows.get(toId(request.rowKey));
      const matched = stored !== undefined && filterRow(stored, request.predicate) !== undefined;
      const mutations = matched ? request.onMatch : request.onNoMatch;
      if (mutations.length > 0) {
        const problem = this.#problem(request.table, request.rowKey, mutations);
        if (problem !== undefined) throw grpcError('checkAndMutate', problem.grpcCode, problem.message);
        this.#commit(request.table, request.rowKey, mutations);
      }
      return matched;
    } finally {
      this.#leave();
    }
  }

  async increment(table: string, rowKey: Buffer, rules: readonly IncrementRule[]): Promise<RowData> {
    this.calls.push({ method: 'increment', table, rowKey, rules });
    await this.#enter();
    try {
      this.#maybeFail('increment');
      const rejected = this.#rejected.get(toId(rowKey));
      if (rejected !== undefined) throw grpcError('increment', rejected.grpcCode, rejected.message);
      const stored = this.#tables.get(table)?.rows.get(toId(rowKey));
      const nowMicros = this.#nowMs() * 1000;
      const writes: CellMutation[] = [];
      const result: Record<string, Record<string, CellData[]>> = {};
      for (const rule of rules) {
        const latest = newestCell(stored?.cells.get(rule.family)?.get(rule.qualifier));
        if (latest !== undefined && latest.value.length !== 8) {
          throw grpcError(
            'increment',
            GrpcCode.FailedPrecondition,
            `cell ${rule.family}:${rule.qualifier} is not a 64-bit big-endian integer`,
          );
        }
        const next = BigInt.asIntN(64, (latest === undefined ? 0n : latest.value.readBigInt64BE()) + rule.amount);
        const value = Buffer.alloc(8);
        value.writeBigInt64BE(next);
        const timestampMicros = Math.max(nowMicros, latest?.timestampMicros ?? 0);
        writes.push({ kind: 'setCell', family: rule.family, qualifier: rule.qualifier, timestampMicros, value });
        (result[rule.family] ??= {})[rule.qualifier] = [{ value, timestampMicros }];
      }
      const problem = this.#problem(table, rowKey, writes);
      if (problem !== undefined) throw grpcError('increment', problem.grpcCode, problem.message);
      this.#commit(table, rowKey, writes);
      return { key: Buffer.from(rowKey), cells: result };
    } finally {
      this.#leave();
    }
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

  #maybeFail(method: DriverMethod): void {
    const failure = this.#takeFailure(method);
    if (failure !== undefined) throw failure;
  }

  #declaredTable(operation: string, table: string): Map<string, GcRule | undefined> {
    const t = this.#tables.get(table);
    if (t === undefined) throw grpcError(operation, GrpcCode.NotFound, `table ${table} not found`);
    t.declared ??= new Map(familiesInRows(t).map((name) => [name, undefined]));
    return t.declared;
  }

  #problem(
    table: string,
    rowKey: Buffer,
    mutations: readonly CellMutation[],
  ): { grpcCode: number; message: string } | undefined {
    const rejected = this.#rejected.get(toId(rowKey));
    if (rejected !== undefined) return rejected;
    if (rowKey.length === 0) return { grpcCode: GrpcCode.InvalidArgument, message: 'row key must not be empty' };
    if (rowKey.length > MAX_ROW_KEY_BYTES)
      return {
        grpcCode: GrpcCode.InvalidArgument,
        message: `row key is ${rowKey.length} bytes, over ${MAX_ROW_KEY_BYTES}`,
      };
    if (mutations.length === 0) return { grpcCode: GrpcCode.InvalidArgument, message: 'no mutations' };
    const declared = this.#tables.get(table)?.declared;
    for (const m of mutations) {
      if (m.kind === 'deleteFromRow') continue;
      if (declared !== undefined && !declared.has(m.family))
        return { grpcCode: GrpcCode.NotFound, message: `family ${m.family} not found in table ${table}` };
      if (
        m.kind === 'setCell' &&
        (!Number.isSafeInteger(m.timestampMicros) || m.timestampMicros < -1 || m.timestampMicros % 1000 !== 0)
      ) {
        return {
          grpcCode: GrpcCode.InvalidArgument,
          message: `timestamp ${m.timestampMicros} is not a whole number of milliseconds in microseconds`,
        };
      }
      if (m.kind === 'setCell' && !Buffer.isBuffer(m.value))
        return { grpcCode: GrpcCode.InvalidArgument, message: 'cell value is not a Buffer' };
    }
    return undefined;
  }

  #commit(tableName: string, rowKey: Buffer, mutations: readonly CellMutation[]): void {
    let table = this.#tables.get(tableName);
    if (table === undefined) {
      table = { declared: undefined, rows: new Map(), sorted: undefined };
      this.#tables.set(tableName, table);
    }
    const id = toId(rowKey);
    const existing = table.rows.get(id);
    const cells: StoredRow = existing === undefined ? new Map() : existing.cells;
    for (const m of mutations) applyMutation(cells, m);
    if (countCells(cells) === 0) {
      if (existing !== undefined) {
        table.rows.delete(id);
        table.sorted = undefined;
      }
      return;
    }
    if (existing === undefined) {
      table.rows.set(id, { key: Buffer.from(rowKey), cells });
      table.sorted = undefined;
    }
  }

  #dropEmptyRows(table: FakeTable): void {
    for (const [id, row] of table.rows) {
      if (countCells(row.cells) === 0) {
        table.rows.delete(id);
        table.sorted = undefined;
      }
    }
  }
}

function applyMutation(row: StoredRow, m: CellMutation): void {
  switch (m.kind) {
    case 'deleteFromRow':
      row.clear();
      return;
    case 'deleteFromFamily':
      row.delete(m.family);
      return;
    case 'deleteFromColumn':
      row.get(m.family)?.delete(m.qualifier);
      if (row.get(m.family)?.size === 0) row.delete(m.family);
      return;
    case 'setCell': {
      let family = row.get(m.family);
      if (family === undefined) row.set(m.family, (family = new Map()));
      let versions = family.get(m.qualifier);
      if (versions === undefined) family.set(m.qualifier, (versions = new Map()));
      versions.set(m.timestampMicros, Buffer.from(m.value));
    }
  }
}

function countCells(row: StoredRow): number {
  let n = 0;
  for (const family of row.values()) for (const cells of family.values()) n += cells.size;
  return n;
}

function newestCell(versions: Map<number, Buffer> | undefined): CellData | undefined {
  if (versions === undefined || versions.size === 0) return undefined;
  let timestampMicros = Number.NEGATIVE_INFINITY;
  for (const t of versions.keys()) if (t > timestampMicros) timestampMicros = t;
  return { value: versions.get(timestampMicros) as Buffer, timestampMicros };
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
  for (const row of table.rows.values()) for (const name of row.cells.keys()) names.add(name);
  return [...names];
}

function inRange(key: Buffer, range: KeyRange): boolean {
  const start = Buffer.compare(key, range.start.key);
  if (start < 0 || (start === 0 && !range.start.inclusive)) return false;
  if (range.end === undefined) return true;
  const end = Buffer.compare(key, range.end.key);
  return end < 0 || (end === 0 && range.end.inclusive);
}

function flatten(row: StoredRow): Cell[] {
  const cells: Cell[] = [];
  for (const family of [...row.keys()].sort()) {
    const qualifiers = row.get(family)!;
    const names = [...qualifiers.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    for (const qualifier of names) {
      const versions = qualifiers.get(qualifier)!;
      const stamps = [...versions.keys()].sort((a, b) => b - a);
      for (const timestampMicros of stamps)
        cells.push({ family, qualifier, timestampMicros, value: versions.get(timestampMicros)! });
    }
  }
  return cells;
}

/**
 * Applies a row filter to one row's cells (family, qualifier, newest first);
 * `undefined` when no cell is left (Bigtable then omits the row).
 */
function filterRow(stored: { key: Buffer; cells: StoredRow }, filter: RowFilter | undefined): RowData | undefined {
  const cells = filter === undefined ? flatten(stored.cells) : applyFilter(filter, flatten(stored.cells));
  if (cells.length === 0) return undefined;
  const out: Record<string, Record<string, CellData[]>> = {};
  for (const c of cells)
    ((out[c.family] ??= {})[c.qualifier] ??= []).push({
      value: Buffer.from(c.value),
      timestampMicros: c.timestampMicros,
    });
  return { key: Buffer.from(stored.key), cells: out };
}

function applyFilter(filter: RowFilter, cells: Cell[]): Cell[] {
  switch (filter.kind) {
    case 'passAll':
      return cells;
    case 'blockAll':
      return [];
    case 'condition':
      return applyFilter(applyFilter(filter.test, cells).length > 0 ? filter.pass : filter.fail, cells);
    case 'chain':
      return filter.filters.reduce((acc, f) => applyFilter(f, acc), cells);
    case 'interleave': {
      // Union of every branch's output in row order; a cell output by two branches is kept once.
      const seen = new Set<Cell>();
      for (const f of filter.filters) for (const c of applyFilter(f, cells)) seen.add(c);
      return [...seen].sort(compareCells);
    }
    case 'family':
      return cells.filter((c) => c.family === filter.name);
    case 'qualifiers':
      return cells.filter((c) => filter.names.includes(c.qualifier));
    case 'cellsPerColumn': {
      const counts = new Map<string, number>();
      return cells.filter((c) => {
        const id = `${c.family}\u0000${c.qualifier}`;
        const n = counts.get(id) ?? 0;
        counts.set(id, n + 1);
        return n < filter.limit;
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

function compareCells(a: Cell, b: Cell): number {
  if (a.family !== b.family) return a.family < b.family ? -1 : 1;
  return Buffer.compare(Buffer.from(a.qualifier), Buffer.from(b.qualifier)) || b.timestampMicros - a.timestampMicros;
}

function toRowData(stored: { key: Buffer; cells: StoredRow }): RowData {
  return filterRow(stored, undefined) ?? { key: Buffer.from(stored.key), cells: {} };
}

function grpcError(operation: string, code: number, message: string): DriverError {
  return new DriverError(operation, Object.assign(new Error(message), { code }), code);
}

function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
