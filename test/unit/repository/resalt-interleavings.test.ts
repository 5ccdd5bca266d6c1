import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { everySchedule, interleavingCases, permutations, StepScheduler } from '../../support/interleavings.js';

// Every interleaving of the single-row steps of two or three actors on one row that is still under its
// previous key, against the in-memory driver: the table afterwards must be what some serial order of
// the same operations gives (with the same results), and the old row must be gone.

const table = 'interleaved';
const T0 = 1_700_000_000_000;

@Entity({ table })
@Family('e')
class Before {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
  @Column({ family: 'e', type: 'string' }) note?: string | null;
}

@Entity({ table })
@Salt({ buckets: 4, previous: null })
@Family('e')
class Moving {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'string' }) name?: string | null;
  @Column({ family: 'e', type: 'int' }) count?: number | null;
  @Column({ family: 'e', type: 'string' }) note?: string | null;
}

const oldKey = encodeRowKey(compileEntity(Before), { id: 'k' }).key;

type Actor = (mapper: BigtableMapper) => Promise<unknown>;

const ACTORS: Readonly<Record<string, Actor>> = {
  resalt: async (m) => void (await m.resalt(Moving)),
  resalt2: async (m) => void (await m.resalt(Moving)),
  save: (m) => m.getRepository(Moving).save({ id: 'k', name: 's', count: null }),
  update: (m) => m.getRepository(Moving).update({ id: 'k' }, { note: null, count: 7 }),
  increment: (m) => m.getRepository(Moving).increment({ id: 'k' }, 'count', 5),
  delete: (m) => m.getRepository(Moving).delete({ id: 'k' }),
  replace: (m) => m.getRepository(Moving).replace({ id: 'k', name: 'r' }),
  saveIf: (m) => m.getRepository(Moving).saveIf({ id: 'k', note: 'c' }, { rowExists: false }),
};

/** A table with the row under its previous (unsalted) key. */
async function world(): Promise<FakeDriver> {
  const driver = new FakeDriver({ yieldInCalls: false, nowMs: () => T0 });
  const setup = new BigtableMapper({ driver, entities: [Moving] });
  await setup.sync();
  await setup.close();
  driver.seed(compileSave(compileEntity(Before), { id: 'k', name: 'a', count: 1, note: 'n' }, { now: T0 - 1000 }));
  return driver;
}

/** What a reader sees afterwards, and whether the old row is still there. */
async function observe(driver: FakeDriver): Promise<string> {
  const reader = new BigtableMapper({ driver, entities: [Moving] });
  const repo = reader.getRepository(Moving);
  const one = await repo.findOne({ id: 'k' });
  const scanned = [];
  for await (const e of repo.iterate()) scanned.push({ ...e });
  await reader.close();
  expect(scanned).toEqual(one === undefined ? [] : [{ ...one }]);
  expect(driver.row(table, oldKey)).toBeUndefined();
  return JSON.stringify(one === undefined ? null : { ...one });
}

/** Every outcome (final row and each actor's result) of some serial order of the actors. */
async function serialOutcomes(names: readonly string[]): Promise<Set<string>> {
  const outcomes = new Set<string>();
  for (const order of permutations(names)) {
    const driver = await world();
    const mapper = new BigtableMapper({ driver, entities: [Moving] });
    const results: Record<string, unknown> = {};
    for (const name of order) results[name] = await (ACTORS[name] as Actor)(mapper);
    await mapper.close();
    outcomes.add(outcome(await observe(driver), names, results));
  }
  return outcomes;
}

function outcome(state: string, names: readonly string[], results: Record<string, unknown>): string {
  return JSON.stringify([state, names.map((n) => results[n] ?? null)]);
}

/** Runs every interleaving of `names`; resolves how many there were. */
async function everyInterleaving(names: readonly string[]): Promise<number> {
  const serial = await serialOutcomes(names);
  return everySchedule(async (choices) => {
    const driver = await world();
    const scheduler = new StepScheduler();
    const mapper = new BigtableMapper({ driver: scheduler.gate(driver), entities: [Moving] });
    const actors = Object.fromEntries(names.map((n) => [n, () => (ACTORS[n] as Actor)(mapper)]));
    const { widths, results } = await scheduler.run(actors, choices);
    await mapper.close();
    const seen = outcome(await observe(driver), names, results);
    if (!serial.has(seen))
      throw new Error(
        `not serializable: ${seen}\nschedule: ${scheduler.trace.join(' ')}\nserial: ${[...serial].join('\n')}`,
      );
    return widths;
  });
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
});

afterAll(() => {
  vi.useRealTimers();
});

const names = Object.keys(ACTORS);
const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));

describe('re-salting: every interleaving of two actors on one row', () => {
  it.each(pairs)('%s with %s', async (a, b) => {
    expect(await everyInterleaving([a as string, b as string])).toBeGreaterThan(1);
  });
});

// npm test enumerates the cheapest three-actor case; the soak tier all of them (interleavingCases).
describe('re-salting: every interleaving of three actors on one row', () => {
  it.each(
    interleavingCases([
      ['resalt', 'update', 'delete'],
      ['resalt', 'resalt2', 'delete'],
      ['resalt', 'save', 'delete'],
      ['resalt', 'increment', 'delete'],
      ['save', 'update', 'delete'],
    ]),
  )(
    '%s, %s and %s',
    async (a, b, c) => {
      expect(await everyInterleaving([a, b, c])).toBeGreaterThan(1000);
    },
    60_000,
  );
});
