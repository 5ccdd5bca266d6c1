import type { ActualFamily, BigtableDriver, CallOptions } from '../model/driver.js';
import { DeadlineExceededError, OperationAbortedError, UnreachableError } from '../errors/operation-errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { DesiredTable } from './desired-schema.js';
import type { SchemaChange } from './schema-change.js';
import { DriverError, extractGrpcCode, SchemaSyncError } from '../errors/errors.js';
import { desiredTables } from './desired-schema.js';
import { diffFamilies, diffSchema } from './schema-diff.js';

const ALREADY_EXISTS = 6;

/**
 * The driver calls schema sync needs (any `BigtableDriver` has them).
 *
 */
export type SchemaSyncDriver = Pick<
  BigtableDriver,
  'getFamilies' | 'createTable' | 'createFamily' | 'setFamilyGc' | 'deleteFamily'
>;

/**
 * Options of {@link BigtableMapper.sync}.
 *
 * @example
 * ```ts
 * const options: SchemaSyncOptions = { dryRun: true };
 * ```
 */
export interface SchemaSyncOptions {
  /** Only compute the changes. */
  dryRun?: boolean;
  /** Drop families that exist but no entity declares (deletes their data). */
  allowDropFamilies?: boolean;
}

/**
 * What {@link BigtableMapper.sync} found and did.
 *
 * @example
 * ```ts
 * const { changes, applied } = await mapper.sync({ dryRun: true });
 * for (const c of changes) console.log(c.description);
 * ```
 */
export interface SchemaSyncResult {
  /** The changes applied (or, with `dryRun`, those that would be), in order. */
  changes: SchemaChange[];
  /** False with `dryRun`; true once every change has been applied (also when there was none). */
  applied: boolean;
}

/**
 * Brings the instance in line with the entities: reads each desired table's
 * families, diffs, and (unless `dryRun`) applies the changes in order. Never
 * drops tables. A table or family created concurrently by someone else
 * (ALREADY_EXISTS) is re-read and reconciled; `changes` then lists the
 * follow-up changes actually applied instead of the failed creation.
 * Failures throw `SchemaSyncError` naming the table, family and the attempted
 * change. A family whose aggregate differs from the declared one
 * (`aggregate-mismatch`, which Bigtable cannot change) fails the sync before
 * anything is applied. With `tablePrefix`, every table id is the prefix plus the entity's
 * table.
 *
 */
export async function syncSchema(
  driver: SchemaSyncDriver,
  schemas: readonly EntitySchema[],
  options: SchemaSyncOptions = {},
  call?: CallOptions,
  tablePrefix = '',
): Promise<SchemaSyncResult> {
  const desired = desiredTables(schemas).map((want) =>
    tablePrefix === '' ? want : { ...want, table: tablePrefix + want.table },
  );
  const actual = new Map<string, ActualFamily[] | undefined>();
  for (const want of desired) actual.set(want.table, await readFamilies(driver, want.table, call));
  const planned = diffSchema(desired, actual, options);
  if (options.dryRun) return { changes: planned, applied: false };
  const fixed = planned.find((c) => c.kind === 'aggregate-mismatch');
  if (fixed !== undefined) throw syncError(fixed, new Error('nothing was applied'), []);
  const done: SchemaChange[] = [];
  for (const change of planned) {
    const want = desired.find((d) => d.table === change.table) as DesiredTable;
    done.push(...(await applyChange(driver, change, want, options, done, call)));
  }
  return { changes: done, applied: true };
}

async function applyChange(
  driver: SchemaSyncDriver,
  change: SchemaChange,
  want: DesiredTable,
  options: SchemaSyncOptions,
  done: readonly SchemaChange[],
  call: CallOptions | undefined,
): Promise<SchemaChange[]> {
  try {
    await execute(driver, change, call);
    return [change];
  } catch (err) {
    if (isOperationError(err)) throw err;
    if (grpcCodeOf(err) !== ALREADY_EXISTS || (change.kind !== 'create-table' && change.kind !== 'create-family')) {
      throw syncError(change, err, done);
    }
  }
  const have = await readFamilies(driver, change.table, call);
  if (have === undefined)
    throw syncError(change, new Error('the table reported ALREADY_EXISTS but cannot be read'), done);
  let followUps = diffFamilies(want, have, options);
  if (change.kind === 'create-family') {
    followUps = followUps.filter(
      (c) => (c.kind === 'update-gc' || c.kind === 'aggregate-mismatch') && c.family === change.family.name,
    );
  }
  const applied: SchemaChange[] = [];
  for (const followUp of followUps) {
    applied.push(...(await applyChange(driver, followUp, want, options, [...done, ...applied], call)));
  }
  return applied;
}

async function execute(driver: SchemaSyncDriver, change: SchemaChange, call: CallOptions | undefined): Promise<void> {
  switch (change.kind) {
    case 'create-table': {
      const { table, families, rowKeySchema } = change;
      return driver.createTable({ table, families, ...(rowKeySchema === undefined ? {} : { rowKeySchema }) }, call);
    }
    case 'create-family':
      return driver.createFamily({ table: change.table, family: change.family }, call);
    case 'update-gc':
      return driver.setFamilyGc({ table: change.table, family: change.family, gc: change.to }, call);
    case 'drop-family':
      return driver.deleteFamily({ table: change.table, family: change.family }, call);
    case 'aggregate-mismatch':
      throw new Error('a family keeps the value type it was created with');
  }
}

async function readFamilies(
  driver: SchemaSyncDriver,
  table: string,
  call: CallOptions | undefined,
): Promise<ActualFamily[] | undefined> {
  try {
    return await driver.getFamilies({ table }, call);
  } catch (err) {
    if (isOperationError(err)) throw err;
    throw new SchemaSyncError(
      `schema sync could not read the families of table "${table}": ${messageOf(err)}`,
      { table },
      err,
    );
  }
}

function syncError(change: SchemaChange, cause: unknown, done: readonly SchemaChange[]): SchemaSyncError {
  const family =
    change.kind === 'create-table' ? undefined : typeof change.family === 'string' ? change.family : change.family.name;
  const failed =
    change.kind === 'aggregate-mismatch'
      ? `schema sync cannot apply a change: ${change.description}`
      : `schema sync failed to ${change.description}`;
  return new SchemaSyncError(
    `${failed}: ${messageOf(cause)}` + (done.length > 0 ? ` (${done.length} earlier change(s) were applied)` : ''),
    {
      table: change.table,
      family,
      change: change.kind,
      attempted: change.description,
      applied: done.map((c) => c.description),
    },
    cause,
  );
}

/** Deadlines, aborts and an unreachable endpoint say what happened to the whole sync: they pass through unwrapped. */
function isOperationError(err: unknown): boolean {
  return (
    err instanceof DeadlineExceededError || err instanceof OperationAbortedError || err instanceof UnreachableError
  );
}

function grpcCodeOf(err: unknown): number | undefined {
  return err instanceof DriverError ? err.grpcCode : extractGrpcCode(err);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
