import type {
  ActualFamily,
  BigtableDriver,
  CallOptions,
  CheckAndMutateRequest,
  IncrementRule,
  ReadRowsRequest,
  RowData,
  RowKeySchema,
  RowMutationFailure,
} from '../model/driver.js';
import type { CompiledMutation } from '../model/mutation.js';
import type { GcRule } from '../model/gc-rule.js';
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

  async listTables(options?: CallOptions): Promise<string[]> {
    const tables = await this.#inner.listTables(options);
    return tables.filter((t) => t.startsWith(this.#prefix)).map((t) => t.slice(this.#prefix.length));
  }

  getFamilies(table: string, options?: CallOptions): Promise<ActualFamily[] | undefined> {
    return this.#inner.getFamilies(this.#prefix + table, options);
  }

  createTable(
    table: string,
    families: readonly ActualFamily[],
    options?: CallOptions,
    rowKeySchema?: RowKeySchema,
  ): Promise<void> {
    return this.#inner.createTable(this.#prefix + table, families, options, rowKeySchema);
  }

  createFamily(table: string, family: ActualFamily, options?: CallOptions): Promise<void> {
    return this.#inner.createFamily(this.#prefix + table, family, options);
  }

  setFamilyGc(table: string, family: string, gc: GcRule | undefined, options?: CallOptions): Promise<void> {
    return this.#inner.setFamilyGc(this.#prefix + table, family, gc, options);
  }

  deleteFamily(table: string, family: string, options?: CallOptions): Promise<void> {
    return this.#inner.deleteFamily(this.#prefix + table, family, options);
  }

  deleteTable(table: string, options?: CallOptions): Promise<void> {
    return this.#inner.deleteTable(this.#prefix + table, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  mutateRow(mutation: CompiledMutation, options?: CallOptions): Promise<void> {
    return this.#inner.mutateRow(this.#mutation(mutation), options);
  }

  mutateRows(
    table: string,
    mutations: readonly CompiledMutation[],
    options?: CallOptions,
  ): Promise<RowMutationFailure[]> {
    return this.#inner.mutateRows(
      this.#prefix + table,
      mutations.map((m) => this.#mutation(m)),
      options,
    );
  }

  readRows(request: ReadRowsRequest, options?: CallOptions): BatchStream<RowData> {
    return this.#inner.readRows({ ...request, table: this.#prefix + request.table }, options);
  }

  checkAndMutate(request: CheckAndMutateRequest, options?: CallOptions): Promise<boolean> {
    return this.#inner.checkAndMutate({ ...request, table: this.#prefix + request.table }, options);
  }

  increment(table: string, rowKey: Buffer, rules: readonly IncrementRule[], options?: CallOptions): Promise<RowData> {
    return this.#inner.increment(this.#prefix + table, rowKey, rules, options);
  }

  #mutation(mutation: CompiledMutation): CompiledMutation {
    return { ...mutation, table: this.#prefix + mutation.table };
  }
}
