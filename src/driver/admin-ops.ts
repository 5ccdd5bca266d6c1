import type { Instance } from '@google-cloud/bigtable';
import type { ActualFamily, BigtableDriver } from './driver.js';
import type { GcRule } from '../schema/gc-rule-types.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import { fromClientGcRule, toClientGcRule } from '../schema/gc-rule-client.js';

const NOT_FOUND = 5;

/**
 * The table-admin half of {@link BigtableDriver}, which this module implements.
 *
 * @example
 * ```ts
 * const admin: BigtableAdminDriver = createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'test' });
 * ```
 */
export type BigtableAdminDriver = Pick<
  BigtableDriver,
  'listTables' | 'getFamilies' | 'createTable' | 'createFamily' | 'setFamilyGc' | 'deleteFamily' | 'deleteTable' | 'close'
>;

/**
 * Runs one client call and wraps any failure in `DriverError` (gRPC code kept).
 * @internal
 * @example
 * ```ts
 * await callClient('deleteTable "t"', () => instance.table('t').delete());
 * ```
 */
export async function callClient<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new DriverError(operation, err, extractGrpcCode(err));
  }
}

/**
 * Table ids of the instance, sorted.
 * @internal
 * @example
 * ```ts
 * await listTableIds(instance); // ['readings']
 * ```
 */
export async function listTableIds(instance: Instance): Promise<string[]> {
  const [tables] = await callClient('listTables', () => instance.getTables({ view: 'name' }));
  return tables.map((t) => t.id).sort();
}

/**
 * A table's families with their GC rules (sorted by name), or `undefined` when
 * the table does not exist (gRPC 5).
 * @internal
 * @example
 * ```ts
 * await readFamilies(instance, 'readings'); // [{ name: 'm', gc: { kind: 'maxVersions', count: 5 } }]
 * ```
 */
export async function readFamilies(instance: Instance, table: string): Promise<ActualFamily[] | undefined> {
  try {
    const [meta] = await instance.table(table).getMetadata({ view: 'schema' });
    return Object.entries(meta.columnFamilies ?? {})
      .map(([name, family]) => ({ name, gc: fromClientGcRule(family.gcRule) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    if (extractGrpcCode(err) === NOT_FOUND) return undefined;
    throw new DriverError(`getFamilies ${JSON.stringify(table)}`, err);
  }
}

/**
 * Creates a table with its families and GC rules.
 * @internal
 * @example
 * ```ts
 * await createTableWithFamilies(instance, 't', [{ name: 'm', gc: undefined }]);
 * ```
 */
export async function createTableWithFamilies(instance: Instance, table: string, families: readonly ActualFamily[]): Promise<void> {
  const spec = families.map((f) => (f.gc ? { name: f.name, rule: toClientGcRule(f.gc) } : f.name));
  await callClient(`createTable ${JSON.stringify(table)}`, () => instance.createTable(table, { families: spec }));
}

/**
 * Adds a family to an existing table.
 * @internal
 * @example
 * ```ts
 * await addFamily(instance, 't', { name: 'm', gc: undefined });
 * ```
 */
export async function addFamily(instance: Instance, table: string, family: ActualFamily): Promise<void> {
  const options = family.gc ? { rule: toClientGcRule(family.gc) } : {};
  await callClient(`createFamily ${JSON.stringify(`${table}/${family.name}`)}`, () => instance.table(table).createFamily(family.name, options));
}

/**
 * Replaces a family's GC rule; `undefined` clears it (an update without a rule,
 * which the admin API treats as "set gc_rule to none").
 * @internal
 * @example
 * ```ts
 * await replaceFamilyGc(instance, 't', 'm', { kind: 'maxVersions', count: 1 });
 * ```
 */
export async function replaceFamilyGc(instance: Instance, table: string, family: string, gc: GcRule | undefined): Promise<void> {
  const metadata = gc ? { rule: toClientGcRule(gc) } : {};
  await callClient(`setFamilyGc ${JSON.stringify(`${table}/${family}`)}`, () => instance.table(table).family(family).setMetadata(metadata));
}

/**
 * Deletes a family and its data.
 * @internal
 * @example
 * ```ts
 * await dropFamily(instance, 't', 'old');
 * ```
 */
export async function dropFamily(instance: Instance, table: string, family: string): Promise<void> {
  await callClient(`deleteFamily ${JSON.stringify(`${table}/${family}`)}`, () => instance.table(table).family(family).delete());
}

/**
 * Deletes a table and its data.
 * @internal
 * @example
 * ```ts
 * await dropTable(instance, 't');
 * ```
 */
export async function dropTable(instance: Instance, table: string): Promise<void> {
  await callClient(`deleteTable ${JSON.stringify(table)}`, () => instance.table(table).delete());
}
