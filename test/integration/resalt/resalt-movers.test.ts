import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, TableNotFoundError } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import type { BigtableDriver, CheckAndMutateRequest } from '../../../src/model/driver.js';
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
function holdingOldDeletes(inner: BigtableDriver, hooks: Record<string, () => Promise<unknown>>): BigtableDriver {
  const pending = new Map(Object.entries(hooks).map(([id, hook]) => [oldKey(id), hook]));
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'checkAndMutate')
        return async (request: CheckAndMutateRequest, options?: object) => {
          const hook = pending.get(request.rowKey.toString('latin1'));
          if (hook !== undefined) {
            pending.delete(request.rowKey.toString('latin1'));
            await hook();
          }
          return target.checkAndMutate(request, options);
        };
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

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
  const seeded = ['updated', 'incremented', 'second-run', 'saved', 'cleared'].flatMap(ids);
  await before.getRepository(Plain).saveMany(seeded.map((id, i) => ({ id, name: id, n: i, count: 1 })));
});

afterAll(async () => {
  await closeMapper(user, []);
  await closeMapper(before, [table]);
});

describe('two movers of one row', () => {
  it('an update or increment that moves the row while the re-salt waits to delete it loses nothing', async () => {
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
