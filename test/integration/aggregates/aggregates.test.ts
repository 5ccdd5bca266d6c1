import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BigtableMapper,
  Column,
  Entity,
  Family,
  KeyPart,
  SchemaSyncError,
  ValidationError,
  type Repository,
} from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('aggregates');

@Entity({ table })
@Family('stats', { aggregate: 'sum' })
@Family('low', { aggregate: 'min' })
@Family('high', { aggregate: 'max' })
@Family('uniq', { aggregate: 'hll' })
@Family('p', { gc: { maxVersions: 1 } })
class PageStats {
  @KeyPart(0, { type: 'string' }) page!: string;
  @Column({ family: 'stats', type: 'int' }) views?: number | bigint;
  @Column({ family: 'stats', type: 'bigint' }) bytes?: bigint;
  @Column({ family: 'low', type: 'int' }) fastestMs?: number | bigint;
  @Column({ family: 'high', type: 'int' }) slowestMs?: number | bigint;
  @Column({ family: 'uniq', type: 'bytes' }) visitors?: Buffer;
  @Column({ family: 'p', type: 'string' }) title?: string;
}

let mapper: BigtableMapper;
let stats: Repository<PageStats>;

beforeAll(async () => {
  mapper = openMapper([PageStats]);
  await mapper.sync();
  stats = mapper.getRepository(PageStats);
});

afterAll(() => closeMapper(mapper, [table]));

describe('aggregate adds in a BulkWriter', () => {
  it('batches addTo() rows with entity saves: each sum folds every input, and changes land in the same row write', async () => {
    const writer = stats.bulkWriter({ batchSize: 7 });
    const accepted = [];
    const indexes: number[] = [];
    for (let i = 0; i < 30; i++) {
      accepted.push(await writer.addTo({ page: `/bulk/${i % 3}` }, { views: 1, bytes: BigInt(i) }));
      indexes.push((accepted.at(-1) as { index: number }).index);
      if (i % 10 === 0)
        indexes.push(
          (await writer.add(Object.assign(new PageStats(), { page: `/bulk/saved/${i}`, title: `t${i}` }))).index,
        );
    }
    indexes.push((await writer.addTo({ page: '/bulk/0' }, { views: 100 }, { changes: { title: 'zero' } })).index);
    expect(indexes).toEqual(Array.from({ length: 34 }, (_, i) => i));
    const outcome = await accepted[4]?.outcome;
    expect(outcome).toMatchObject({ status: 'persisted', rowKey: '/bulk/1', entity: { page: '/bulk/1' } });
    expect(await writer.close()).toEqual({ accepted: 34, persisted: 34, failed: 0, unknown: 0, pending: 0 });
    const rows = await stats.findMany([{ page: '/bulk/0' }, { page: '/bulk/1' }, { page: '/bulk/2' }]);
    expect(rows.map((r) => [r?.page, r?.views, r?.bytes, r?.title])).toEqual([
      ['/bulk/0', 110, 135n, 'zero'],
      ['/bulk/1', 10, 145n, undefined],
      ['/bulk/2', 10, 155n, undefined],
    ]);
    expect((await stats.findOneOrFail({ page: '/bulk/saved/20' })).title).toBe('t20');
  });

  it('a writer of several entities takes the key as an instance of its class; bad input is refused before it is accepted', async () => {
    const writer = mapper.bulkWriter();
    await writer.addTo(Object.assign(new PageStats(), { page: '/bulk/mapper' }), { views: 2 });
    await expect(writer.addTo({ page: '/bulk/mapper' }, { views: 2 })).rejects.toThrow(
      /is not an instance of a registered entity class/,
    );
    const own = stats.bulkWriter();
    await expect(own.addTo({ page: '/x' }, { title: 1 } as never)).rejects.toThrow(ValidationError);
    await expect(own.addTo({ page: '/x' }, {})).rejects.toThrow(/add has no input/);
    await expect(own.addTo({ page: '/x' }, { views: 1 }, { change: {} } as never)).rejects.toThrow(ValidationError);
    expect(await own.close()).toMatchObject({ accepted: 0 });
    expect(await writer.close()).toMatchObject({ accepted: 1, persisted: 1 });
    expect((await stats.findOneOrFail({ page: '/bulk/mapper' })).views).toBe(2);
  });
});

describe('aggregate families on the emulator', () => {
  it('sync creates each aggregate family with its value type, which getFamilies reads back; a second sync has nothing to do', async () => {
    const families = await mapper.driver.getFamilies({ table });
    expect(families).toEqual([
      { name: 'high', gc: undefined, aggregate: 'max' },
      { name: 'low', gc: undefined, aggregate: 'min' },
      { name: 'p', gc: { kind: 'maxVersions', count: 1 } },
      { name: 'stats', gc: undefined, aggregate: 'sum' },
      { name: 'uniq', gc: undefined, aggregate: 'hll' },
    ]);
    expect((await mapper.sync({ dryRun: true })).changes).toEqual([]);
  });

  it('add() sums concurrent inputs into one cell per column, read back as a number (int) and a bigint (bigint)', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => stats.add({ page: '/sum' }, { views: 1, bytes: BigInt(i) })),
    );
    await stats.add({ page: '/sum' }, { views: -5 });
    const row = await stats.findOneOrFail({ page: '/sum' });
    expect(row.views).toBe(15);
    expect(row.bytes).toBe(190n);
    expect(row.title).toBeUndefined();
  });

  it('an int column past 2^53 reads as the exact bigint; a bigint column stays a bigint, and a sum wraps at int64', async () => {
    await stats.add({ page: '/big' }, { views: Number.MAX_SAFE_INTEGER, bytes: 2n ** 62n });
    await stats.add({ page: '/big' }, { views: 2n, bytes: 2n ** 62n - 1n });
    const row = await stats.findOneOrFail({ page: '/big' });
    expect(row.views).toBe(2n ** 53n + 1n);
    expect(row.bytes).toBe(2n ** 63n - 1n);
    await stats.add({ page: '/big' }, { bytes: 1n });
    expect((await stats.findOneOrFail({ page: '/big' })).bytes).toBe(-(2n ** 63n));
  });

  it('add() with changes sets and deletes plain columns in the same atomic row write', async () => {
    await stats.add({ page: '/mixed' }, { views: 2 }, { changes: { title: 'Home' } });
    await stats.add({ page: '/mixed' }, { views: 3 }, { changes: { title: null } });
    const row = await stats.findOneOrFail({ page: '/mixed' });
    expect(row.views).toBe(5);
    expect(row.title).toBeUndefined();
  });

  it('save() leaves aggregate columns alone: a total read back and saved again is not added twice', async () => {
    await stats.add({ page: '/save' }, { views: 7 });
    const row = await stats.findOneOrFail({ page: '/save' });
    row.title = 'Saved';
    await stats.save(row);
    expect(await stats.findOneOrFail({ page: '/save' })).toMatchObject({ views: 7, title: 'Saved' });
  });

  it('update() resets a total with null and refuses a value', async () => {
    await stats.add({ page: '/reset' }, { views: 4 }, { changes: { title: 't' } });
    await stats.update({ page: '/reset' }, { views: null });
    expect((await stats.findOneOrFail({ page: '/reset' })).views).toBeUndefined();
    await stats.add({ page: '/reset' }, { views: 1 });
    expect((await stats.findOneOrFail({ page: '/reset' })).views).toBe(1);
    await expect(stats.update({ page: '/reset' }, { views: 3 })).rejects.toThrow(ValidationError);
  });

  // Measured on this emulator (docs/aggregates.md): it accepts min and max families and their inputs but keeps
  // the last input rather than the minimum or maximum; an hll cell holds the last int64 input, not a sketch.
  it('min, max and hll on the emulator: created, written and read back as the emulator keeps them', async () => {
    await stats.add({ page: '/mm' }, { fastestMs: 30, slowestMs: 30, visitors: 11 });
    await stats.add({ page: '/mm' }, { fastestMs: 10, slowestMs: 90, visitors: 12 });
    await stats.add({ page: '/mm' }, { fastestMs: 20, slowestMs: 40, visitors: 11 });
    const row = await stats.findOneOrFail({ page: '/mm' });
    expect({ fastestMs: row.fastestMs, slowestMs: row.slowestMs }).toEqual({ fastestMs: 20, slowestMs: 40 });
    expect(row.visitors?.toString('hex')).toBe('000000000000000b');
    await stats.add({ page: '/mm' }, { visitors: Buffer.from('0102', 'hex') });
    expect((await stats.findOneOrFail({ page: '/mm' })).visitors?.toString('hex')).toBe('0102');
  });
});

describe('aggregate drift', () => {
  const drifted = uniqueTableId('aggregates-drift');

  @Entity({ table: drifted })
  @Family('stats')
  class PlainStats {
    @KeyPart(0, { type: 'string' }) page!: string;
    @Column({ family: 'stats', type: 'int' }) views?: number;
  }

  @Entity({ table: drifted })
  @Family('stats', { aggregate: 'sum' })
  class SumStats {
    @KeyPart(0, { type: 'string' }) page!: string;
    @Column({ family: 'stats', type: 'int' }) views?: number | bigint;
  }

  let plain: BigtableMapper;
  let summed: BigtableMapper;

  beforeAll(async () => {
    plain = openMapper([PlainStats]);
    await plain.sync();
    summed = openMapper([SumStats]);
  });

  afterAll(async () => {
    await summed.close();
    await closeMapper(plain, [drifted]);
  });

  it('a family that exists as a plain family shows as aggregate-mismatch in a dry run; sync fails before applying anything', async () => {
    const { changes } = await summed.sync({ dryRun: true });
    expect(changes).toEqual([
      expect.objectContaining({
        kind: 'aggregate-mismatch',
        table: drifted,
        family: 'stats',
        from: undefined,
        to: 'sum',
      }),
    ]);
    await expect(summed.sync()).rejects.toSatisfy(
      (err) =>
        err instanceof SchemaSyncError &&
        /value type is fixed when it is created/.test(err.message) &&
        (err.details as { change?: string }).change === 'aggregate-mismatch',
    );
    expect(await plain.driver.getFamilies({ table: drifted })).toEqual([{ name: 'stats', gc: undefined }]);
  });

  it('add() to a family the instance has as a plain one is rejected by the server, not reported as unknown', async () => {
    const repo = summed.getRepository(SumStats);
    const err = await repo.add({ page: '/' }, { views: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'DriverError' });
  });
});
