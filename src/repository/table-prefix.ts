import type { BigtableDriver, CallOptions, ListTablesRequest } from '../model/driver.js';
import { ForwardingDriver } from '../model/forwarding-driver.js';
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
export class PrefixedDriver extends ForwardingDriver {
  readonly #prefix: string;

  constructor(inner: BigtableDriver, prefix: string) {
    super(inner);
    this.#prefix = prefix;
  }

  override async listTables(request?: ListTablesRequest, options?: CallOptions): Promise<string[]> {
    const tables = await super.listTables(request, options);
    return tables.filter((t) => t.startsWith(this.#prefix)).map((t) => t.slice(this.#prefix.length));
  }

  protected override table(table: string): string {
    return this.#prefix + table;
  }
}
