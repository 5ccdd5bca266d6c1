import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, TableNotFoundError } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import type { BigtableDriver } from '../../../src/model/driver.js';
import { holdingCheckAndMutate } from '../../support/held-calls.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { closeMapper, rawKeys } from '../../fixtures/entities.js';

// The interleavings that lost data before the move protocol changed, forced on the emulator: a mover's
// step is held until another actor finished (the exhaustive schedules run in resalt-interleavings.test.ts).

const table = uniqueTableId('resalt-movers');

@Entity({ table })
@Family('e')
class Plain {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) n?: number | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
}

@Entity({ table })
@Salt({ buckets: 4, previous: null })
@Family('e')
class Salted {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) n?: number | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
}

const open = (entities: (new () => object)[]) =>
  new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId, entities });
const oldKey = (id: string) => encodeRowKey(compileEntity(Plain), { id }).key.toString('latin1');

/** A driver on which the delete of an old row waits for `hooks[id]` (another actor, run to its end) first. */
const holdingOldDeletes = (inner: BigtableDriver, hooks: Record<string, () => Promise<unknown>>): BigtableDriver =>
  holdingCheckAndMutate(inner, new Map(Object.entries(hooks).map(([id, hook]) => [oldKey(id), hook])));

let before: BigtableMapper;
let user: BigtableMapper;
const rows = 16;
const ids = (prefix: string) => Array.from({ length: rows }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  user = open([Salted]);
  await expect(user.resalt(Salted)).rejects.toThrow(TableNotFoundError);
  before = open([Plain]);
  await before.sync();
  await expect(user.resalt(Salted)).rejects.toThrow(/has no "_resalt" family.*run mapper\.sync\(\)/);
  await user.sync();
});

/** Writes rows under their old (unsalted) keys; each test seeds its own, since a re-salt moves the whole table. */
async function seed(...prefixes: string[]): Promise<void> {
  const seeded = prefixes.flatMap(ids);
  await before.getRepository(Plain).saveMany(seeded.map((id, i) => ({ id, name: id, n: i, count: 1 })));
  const old = new Set(seeded.map(oldKey));
  expect((await rawKeys(user, table)).filter((k) => old.has(k)).length).toBe(seeded.length);
}

afterAll(async () => {
  await closeMapper(user, []);
  await closeMapper(before, [table]);
});

describe('two movers of one row', () => {
  it('an update or increment that moves the row while the re-salt waits to delete it loses nothing', async () => {
    await seed('updated', 'incremented');
    const repo = user.getRepository(Salted);
    const hooks: Record<string, () => Promise<unknown>> = {};
    for (const id of ids('updated')) hooks[id] = () => repo.update({ id }, { count: 7 });
    for (const id of ids('incremented')) hooks[id] = () => repo.increment({ id }, 'count', 6);
    const mover = new BigtableMapper({ driver: holdingOldDeletes(user.driver, hooks), entities: [Salted] });
    await mover.resalt(Salted);
    const found = await repo.findMany([...ids('updated'), ...ids('incremented')].map((id) => ({ id })));
    expect(found.map((e) => [e?.name, e?.count])).toEqual(
      [...ids('updated'), ...ids('incremented')].map((id) => [id, 7]),
    );
    expect(found.every((e) => typeof e?.n === 'number')).toBe(true);
    await mover.close();
  });

  it('a second re-salt run that moves the row while the first waits to delete it loses nothing', async () => {
    await seed('second-run');
    const second = open([Salted]);
    const hooks: Record<string, () => Promise<unknown>> = {};
    let runs = 0;
    for (const id of ids('second-run')) hooks[id] = async () => runs++ === 0 && (await second.resalt(Salted));
    const first = new BigtableMapper({ driver: holdingOldDeletes(user.driver, hooks), entities: [Salted] });
    expect((await first.resalt(Salted)).remaining).toBe(0);
    const found = await user.getRepository(Salted).findMany(ids('second-run').map((id) => ({ id })));
    expect(found.map((e) => [e?.name, e?.count])).toEqual(ids('second-run').map((id) => [id, 1]));
    await Promise.all([first.close(), second.close()]);
  });
});

describe('save while re-salting', () => {
  it('moves the row first: a partial save reads whole at once, a cleared column stays cleared', async () => {
    await seed('saved', 'cleared');
    const repo = user.getRepository(Salted);
    const saved = ids('saved');
    const cleared = ids('cleared');
    await repo.saveMany(saved.map((id) => ({ id, name: 'partial' })));
    await repo.save({ id: cleared[0] as string, name: 'one', count: null });
    await repo.saveMany(cleared.slice(1).map((id) => ({ id, name: 'many', count: null })));
    const mid = await repo.findMany([...saved, ...cleared].map((id) => ({ id })));
    expect(mid.map((e) => [e?.name, typeof e?.n, e?.count])).toEqual([
      ...saved.map(() => ['partial', 'number', 1]),
      ['one', 'number', undefined],
      ...cleared.slice(1).map(() => ['many', 'number', undefined]),
    ]);
    expect((await user.resalt(Salted)).remaining).toBe(0);
    const after = await repo.findMany([...saved, ...cleared].map((id) => ({ id })));
    expect(after.map((e) => [e?.name, e?.n, e?.count])).toEqual(mid.map((e) => [e?.name, e?.n, e?.count]));
    const keys = await rawKeys(user, table);
    expect(keys.filter((k) => !/^\d\d#/.test(k))).toEqual([]);
  });
});

const mixed = uniqueTableId('resalt-mixed');

@Entity({ table: mixed })
@Salt({ buckets: 4 })
@Family('e')
class Four {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
}

@Entity({ table: mixed })
@Salt({ buckets: 16, previous: { buckets: 4 } })
@Family('e')
class Sixteen {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
}

describe('re-salting from 4 to 16 buckets, two runs at once, under saves, updates, increments and deletes', () => {
  const ROWS = 2000;
  const id = (i: number) => `r${String(i).padStart(5, '0')}`;
  /** Each row gets one kind of change, so its serial outcome does not depend on the order of the moves. */
  const change = (i: number) => (['none', 'save', 'update', 'increment', 'delete'] as const)[i % 5];
  let four: BigtableMapper;
  let sixteen: BigtableMapper;

  beforeAll(async () => {
    four = open([Four]);
    await four.sync();
    sixteen = open([Sixteen]);
    await sixteen.sync();
    await four
      .getRepository(Four)
      .saveMany(Array.from({ length: ROWS }, (_, i) => ({ id: id(i), name: id(i), count: i })));
  }, 60_000);

  afterAll(async () => {
    await closeMapper(sixteen, []);
    await closeMapper(four, [mixed]);
  });

  it('ends with the table the serial outcome gives, every row in the new layout once', async () => {
    const repo = sixteen.getRepository(Sixteen);
    const second = open([Sixteen]);
    const changes = async (): Promise<void> => {
      const saves = [];
      for (let i = 0; i < ROWS; i++) if (change(i) === 'save') saves.push({ id: id(i), name: 'saved', count: null });
      const others = async (from: number): Promise<void> => {
        for (let i = from; i < ROWS; i += 4) {
          if (change(i) === 'update') await repo.update({ id: id(i) }, { name: null });
          if (change(i) === 'increment') await repo.increment({ id: id(i) }, 'count', 1000);
          if (change(i) === 'delete') await repo.delete({ id: id(i) });
        }
      };
      await Promise.all([repo.saveMany(saves, { batchSize: 50 }), others(0), others(1), others(2), others(3)]);
    };
    const [a, b] = await Promise.all([sixteen.resalt(Sixteen, { batchSize: 100 }), second.resalt(Sixteen), changes()]);
    await second.close();
    expect(a.ranges + b.ranges).toBe(8);
    expect((await sixteen.resalt(Sixteen)).remaining).toBe(0);

    const expected = (i: number) => {
      switch (change(i)) {
        case 'save':
          return { id: id(i), name: 'saved' };
        case 'update':
          return { id: id(i), count: i };
        case 'increment':
          return { id: id(i), name: id(i), count: i + 1000 };
        case 'delete':
          return undefined;
        default:
          return { id: id(i), name: id(i), count: i };
      }
    };
    const found = await repo.findMany(Array.from({ length: ROWS }, (_, i) => ({ id: id(i) })));
    expect(found.map((e) => (e === undefined ? undefined : { ...e }))).toEqual(
      Array.from({ length: ROWS }, (_, i) => expected(i)),
    );
    const scanned = [];
    for await (const e of repo.iterate()) scanned.push({ ...e });
    expect(scanned).toEqual(found.filter((e) => e !== undefined).map((e) => ({ ...e })));
    const keys = await rawKeys(sixteen, mixed);
    const newKeys = new Set(
      Array.from({ length: ROWS }, (_, i) => encodeRowKey(compileEntity(Sixteen), { id: id(i) }).text),
    );
    expect(keys.filter((k) => !newKeys.has(k))).toEqual([]);
  }, 120_000);
});
