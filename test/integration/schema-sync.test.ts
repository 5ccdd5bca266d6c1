import { afterAll, describe, expect, it } from 'vitest';
import type { ActualFamily } from '../../src/model/driver.js';
import { createGoogleCloudDriver } from '../../src/driver/google-cloud-driver.js';
import { DriverError } from '../../src/errors/index.js';
import type { GcPolicy } from '../../src/model/declarations.js';
import type { EntitySchema } from '../../src/metadata/entity-schema.js';
import { gcRuleFromPolicy } from '../../src/metadata/gc-rule.js';
import { syncSchema } from '../../src/schema/schema-sync.js';
import type { SchemaSyncDriver } from '../../src/schema/schema-sync.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../support/emulator.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const instance = driver.bigtable.instance(testInstanceId);
const created: string[] = [];

function tableId(): string {
  const id = uniqueTableId('sync');
  created.push(id);
  return id;
}

function entity(name: string, table: string, families: Record<string, GcPolicy | undefined>): EntitySchema {
  const list = Object.entries(families).map(([family, gc]) => ({
    name: family,
    gc: gcRuleFromPolicy(name, family, gc),
  }));
  return { name, table, families: list, key: { format: 'text' } } as unknown as EntitySchema;
}

async function rawGcRules(table: string): Promise<Record<string, unknown>> {
  const [meta] = await instance.table(table).getMetadata({ view: 'full' });
  return Object.fromEntries(Object.entries(meta.columnFamilies ?? {}).map(([name, f]) => [name, f.gcRule]));
}

const maxAge = (seconds: number) => ({ maxAge: { seconds: String(seconds), nanos: 0 }, rule: 'maxAge' });
const maxVersions = (n: number) => ({ maxNumVersions: n, rule: 'maxNumVersions' });

afterAll(async () => {
  for (const id of created)
    await instance
      .table(id)
      .delete()
      .catch(() => undefined);
  await driver.close();
});

describe('syncSchema against the emulator', () => {
  it('creates tables, families and GC rules exactly, then is a no-op', async () => {
    const table = tableId();
    const schema = entity('Reading', table, {
      ver: { maxVersions: 3 },
      age: { maxAge: '1h' },
      uni: { maxVersions: 2, maxAge: '1d' },
      int: { maxVersions: 1, maxAge: 60, mode: 'intersection' },
      none: undefined,
    });
    const first = await syncSchema(driver, [schema]);
    expect(first.applied).toBe(true);
    expect(first.changes.map((c) => c.kind)).toEqual(['create-table']);
    expect(await rawGcRules(table)).toEqual({
      ver: maxVersions(3),
      age: maxAge(3_600),
      uni: { union: { rules: [maxAge(86_400), maxVersions(2)] }, rule: 'union' },
      int: { intersection: { rules: [maxAge(60), maxVersions(1)] }, rule: 'intersection' },
      none: null,
    });
    expect(await driver.getFamilies({ table })).toEqual<ActualFamily[]>([
      { name: 'age', gc: { kind: 'maxAge', seconds: 3_600 } },
      {
        name: 'int',
        gc: {
          kind: 'intersection',
          rules: [
            { kind: 'maxAge', seconds: 60 },
            { kind: 'maxVersions', count: 1 },
          ],
        },
      },
      { name: 'none', gc: undefined },
      {
        name: 'uni',
        gc: {
          kind: 'union',
          rules: [
            { kind: 'maxAge', seconds: 86_400 },
            { kind: 'maxVersions', count: 2 },
          ],
        },
      },
      { name: 'ver', gc: { kind: 'maxVersions', count: 3 } },
    ]);
    expect(await syncSchema(driver, [schema])).toEqual({ changes: [], applied: true });
    expect(await driver.listTables()).toContain(table);
  });

  it('reports a drifted GC rule in dryRun without applying it, then fixes it', async () => {
    const table = tableId();
    const schema = entity('Reading', table, { m: { maxVersions: 3 }, plain: undefined });
    await syncSchema(driver, [schema]);
    await instance
      .table(table)
      .family('m')
      .setMetadata({ rule: { versions: 9 } });
    await instance
      .table(table)
      .family('plain')
      .setMetadata({ rule: { age: { seconds: 60, nanos: 0 } } });

    const dry = await syncSchema(driver, [schema], { dryRun: true });
    expect(dry.applied).toBe(false);
    expect(dry.changes.map((c) => c.description)).toEqual([
      `change gc of family "m" in table "${table}" from max 9 versions to max 3 versions`,
      `change gc of family "plain" in table "${table}" from max age 1m to none`,
    ]);
    expect(await rawGcRules(table)).toEqual({ m: maxVersions(9), plain: maxAge(60) });

    const real = await syncSchema(driver, [schema]);
    expect(real.changes).toEqual(dry.changes);
    expect(await rawGcRules(table)).toEqual({ m: maxVersions(3), plain: null });
  });

  it('leaves an extra family alone by default and drops it only when allowed', async () => {
    const table = tableId();
    const schema = entity('Reading', table, { m: undefined });
    await syncSchema(driver, [schema]);
    await instance.table(table).createFamily('extra', { rule: { versions: 1 } });

    expect((await syncSchema(driver, [schema])).changes).toEqual([]);
    expect(Object.keys(await rawGcRules(table)).sort()).toEqual(['extra', 'm']);

    const dropped = await syncSchema(driver, [schema], { allowDropFamilies: true });
    expect(dropped.changes.map((c) => c.kind)).toEqual(['drop-family']);
    expect(Object.keys(await rawGcRules(table))).toEqual(['m']);
  });

  it('creates a family missing from an existing table', async () => {
    const table = tableId();
    await instance.createTable(table, { families: ['a'] });
    const result = await syncSchema(driver, [entity('Reading', table, { a: undefined, b: { maxAge: '30d' } })]);
    expect(result.changes.map((c) => c.description)).toEqual([
      `create family "b" in table "${table}" (gc max age 30d)`,
    ]);
    expect(await rawGcRules(table)).toEqual({ a: null, b: maxAge(30 * 86_400) });
  });

  it('merges two schemas that share a table', async () => {
    const table = tableId();
    const reading = entity('Reading', table, { shared: { maxVersions: 1 }, r: undefined });
    const alert = entity('Alert', table, { shared: { maxVersions: 1 }, a: { maxAge: '12h' } });
    const result = await syncSchema(driver, [reading, alert]);
    expect(result.changes).toHaveLength(1);
    expect(await rawGcRules(table)).toEqual({ shared: maxVersions(1), r: null, a: maxAge(43_200) });
  });

  it('continues when a concurrent creator wins the create-table race (ALREADY_EXISTS)', async () => {
    const table = tableId();
    const racing: SchemaSyncDriver = {
      getFamilies: (request) => driver.getFamilies(request),
      createTable: async (request) => {
        await instance.createTable(request.table, { families: [{ name: 'm', rule: { versions: 7 } }] });
        return driver.createTable(request);
      },
      createFamily: (request) => driver.createFamily(request),
      setFamilyGc: (request) => driver.setFamilyGc(request),
      deleteFamily: (request) => driver.deleteFamily(request),
    };
    const result = await syncSchema(racing, [entity('Reading', table, { m: { maxVersions: 2 }, n: undefined })]);
    expect(result.changes.map((c) => c.kind)).toEqual(['update-gc', 'create-family']);
    expect(await rawGcRules(table)).toEqual({ m: maxVersions(2), n: null });
  });
});

describe('GoogleCloudDriver admin errors', () => {
  it('returns undefined families for a missing table and maps errors with the gRPC code', async () => {
    const missing = uniqueTableId('missing');
    expect(await driver.getFamilies({ table: missing })).toBeUndefined();
    const err = await driver.deleteTable({ table: missing }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect((err as DriverError).grpcCode).toBe(5);

    const table = tableId();
    await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
    const dup = await driver.createFamily({ table, family: { name: 'f', gc: undefined } }).catch((e: unknown) => e);
    expect((dup as DriverError).grpcCode).toBe(6);
    await driver.deleteFamily({ table, family: 'f' });
    await driver.deleteTable({ table });
    expect(await driver.getFamilies({ table })).toBeUndefined();
  });

  it('never closes a client it was given', async () => {
    const borrowed = createGoogleCloudDriver({ bigtable: driver.bigtable, instance: testInstanceId });
    await borrowed.close();
    expect(await driver.listTables()).toBeInstanceOf(Array);
  });
});
