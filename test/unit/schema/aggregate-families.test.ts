import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { MetadataError, SchemaSyncError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { desiredTables } from '../../../src/schema/desired-schema.js';
import { diffSchema } from '../../../src/schema/schema-diff.js';
import { syncSchema } from '../../../src/schema/schema-sync.js';
import { aggregateOf, createTableRequest, protoColumnFamily } from '../../../src/driver/create-table-request.js';
import { InMemoryBigtable } from '../../../src/testing/index.js';

@Entity({ table: 'stats' })
@Family('s', { aggregate: 'sum' })
@Family('p', { gc: { maxVersions: 1 } })
class Stats {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'int' }) n?: number | bigint;
}

@Entity({ table: 'stats' })
@Family('s', { aggregate: 'max' })
class MaxStats {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'int' }) n?: number | bigint;
}

const desired = desiredTables([compileEntity(Stats)]);

describe('desired tables and the diff of aggregate families', () => {
  it('a new table is created with the aggregate of each family, in its description too', () => {
    const [change] = diffSchema(desired, new Map([['stats', undefined]]));
    expect(change).toMatchObject({
      kind: 'create-table',
      families: [
        { name: 'p', gc: { kind: 'maxVersions', count: 1 } },
        { name: 's', gc: undefined, aggregate: 'sum' },
      ],
    });
    expect(change?.description).toBe(
      'create table "stats" with families p (gc max 1 version), s (aggregate sum, gc none)',
    );
  });

  it('a family with another aggregate, none, or one where none is declared is an aggregate-mismatch; the same one is no change', () => {
    const p = { name: 'p', gc: { kind: 'maxVersions', count: 1 } } as const;
    const diff = (s: { name: string; gc: undefined; aggregate?: 'sum' | 'max' }) =>
      diffSchema(desired, new Map([['stats', [p, s]]]));
    expect(diff({ name: 's', gc: undefined, aggregate: 'sum' })).toEqual([]);
    expect(diff({ name: 's', gc: undefined, aggregate: 'max' })).toEqual([
      expect.objectContaining({ kind: 'aggregate-mismatch', table: 'stats', family: 's', from: 'max', to: 'sum' }),
    ]);
    const [plain] = diff({ name: 's', gc: undefined });
    expect(plain).toMatchObject({ kind: 'aggregate-mismatch', from: undefined, to: 'sum' });
    expect(plain?.description).toMatch(
      /"s" in table "stats" is a plain family but is declared as a 'sum' aggregate family; a family's value type is fixed/,
    );
    const reverse = diffSchema(
      desiredTables([compileEntity(MaxStats)]),
      new Map([['stats', [{ name: 's', gc: undefined, aggregate: 'sum' as const }]]]),
    );
    expect(reverse).toMatchObject([{ kind: 'aggregate-mismatch', from: 'sum', to: 'max' }]);
  });

  it('two entities sharing a table must declare the same aggregate on a family', () => {
    let caught: unknown;
    try {
      desiredTables([compileEntity(Stats), compileEntity(MaxStats)]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MetadataError);
    expect((caught as Error).message).toMatch(
      /aggregate 'sum' and gc "none" on Stats but aggregate 'max' and gc "none" on MaxStats/,
    );
  });
});

describe('sync of aggregate families', () => {
  it('creates them, then a mismatch fails the sync before anything is applied, and a dry run lists it', async () => {
    const bigtable = new InMemoryBigtable();
    await syncSchema(bigtable, [compileEntity(Stats)]);
    expect(await bigtable.getFamilies({ table: 'stats' })).toEqual([
      { name: 'p', gc: { kind: 'maxVersions', count: 1 } },
      { name: 's', gc: undefined, aggregate: 'sum' },
    ]);
    const dry = await syncSchema(bigtable, [compileEntity(MaxStats)], { dryRun: true, allowDropFamilies: true });
    expect(dry.changes.map((c) => c.kind)).toEqual(['drop-family', 'aggregate-mismatch']);
    let caught: unknown;
    try {
      await syncSchema(bigtable, [compileEntity(MaxStats)], { allowDropFamilies: true });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SchemaSyncError);
    expect((caught as SchemaSyncError).details).toMatchObject({
      table: 'stats',
      family: 's',
      change: 'aggregate-mismatch',
      applied: [],
    });
    expect((await bigtable.getFamilies({ table: 'stats' }))?.map((f) => f.name)).toEqual(['p', 's']);
  });
});

describe('the admin requests of aggregate families', () => {
  it('a family is an Aggregate over big-endian Int64 with its aggregator, beside its GC rule', () => {
    const int64 = { int64Type: { encoding: { bigEndianBytes: {} } } };
    expect(protoColumnFamily({ name: 's', gc: undefined, aggregate: 'sum' })).toEqual({
      valueType: { aggregateType: { inputType: int64, sum: {} } },
    });
    expect(protoColumnFamily({ name: 'u', gc: undefined, aggregate: 'hll' })).toEqual({
      valueType: { aggregateType: { inputType: int64, hllppUniqueCount: {} } },
    });
    expect(protoColumnFamily({ name: 'p', gc: { kind: 'maxVersions', count: 2 } })).toEqual({
      gcRule: { maxNumVersions: 2 },
    });
    const request = createTableRequest(
      'projects/p/instances/i',
      't',
      [{ name: 'm', gc: undefined, aggregate: 'min' }],
      undefined,
    );
    expect(request).toEqual({
      parent: 'projects/p/instances/i',
      tableId: 't',
      table: { granularity: 0, columnFamilies: { m: { valueType: { aggregateType: { inputType: int64, min: {} } } } } },
    });
  });

  it('reads the aggregate back from a family value type as the admin API returns it', () => {
    expect(aggregateOf({ aggregateType: { inputType: {}, max: {}, aggregator: 'max' }, kind: 'aggregateType' })).toBe(
      'max',
    );
    expect(aggregateOf({ aggregateType: { hllppUniqueCount: {} } })).toBe('hll');
    expect(aggregateOf(null)).toBeUndefined();
    expect(aggregateOf(undefined)).toBeUndefined();
    expect(aggregateOf({ int64Type: {} })).toBeUndefined();
  });
});
