import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BigtableMapper, Column, Denormalized, Entity, Family, KeyPart } from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { everySchedule, interleavingCases, StepScheduler } from '../../support/interleavings.js';

// Every interleaving of the single-row steps of writers of one source row and of the rows copying from it,
// against the in-memory driver. Whatever the order, once every actor is done each dependent row that exists
// holds the source's final value, and a deleted row stays deleted unless a save wrote it after the delete.

const T0 = 1_700_000_000_000;

@Entity({ table: 'il-sensors' })
@Family('info')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) name?: string;
  @Column({ family: 'info', type: 'string' }) location?: string | null;
}

@Entity({ table: 'il-readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) seq!: number;
  @Column({ family: 'm', type: 'int' }) value?: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'm', type: 'string' })
  location?: string | null;
}

const sensor = (location: string | null): Sensor => Object.assign(new Sensor(), { id: 's', name: 'probe', location });
const reading = (seq: number, value: number): Reading => Object.assign(new Reading(), { sensorId: 's', seq, value });

type Actor = (mapper: BigtableMapper) => Promise<unknown>;

// One row write at a time per actor: the scheduler holds one step per actor. Rows are independent, so
// more writes in flight only interleave single-row steps that these schedules already cover.
const one = { concurrency: 1 };

/** A source change is a save of the sensor followed by its propagation, as the guide tells users to do. */
const change =
  (location: string | null): Actor =>
  async (m) => {
    await m.getRepository(Sensor).save(sensor(location));
    return m.getRepository(Reading).propagate(sensor(location), one);
  };

const ACTORS: Readonly<Record<string, Actor>> = {
  update: change('b'),
  update2: change('c'),
  clear: async (m) => {
    await m.getRepository(Sensor).update({ id: 's' }, { location: null });
    return m.getRepository(Reading).propagate(sensor(null), one);
  },
  saveExisting: (m) => m.getRepository(Reading).save(reading(1, 5)),
  saveNew: (m) => m.getRepository(Reading).save(reading(2, 6)),
  saveMany: (m) => m.getRepository(Reading).saveMany([reading(2, 7), reading(3, 8)], one),
  propagate: (m) => m.getRepository(Reading).propagate(sensor('ignored: the stored value is propagated'), one),
  delete: (m) => m.getRepository(Reading).delete({ sensorId: 's', seq: 1 }),
};

/** Sensor s at 'a', and reading 1 holding its copy. */
async function world(): Promise<FakeDriver> {
  const driver = new FakeDriver({ yieldInCalls: false, nowMs: () => T0 });
  const setup = new BigtableMapper({ driver, entities: [Sensor, Reading] });
  await setup.sync();
  await setup.getRepository(Sensor).save(sensor('a'));
  await setup.getRepository(Reading).save(reading(1, 1));
  await setup.close();
  return driver;
}

/** Checks the end state of one schedule; resolves nothing, throws what is wrong. */
async function check(driver: FakeDriver, names: readonly string[], trace: readonly string[]): Promise<void> {
  const reader = new BigtableMapper({ driver, entities: [Sensor, Reading] });
  const source = await reader.getRepository(Sensor).findOne({ id: 's' });
  const rows: Reading[] = [];
  for await (const r of reader.getRepository(Reading).iterate()) rows.push(r);
  await reader.close();
  const stale = rows.filter((r) => (r.location ?? null) !== (source?.location ?? null));
  if (stale.length > 0)
    throw new Error(
      `stale copies ${JSON.stringify(stale.map((r) => [r.seq, r.location]))}, source ${JSON.stringify(source?.location)}\nschedule: ${trace.join(' ')}`,
    );
  if (names.includes('delete') && rows.some((r) => r.seq === 1)) {
    const deletedAt = trace.indexOf('delete:mutateRow');
    const savedAfter = trace.some((step, i) => step === 'saveExisting:mutateRow' && i > deletedAt);
    if (!savedAfter) throw new Error(`a deleted row came back\nschedule: ${trace.join(' ')}`);
  }
}

/** Runs every interleaving of `names`; resolves how many there were. */
async function everyInterleaving(names: readonly string[]): Promise<number> {
  return everySchedule(async (choices) => {
    const driver = await world();
    const scheduler = new StepScheduler();
    const mapper = new BigtableMapper({ driver: scheduler.gate(driver), entities: [Sensor, Reading] });
    const actors = Object.fromEntries(names.map((n) => [n, () => (ACTORS[n] as Actor)(mapper)]));
    const { widths, results } = await scheduler.run(actors, choices);
    await mapper.close();
    for (const [name, result] of Object.entries(results))
      if (result !== null && typeof result === 'object' && 'error' in result)
        throw new Error(`${name} failed: ${String(result.error)}\nschedule: ${scheduler.trace.join(' ')}`);
    await check(driver, names, scheduler.trace);
    return widths;
  });
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: T0 });
});

afterAll(() => {
  vi.useRealTimers();
});

describe('denormalized copies: every interleaving of two actors', () => {
  const pairs = [
    ['update', 'saveExisting'],
    ['update', 'saveNew'],
    ['update', 'saveMany'],
    ['update', 'delete'],
    ['update', 'update2'],
    ['update', 'clear'],
    ['update', 'propagate'],
    ['clear', 'saveExisting'],
    ['clear', 'saveNew'],
    ['clear', 'propagate'],
    ['saveExisting', 'delete'],
    ['propagate', 'delete'],
  ];
  // Up to 3,053 schedules (update with saveMany): a few seconds alone, several times that on a busy machine.
  it.each(pairs)(
    '%s with %s',
    async (a, b) => {
      expect(await everyInterleaving([a as string, b as string])).toBeGreaterThan(1);
    },
    120_000,
  );
});

// npm test enumerates the cheapest three-actor case; the soak tier all of them (interleavingCases).
describe('denormalized copies: every interleaving of three actors', () => {
  it.each(
    interleavingCases([
      ['update', 'saveExisting', 'delete'],
      ['clear', 'saveExisting', 'delete'],
      ['update', 'saveNew', 'delete'],
      ['update', 'propagate', 'delete'],
    ]),
  )(
    '%s, %s and %s',
    async (a, b, c) => {
      expect(await everyInterleaving([a, b, c])).toBeGreaterThan(100);
    },
    120_000,
  );
});
