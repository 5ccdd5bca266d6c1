import type {
  ActualFamily,
  CheckAndMutateRequest,
  IncrementRule,
  RowData,
  RowMutationFailure,
} from '../model/driver.js';
import type { CellMutation, CompiledMutation } from '../model/mutation.js';
import type { GcRule } from '../model/gc-rule.js';
import type { AggregateKind } from '../model/declarations.js';
import { TableNotFoundError, ValidationError } from '../errors/errors.js';
import { applyFilter, collectCells, compareCells, toRowData, type Cell } from './in-memory-cells.js';
import {
  checkIncrementRules,
  grpcError,
  MAX_MUTATIONS_PER_REQUEST,
  SERVER_TIME,
  writeProblem,
  type WriteProblem,
} from './in-memory-checks.js';
import { MemoryTable, toId, type StoredRow } from './in-memory-table.js';
import { GrpcCode } from './grpc-code.js';
import type { DriverMethod } from './recorded-call.js';

/**
 * The state of an in-memory Bigtable instance, its tables and rows, and what
 * each call does to it, synchronously and atomically: `InMemoryBigtable` adds
 * the calls' timing, options, recording and injected failures around it.
 *
 * @example
 * ```ts
 * const instance = new MemoryInstance(() => Date.now(), false);
 * instance.createTable('t', [{ name: 'f', gc: undefined }]);
 * instance.mutateRow(mutation);
 * ```
 * @internal
 */
export class MemoryInstance {
  readonly #tables = new Map<string, MemoryTable>();
  readonly #rejected = new Map<string, WriteProblem>();
  /** The aggregate families of each table (table → family → aggregate). */
  readonly #aggregates = new Map<string, Map<string, AggregateKind>>();
  readonly #nowMs: () => number;
  readonly #implicitTables: boolean;

  constructor(nowMs: () => number, implicitTables: boolean) {
    this.#nowMs = nowMs;
    this.#implicitTables = implicitTables;
  }

  /** Makes every later write of the row fail with `problem`. */
  reject(rowKey: Buffer | string, problem: WriteProblem): void {
    this.#rejected.set(toId(rowKey), problem);
  }

  /** Writes mutations as they are, creating the table if needed. */
  seed(mutations: readonly CompiledMutation[]): void {
    for (const m of mutations) this.#commit(m.table, m.rowKey, m.mutations);
  }

  /** Every row of a table, in key order, unfiltered. */
  rows(table: string): RowData[] {
    const t = this.#tables.get(table);
    if (t === undefined) return [];
    return t.ids().map((id) => toRowData(t.get(id) as StoredRow));
  }

  /** One row, unfiltered, or undefined. */
  row(table: string, key: Buffer | string): RowData | undefined {
    const stored = this.#tables.get(table)?.get(toId(key));
    return stored === undefined ? undefined : toRowData(stored);
  }

  /** One GC pass over every table (or `table`) at the clock; the number of cells deleted. */
  collectGarbage(table: string | undefined): number {
    const nowMicros = Math.floor(this.#nowMs()) * 1000;
    let collected = 0;
    for (const [name, t] of this.#tables) {
      if ((table !== undefined && name !== table) || t.families === undefined) continue;
      for (const [id, row] of [...t.entries()]) {
        const kept = collectCells(row.cells, t.families, nowMicros);
        if (kept.length === row.cells.length) continue;
        collected += row.cells.length - kept.length;
        t.put(id, row.key, kept);
      }
    }
    return collected;
  }

  // ---- admin ---------------------------------------------------------------

  tableIds(): string[] {
    return [...this.#tables.keys()].sort();
  }

  families(table: string): ActualFamily[] | undefined {
    const t = this.#tables.get(table);
    if (t === undefined) return undefined;
    const names = t.families !== undefined ? [...t.families.keys()] : t.familiesInRows();
    const aggregates = this.#aggregates.get(table);
    return names.sort().map((name) => {
      const aggregate = aggregates?.get(name);
      return aggregate === undefined
        ? { name, gc: t.families?.get(name) }
        : { name, gc: t.families?.get(name), aggregate };
    });
  }

  createTable(table: string, families: readonly ActualFamily[]): void {
    if (this.#tables.has(table))
      throw grpcError('createTable', GrpcCode.AlreadyExists, `table ${table} already exists`);
    this.#tables.set(table, new MemoryTable(new Map(families.map((f) => [f.name, f.gc]))));
    this.#aggregates.delete(table);
    for (const family of families) this.#setAggregate(table, family);
  }

  createFamily(table: string, family: ActualFamily): void {
    const families = this.#familiesOf('createFamily', table);
    if (families.has(family.name))
      throw grpcError('createFamily', GrpcCode.AlreadyExists, `family ${family.name} already exists`);
    families.set(family.name, family.gc);
    this.#setAggregate(table, family);
  }

  /** Records a new family's aggregate (its value type, fixed from its creation). */
  #setAggregate(table: string, family: ActualFamily): void {
    if (family.aggregate === undefined) return;
    let aggregates = this.#aggregates.get(table);
    if (aggregates === undefined) {
      aggregates = new Map();
      this.#aggregates.set(table, aggregates);
    }
    aggregates.set(family.name, family.aggregate);
  }

  setFamilyGc(table: string, family: string, gc: GcRule | undefined): void {
    const families = this.#familiesOf('setFamilyGc', table);
    if (!families.has(family)) throw grpcError('setFamilyGc', GrpcCode.NotFound, `family ${family} not found`);
    families.set(family, gc);
  }

  deleteFamily(table: string, family: string): void {
    const families = this.#familiesOf('deleteFamily', table);
    if (!families.delete(family)) throw grpcError('deleteFamily', GrpcCode.NotFound, `family ${family} not found`);
    this.#aggregates.get(table)?.delete(family);
    const t = this.#tables.get(table) as MemoryTable;
    for (const [id, row] of [...t.entries()])
      t.put(
        id,
        row.key,
        row.cells.filter((c) => c.family !== family),
      );
  }

  deleteTable(table: string): void {
    if (!this.#tables.delete(table)) throw grpcError('deleteTable', GrpcCode.NotFound, `table ${table} not found`);
    this.#aggregates.delete(table);
  }

  // ---- data ----------------------------------------------------------------

  /** The table a data call works on: `undefined` when missing and tables are implicit, otherwise `TableNotFoundError`. */
  existing(method: DriverMethod, table: string): MemoryTable | undefined {
    const t = this.#tables.get(table);
    if (t === undefined && !this.#implicitTables)
      throw new TableNotFoundError(
        `${method} ${JSON.stringify(table)}`,
        table,
        Object.assign(new Error(`table ${table} not found`), { code: GrpcCode.NotFound }),
      );
    return t;
  }

  mutateRow(mutation: CompiledMutation): void {
    if (mutation.mutations.length === 0) return;
    this.existing('mutateRow', mutation.table);
    this.#write('mutateRow', mutation.table, mutation.rowKey, mutation.mutations);
  }

  mutateRows(table: string, mutations: readonly CompiledMutation[]): RowMutationFailure[] {
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
    this.existing('mutateRows', table);
    const failures: RowMutationFailure[] = [];
    mutations.forEach((m, index) => {
      const problem = m.mutations.length === 0 ? undefined : this.#problem(table, m.rowKey, m.mutations);
      if (problem !== undefined) failures.push({ index, grpcCode: problem.grpcCode, message: problem.message });
      else this.#commit(table, m.rowKey, m.mutations);
    });
    return failures;
  }

  checkAndMutate(request: CheckAndMutateRequest): boolean {
    const { table, rowKey, predicate } = request;
    const stored = this.existing('checkAndMutate', table)?.get(toId(rowKey));
    const matched =
      stored !== undefined && (predicate === undefined || applyFilter(predicate, stored.cells).length > 0);
    const mutations = matched ? request.onMatch : request.onNoMatch;
    if (mutations.length > 0) this.#write('checkAndMutate', table, rowKey, mutations);
    return matched;
  }

  increment(table: string, rowKey: Buffer, rules: readonly IncrementRule[]): RowData {
    checkIncrementRules(table, rules);
    const stored = this.existing('increment', table)?.get(toId(rowKey));
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
      cells.map((c): CellMutation => ({ kind: 'setCell', ...c })),
    );
    return toRowData({ key: rowKey, cells });
  }

  // ---- internals -----------------------------------------------------------

  /** The families of a table, for the admin calls that change them (a table born of writes gets those in its rows). */
  #familiesOf(method: DriverMethod, table: string): Map<string, GcRule | undefined> {
    const t = this.#tables.get(table);
    if (t === undefined) throw grpcError(method, GrpcCode.NotFound, `table ${table} not found`);
    t.families ??= new Map(t.familiesInRows().map((name) => [name, undefined]));
    return t.families;
  }

  /** Applies one row's mutations atomically, or throws the row's problem as a DriverError. */
  #write(method: DriverMethod, table: string, rowKey: Buffer, mutations: readonly CellMutation[]): void {
    const problem = this.#problem(table, rowKey, mutations);
    if (problem !== undefined) throw grpcError(method, problem.grpcCode, problem.message);
    this.#commit(table, rowKey, mutations);
  }

  #problem(table: string, rowKey: Buffer, mutations: readonly CellMutation[]): WriteProblem | undefined {
    return (
      this.#rejected.get(toId(rowKey)) ??
      writeProblem(table, rowKey, mutations, this.#tables.get(table)?.families) ??
      aggregateProblem(mutations, this.#aggregates.get(table))
    );
  }

  #commit(tableName: string, rowKey: Buffer, mutations: readonly CellMutation[]): void {
    let table = this.#tables.get(tableName);
    if (table === undefined) {
      table = new MemoryTable(undefined);
      this.#tables.set(tableName, table);
    }
    const id = toId(rowKey);
    let cells: readonly Cell[] = table.get(id)?.cells ?? [];
    const aggregates = this.#aggregates.get(tableName);
    for (const m of mutations) cells = this.#apply(cells, m, aggregates);
    table.put(id, rowKey, cells);
  }

  #apply(
    cells: readonly Cell[],
    m: CellMutation,
    aggregates: ReadonlyMap<string, AggregateKind> | undefined,
  ): readonly Cell[] {
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
      case 'addToCell':
      case 'mergeToCell': {
        const at = (c: Cell): boolean =>
          c.family === m.family && c.qualifier === m.qualifier && c.timestampMicros === m.timestampMicros;
        const previous = cells.find(at);
        const input = m.kind === 'addToCell' ? m.input : m.state.readBigInt64BE();
        const kind = aggregates?.get(m.family) as 'sum' | 'min' | 'max';
        const value = Buffer.alloc(8);
        value.writeBigInt64BE(foldAggregate(kind, previous?.value.readBigInt64BE(), input));
        const kept = cells.filter((c) => !at(c));
        return [...kept, { family: m.family, qualifier: m.qualifier, timestampMicros: m.timestampMicros, value }];
      }
    }
  }
}

/**
 * A `sum`, `min` or `max` state after one more int64 input, wrapping on
 * overflow as Bigtable's int64 sum does (the emulator, measured, wraps too).
 */
function foldAggregate(kind: 'sum' | 'min' | 'max', state: bigint | undefined, input: bigint): bigint {
  if (state === undefined) return input;
  if (kind === 'min') return input < state ? input : state;
  if (kind === 'max') return input > state ? input : state;
  return BigInt.asIntN(64, state + input);
}

/**
 * Why aggregate mutations cannot apply: an input to a family that is not an
 * aggregate family (gRPC 3), a state that is not 8 bytes for `sum`, `min` or
 * `max`, or an `hll` family, whose sketches this in-memory Bigtable does not
 * implement (gRPC 12, UNIMPLEMENTED: test HyperLogLog on the emulator or
 * Bigtable).
 */
function aggregateProblem(
  mutations: readonly CellMutation[],
  aggregates: ReadonlyMap<string, AggregateKind> | undefined,
): WriteProblem | undefined {
  for (const m of mutations) {
    if (m.kind !== 'addToCell' && m.kind !== 'mergeToCell') continue;
    const kind = aggregates?.get(m.family);
    if (kind === undefined)
      return {
        grpcCode: GrpcCode.InvalidArgument,
        message: `${m.kind} on family ${m.family}, which is not an aggregate family`,
      };
    if (kind === 'hll')
      return {
        grpcCode: GrpcCode.Unimplemented,
        message: `family ${m.family} is an hll aggregate: the in-memory Bigtable does not implement HyperLogLog sketches (test them on the emulator)`,
      };
    if (m.kind === 'addToCell' && (m.input < -(2n ** 63n) || m.input >= 2n ** 63n))
      return { grpcCode: GrpcCode.InvalidArgument, message: `input ${m.input} is outside int64` };
    if (m.kind === 'mergeToCell' && m.state.length !== 8)
      return { grpcCode: GrpcCode.InvalidArgument, message: `a ${kind} state is 8 bytes, got ${m.state.length}` };
    if (!Number.isSafeInteger(m.timestampMicros) || m.timestampMicros < 0 || m.timestampMicros % 1000 !== 0)
      return {
        grpcCode: GrpcCode.InvalidArgument,
        message: `timestamp ${m.timestampMicros} is not a whole number of milliseconds in microseconds`,
      };
  }
  return undefined;
}
