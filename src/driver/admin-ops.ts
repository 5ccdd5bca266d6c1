import type { Instance } from '@google-cloud/bigtable';
import type { ActualFamily, CallOptions, RowKeySchema } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DriverError, extractGrpcCode } from '../errors/errors.js';
import { fromClientGcRule, toClientGcRule } from './gc-rule-client.js';
import { callWithRetries, type AttemptListener, type GaxCallOptions } from './retry-engine.js';
import { aggregateOf, createTableRequest, protoColumnFamily } from './create-table-request.js';

const NOT_FOUND = 5;

/**
 * The instance admin calls go to, and who hears their attempts.
 * @internal
 */
export interface AdminTarget {
  readonly instance: Instance;
  readonly listener?: AttemptListener | undefined;
}

/**
 * Runs one client call and wraps any failure in `DriverError` (gRPC code kept).
 * @internal
 */
export async function callClient<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new DriverError(operation, err, extractGrpcCode(err));
  }
}

/**
 * One admin RPC within `call`, through the retry engine
 * ({@link callWithRetries}); a read-only call (`idempotent`) is sent again
 * after an attempt timeout while the deadline allows. Client failures become `DriverError` (gRPC code kept); deadline and
 * abort errors pass through as themselves.
 * @internal
 * @example
 * ```ts
 * await adminCall('deleteTable "t"', call, false, listener, 't', (gax) => instance.table('t').delete(gax));
 * ```
 */
async function adminCall<T>(
  operation: string,
  call: CallOptions | undefined,
  idempotent: boolean,
  listener: AttemptListener | undefined,
  table: string | undefined,
  run: (gax: GaxCallOptions) => Promise<T>,
): Promise<T> {
  try {
    return await callWithRetries(operation, call, run, {
      method: operation.split(' ', 1)[0] as string,
      table,
      retryAttemptTimeouts: idempotent,
      listener,
    });
  } catch (err) {
    if (err instanceof BigtableMapperError) throw err;
    throw new DriverError(operation, err, extractGrpcCode(err));
  }
}

/**
 * Table ids of the instance, sorted.
 * @internal
 */
export async function listTableIds({ instance, listener }: AdminTarget, call?: CallOptions): Promise<string[]> {
  const [tables] = await adminCall('listTables', call, true, listener, undefined, (gax) =>
    instance.getTables({ view: 'name', gaxOptions: gax }),
  );
  return tables.map((t) => t.id).sort();
}

/**
 * A table's families with their GC rules (sorted by name), or `undefined` when
 * the table does not exist (gRPC 5).
 * @internal
 */
export async function readFamilies(
  { instance, listener }: AdminTarget,
  table: string,
  call?: CallOptions,
): Promise<ActualFamily[] | undefined> {
  try {
    const [meta] = await adminCall(`getFamilies ${JSON.stringify(table)}`, call, true, listener, table, (gax) =>
      instance.table(table).getMetadata({ view: 'schema', gaxOptions: gax }),
    );
    return Object.entries(meta.columnFamilies ?? {})
      .map(([name, family]) => {
        const gc = fromClientGcRule(family.gcRule);
        const aggregate = aggregateOf((family as { valueType?: unknown }).valueType);
        return aggregate === undefined ? { name, gc } : { name, gc, aggregate };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    if (err instanceof DriverError && err.grpcCode === NOT_FOUND) return undefined;
    throw err;
  }
}

/**
 * Creates a table with its families and GC rules, and its row key schema when
 * one is given (then through the client's generic request, since
 * `instance.createTable()` has no option for it; so are the value types of
 * aggregate families).
 * @internal
 */
export async function createTableWithFamilies(
  { instance, listener }: AdminTarget,
  table: string,
  families: readonly ActualFamily[],
  call?: CallOptions,
  rowKeySchema?: RowKeySchema,
): Promise<void> {
  if (rowKeySchema !== undefined || families.some((f) => f.aggregate !== undefined)) {
    const reqOpts = createTableRequest(instance.name, table, families, rowKeySchema);
    await adminCall(`createTable ${JSON.stringify(table)}`, call, false, listener, table, (gax) =>
      requestAdmin(instance, 'createTable', reqOpts, gax),
    );
    return;
  }
  const spec = families.map((f) => (f.gc ? { name: f.name, rule: toClientGcRule(f.gc) } : f.name));
  await adminCall(`createTable ${JSON.stringify(table)}`, call, false, listener, table, (gax) =>
    instance.createTable(table, { families: spec, gaxOptions: gax }),
  );
}

/**
 * Adds a family to an existing table.
 * @internal
 */
export async function addFamily(
  { instance, listener }: AdminTarget,
  table: string,
  family: ActualFamily,
  call?: CallOptions,
): Promise<void> {
  if (family.aggregate !== undefined) {
    // `createFamily()` has no option for a value type: ModifyColumnFamilies through the client's generic request.
    const reqOpts = {
      name: instance.table(table).name,
      modifications: [{ id: family.name, create: protoColumnFamily(family) }],
    };
    await adminCall(`createFamily ${JSON.stringify(`${table}/${family.name}`)}`, call, false, listener, table, (gax) =>
      requestAdmin(instance, 'modifyColumnFamilies', reqOpts, gax),
    );
    return;
  }
  const rule = family.gc ? { rule: toClientGcRule(family.gc) } : {};
  await adminCall(`createFamily ${JSON.stringify(`${table}/${family.name}`)}`, call, false, listener, table, (gax) =>
    instance.table(table).createFamily(family.name, { ...rule, gaxOptions: gax }),
  );
}

/**
 * Replaces a family's GC rule; `undefined` clears it (an update without a rule,
 * which the admin API treats as "set gc_rule to none").
 * @internal
 */
export async function replaceFamilyGc(
  { instance, listener }: AdminTarget,
  table: string,
  family: string,
  gc: GcRule | undefined,
  call?: CallOptions,
): Promise<void> {
  const metadata = gc ? { rule: toClientGcRule(gc) } : {};
  await adminCall(`setFamilyGc ${JSON.stringify(`${table}/${family}`)}`, call, false, listener, table, (gax) =>
    instance.table(table).family(family).setMetadata(metadata, gax),
  );
}

/**
 * Deletes a family and its data.
 * @internal
 */
export async function dropFamily(
  { instance, listener }: AdminTarget,
  table: string,
  family: string,
  call?: CallOptions,
): Promise<void> {
  await adminCall(`deleteFamily ${JSON.stringify(`${table}/${family}`)}`, call, false, listener, table, (gax) =>
    instance.table(table).family(family).delete(gax),
  );
}

/**
 * Deletes a table and its data.
 * @internal
 */
export async function dropTable({ instance, listener }: AdminTarget, table: string, call?: CallOptions): Promise<void> {
  await adminCall(`deleteTable ${JSON.stringify(table)}`, call, false, listener, table, (gax) =>
    instance.table(table).delete(gax),
  );
}

/** One table admin RPC through the client's generic request (for the fields its helpers have no option for). */
function requestAdmin(instance: Instance, method: string, reqOpts: object, gax: GaxCallOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    instance.bigtable.request(
      { client: 'BigtableTableAdminClient', method, reqOpts, gaxOpts: gax },
      (err: Error | null) => (err ? reject(err) : resolve()),
    );
  });
}
