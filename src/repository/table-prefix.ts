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
  RowMutationFailure,
  SetFamilyGcRequest,
  TableRequest,
} from '../model/driver.js';
import type { CompiledMutation } from '../model/mutation.js';
import type { BatchStream } from '../stream/batch-stream.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';

const PREFIX = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]*$/;
const MAX_TABLE_ID = 50;

/**
 * Checks a mapper's `tablePrefix`: `''` (no prefix) or the start of a
 * Bigtable table id, `[_a-zA-Z0-9][-_.a-zA-Z0-9]*`.
 * @internal
 */
export function checkTablePrefix(prefix: unknown): string {
  if (prefix === undefined) return '';
  if (typeof prefix !== 'string' || (prefix !== '' && !PREFIX.test(prefix)) || prefix.length >= MAX_TABLE_ID) {
    throw new ValidationError(
      `BigtableMapper: tablePrefix ${preview(prefix)} cannot start a Bigtable table id. Fix: use characters from [-_.a-zA-Z0-9], not starting with - or ., e.g. 'staging_'`,
      { option: 'tablePrefix' },
    );
  }
  return prefix;
}

/**
 * Checks that `entity`'s table id stays a valid table id with the prefix.
 * @internal
 */
export function checkPrefixedTable(prefix: string, entity: string, table: string): void {
  if (prefix.length + table.length <= MAX_TABLE_ID) return;
  throw new ValidationError(
    `${entity}: table ${JSON.stringify(prefix + table)} (tablePrefix ${JSON.stringify(prefix)} + ${JSON.stringify(table)}) is ${prefix.length + table.length} characters; Bigtable table ids are at most ${MAX_TABLE_ID}. Fix: shorten the tablePrefix or the table in @Entity({ table })`,
    { entity, table, tablePrefix: prefix },
  );
}

/**
 * A driver that puts `prefix` in front of every table id it passes on, so
 * that everything above it (reads, writes, denormalized copies, schema sync)
 * works on the prefixed tables while plans keep the entities' own table ids.
 * `listTables` lists only the prefixed tables, without the prefix.
 * @internal
 */
export class PrefixedDriver implements BigtableDriver {
  readonly #inner: BigtableDriver;
  readonly #prefix: string;

  constructor(inner: BigtableDriver, prefix: string) {
    this.#inner = inner;
    this.#prefix = prefix;
  }

  async listTables(request?: ListTablesRequest, options?: CallOptions): Promise<string[]> {
    const tables = await this.#inner.listTables(request, options);
    return tables.filter((t) => t.startsWith(this.#prefix)).map((t) => t.slice(this.#prefix.length));
  }

  getFamilies(request: TableRequest, options?: CallOptions): Promise<ActualFamily[] | undefined> {
    return this.#inner.getFamilies(this.#table(request), options);
  }

  createTable(request: CreateTableRequest, options?: CallOptions): Promise<void> {
    return this.#inner.createTable(this.#table(request), options);
  }

  createFamily(request: CreateFamilyRequest, options?: CallOptions): Promise<void> {
    return this.#inner.createFamily(this.#table(request), options);
  }

  setFamilyGc(request: SetFamilyGcRequest, options?: CallOptions): Promise<void> {
    return this.#inner.setFamilyGc(this.#table(request), options);
  }

  deleteFamily(request: DeleteFamilyRequest, options?: CallOptions): Promise<void> {
    return this.#inner.deleteFamily(this.#table(request), options);
  }

  deleteTable(request: TableRequest, options?: CallOptions): Promise<void> {
    return this.#inner.deleteTable(this.#table(request), options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  mutateRow(mutation: CompiledMutation, options?: CallOptions): Promise<void> {
    return this.#inner.mutateRow(this.#table(mutation), options);
  }

  mutateRows(request: MutateRowsRequest, options?: CallOptions): Promise<RowMutationFailure[]> {
    return this.#inner.mutateRows(
      { table: this.#prefix + request.table, mutations: request.mutations.map((m) => this.#table(m)) },
      options,
    );
  }

  readRows(request: ReadRowsRequest, options?: CallOptions): BatchStream<RowData> {
    return this.#inner.readRows(this.#table(request), options);
  }

  checkAndMutate(request: CheckAndMutateRequest, options?: CallOptions): Promise<boolean> {
    return this.#inner.checkAndMutate(this.#table(request), options);
  }

  increment(request: IncrementRequest, options?: CallOptions): Promise<RowData> {
    return this.#inner.increment(this.#table(request), options);
  }

  #table<R extends { readonly table: string }>(request: R): R {
    return { ...request, table: this.#prefix + request.table };
  }
}
