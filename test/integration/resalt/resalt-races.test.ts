import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/tools.js';
import type { BigtableDriver } from '../../../src/model/driver.js';
import { holdingCheckAndMutate } from '../../support/held-calls.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { closeMapper, rawKeys } from '../../fixtures/entities.js';

const table = uniqueTableId('resalt-races');

@Entity({ table })
@Family('e')
class Plain {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'int' }) n?: number;
  @Column({ family: 'e', type: 'string' }) note?: string;
}

@Entity({ table })
@Salt({ buckets: 4, previous: null })
@Family('e')
class Salted {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'int' }) n?: number;
  @Column({ family: 'e', type: 'string' }) note?: string;
}

const open = (entities: (new () => object)[]) =>
  new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId, entities });
const newKey = (id: string) => encodeRowKey(compileEntity(Salted), { id }).key;

/** The driver the re-salt runs on: runs `hooks[id]` (a concurrent user's change) just before the re-salt's first copy of that row. */
const interleaving = (inner: BigtableDriver, hooks: Record<string, () => Promise<unknown>>): BigtableDriver =>
  holdingCheckAndMutate(
    inner,
    new Map(Object.entries(hooks).map(([id, hook]) => [newKey(id).toString('latin1'), hook])),
  );

let before: BigtableMapper;
let user: BigtableMapper;

beforeAll(async () => {
  before = open([Plain]);
  await before.sync();
  await before.getRepository(Plain).saveMany([
    { id: 'deleted-meanwhile', n: 1 },
    { id: 'cleared-meanwhile', n: 2, note: 'x' },
    { id: 'counted-before', n: 5 },
    { id: 'counted-meanwhile', n: 10 },
    { id: 'untouched', n: 3, note: 'y' },
  ]);
  user = open([Salted]);
  await user.sync();
});

afterAll(async () => {
  await closeMapper(user, []);
  await closeMapper(before, [table]);
});

describe('re-salting under concurrent changes to rows not moved yet', () => {
  it('an increment before the move counts from the stored value', async () => {
    expect(await user.getRepository(Salted).increment({ id: 'counted-before' }, 'n', 2)).toBe(7);
  });

  it('a delete, a column clear and an increment during the move all stand afterwards', async () => {
    const repo = user.getRepository(Salted);
    const resalting = new BigtableMapper({
      driver: interleaving(user.driver, {
        'deleted-meanwhile': () => repo.delete({ id: 'deleted-meanwhile' }),
        'cleared-meanwhile': () => repo.update({ id: 'cleared-meanwhile' }, { note: null }),
        'counted-meanwhile': () => repo.increment({ id: 'counted-meanwhile' }, 'n', 1),
      }),
      entities: [Salted],
    });
    const result = await resalting.resalt(Salted);
    expect(result.remaining).toBe(0);

    expect(await repo.findOne({ id: 'deleted-meanwhile' })).toBeUndefined();
    const cleared = await repo.findOne({ id: 'cleared-meanwhile' });
    expect(cleared?.n).toBe(2);
    expect(cleared?.note).toBeUndefined();
    expect(await repo.findOne({ id: 'counted-before' })).toMatchObject({ n: 7 });
    expect(await repo.findOne({ id: 'counted-meanwhile' })).toMatchObject({ n: 11 });
    expect(await repo.findOne({ id: 'untouched' })).toMatchObject({ n: 3, note: 'y' });
    const keys = await rawKeys(user, table);
    // The deleted row's new key holds only its tombstone (the mark), which reads treat as no row.
    expect(keys.sort()).toEqual(
      ['cleared-meanwhile', 'counted-before', 'counted-meanwhile', 'deleted-meanwhile', 'untouched']
        .map((id) => newKey(id).toString())
        .sort(),
    );
    await resalting.close();
  });
});
