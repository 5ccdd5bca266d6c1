import { describe, expect, it } from 'vitest';
import type {
  ActualFamily,
  CreateFamilyRequest,
  CreateTableRequest,
  DeleteFamilyRequest,
  SetFamilyGcRequest,
  TableRequest,
} from '../../../src/model/driver.js';
import { DriverError, SchemaSyncError } from '../../../src/errors/index.js';
import type { EntitySchema, FamilySchema } from '../../../src/metadata/entity-schema.js';
import type { GcRule } from '../../../src/model/gc-rule.js';
import { syncSchema } from '../../../src/schema/schema-sync.js';
import type { SchemaSyncDriver } from '../../../src/schema/schema-sync.js';

const v = (count: number): GcRule => ({ kind: 'maxVersions', count });

function schema(name: string, table: string, families: FamilySchema[]): EntitySchema {
  return { name, table, families, key: { format: 'text' } } as unknown as EntitySchema;
}

/** In-memory driver that records calls; `before` hooks simulate concurrent writers or failures. */
class FakeDriver implements SchemaSyncDriver {
  readonly tables = new Map<string, Map<string, GcRule | undefined>>();
  readonly calls: string[] = [];
  before: Partial<Record<string, () => void>> = {};

  async getFamilies({ table }: TableRequest): Promise<ActualFamily[] | undefined> {
    const t = this.tables.get(table);
    return t && [...t].map(([name, gc]) => ({ name, gc }));
  }
  async createTable({ table, families }: CreateTableRequest): Promise<void> {
    this.hook('createTable');
    if (this.tables.has(table)) throw new DriverError('createTable', new Error('exists'), 6);
    this.tables.set(table, new Map(families.map((f) => [f.name, f.gc])));
  }
  async createFamily({ table, family }: CreateFamilyRequest): Promise<void> {
    this.hook('createFamily');
    const t = this.tables.get(table) as Map<string, GcRule | undefined>;
    if (t.has(family.name)) throw Object.assign(new Error('family exists'), { code: 6 });
    t.set(family.name, family.gc);
  }
  async setFamilyGc({ table, family, gc }: SetFamilyGcRequest): Promise<void> {
    this.hook('setFamilyGc');
    this.tables.get(table)?.set(family, gc);
  }
  async deleteFamily({ table, family }: DeleteFamilyRequest): Promise<void> {
    this.hook('deleteFamily');
    this.tables.get(table)?.delete(family);
  }
  private hook(name: string): void {
    this.calls.push(name);
    const run = this.before[name];
    this.before[name] = undefined;
    run?.();
  }
}

const readings = schema('Reading', 'readings', [
  { name: 'm', gc: v(5) },
  { name: 'n', gc: undefined },
]);

describe('syncSchema (fake driver)', () => {
  it('reports without applying in dryRun', async () => {
    const driver = new FakeDriver();
    const result = await syncSchema(driver, [readings], { dryRun: true });
    expect(result.applied).toBe(false);
    expect(result.changes.map((c) => c.kind)).toEqual(['create-table']);
    expect(driver.calls).toEqual([]);
  });

  it('applies changes and is then a no-op', async () => {
    const driver = new FakeDriver();
    expect((await syncSchema(driver, [readings])).applied).toBe(true);
    expect(driver.tables.get('readings')).toEqual(
      new Map([
        ['m', v(5)],
        ['n', undefined],
      ]),
    );
    expect(await syncSchema(driver, [readings])).toEqual({ changes: [], applied: true });
  });

  it('reconciles a table created concurrently (ALREADY_EXISTS)', async () => {
    const driver = new FakeDriver();
    driver.before.createTable = () => driver.tables.set('readings', new Map([['m', v(1)]]));
    const result = await syncSchema(driver, [readings]);
    expect(result.changes.map((c) => c.description)).toEqual([
      'change gc of family "m" in table "readings" from max 1 version to max 5 versions',
      'create family "n" in table "readings" (gc none)',
    ]);
    expect(driver.tables.get('readings')).toEqual(
      new Map([
        ['m', v(5)],
        ['n', undefined],
      ]),
    );
  });

  it('reconciles a family created concurrently', async () => {
    const driver = new FakeDriver();
    driver.tables.set('readings', new Map([['n', undefined]]));
    driver.before.createFamily = () => driver.tables.get('readings')?.set('m', v(2));
    const result = await syncSchema(driver, [readings]);
    expect(result.changes.map((c) => c.kind)).toEqual(['update-gc']);
    expect(driver.tables.get('readings')?.get('m')).toEqual(v(5));
  });

  it('wraps failures in SchemaSyncError naming the table, family and change', async () => {
    const driver = new FakeDriver();
    driver.tables.set('readings', new Map([['m', v(1)]]));
    driver.before.setFamilyGc = () => {
      throw new DriverError('setFamilyGc', new Error('boom'), 13);
    };
    const err = await syncSchema(driver, [readings]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaSyncError);
    expect((err as SchemaSyncError).message).toContain('failed to change gc of family "m" in table "readings"');
    expect((err as SchemaSyncError).details).toMatchObject({ table: 'readings', family: 'm', change: 'update-gc' });
    expect((err as SchemaSyncError).cause).toBeInstanceOf(DriverError);
  });

  it('wraps read failures', async () => {
    const driver = new FakeDriver();
    driver.getFamilies = async () => {
      throw new Error('unavailable');
    };
    await expect(syncSchema(driver, [readings])).rejects.toThrow(/could not read the families of table "readings"/);
  });

  it('drops undeclared families only when allowed', async () => {
    const driver = new FakeDriver();
    driver.tables.set(
      'readings',
      new Map<string, GcRule | undefined>([
        ['m', v(5)],
        ['n', undefined],
        ['old', undefined],
      ]),
    );
    expect((await syncSchema(driver, [readings])).changes).toEqual([]);
    const result = await syncSchema(driver, [readings], { allowDropFamilies: true });
    expect(result.changes.map((c) => c.kind)).toEqual(['drop-family']);
    expect(driver.tables.get('readings')?.has('old')).toBe(false);
  });
});
