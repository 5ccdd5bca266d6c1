import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BigtableMapper, ValidationError } from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { propertyRuns } from '../../support/property-runs.js';
import { Reading, Sensor } from './entities.js';

// Application servers whose clocks disagree, sharing one table: which copy wins must not depend on them.

const T0 = 1_700_000_000_000;
const sensor = (location: string): Sensor => Object.assign(new Sensor(), { id: 's', location, kind: 'thermo' });
const reading = (i: number): Reading =>
  Object.assign(new Reading(), { sensorId: 's', ts: new Date(T0 + i * 1000), temperature: i });

/** One in-memory table set and two mappers on it, whose clocks are `a` and `b` ms off the table's. */
function servers(a: number, b: number): { driver: FakeDriver; first: BigtableMapper; second: BigtableMapper } {
  const driver = new FakeDriver({ yieldInCalls: false, nowMs: () => T0 });
  const entities = [Sensor, Reading];
  return {
    driver,
    first: new BigtableMapper({ driver, entities, clock: () => T0 + a }),
    second: new BigtableMapper({ driver, entities, clock: () => T0 + b }),
  };
}

async function locations(mapper: BigtableMapper): Promise<(string | null | undefined)[]> {
  const rows: (string | null | undefined)[] = [];
  for await (const r of mapper.getRepository(Reading).iterate()) rows.push(r.location);
  return rows;
}

// The sensor is always written by the same server: the order of writes to one source row is the one thing the
// guarantee assumes (Bigtable orders them by their timestamps). The readings and the propagations come from both.

/** One server saves readings of the sensor, then the sensor changes and the other server propagates it. */
async function saveThenChange(first: BigtableMapper, second: BigtableMapper): Promise<void> {
  await second.getRepository(Sensor).save(sensor('v1'));
  await first.getRepository(Reading).saveMany([reading(1), reading(2)]);
  await first.getRepository(Reading).save(reading(3));
  await second.getRepository(Sensor).save(sensor('v2'));
  await second.getRepository(Reading).propagate(sensor('v2'));
}

/** The sensor changes twice; one server propagates the first change, the other the second. */
async function changeTwice(first: BigtableMapper, second: BigtableMapper): Promise<void> {
  await second.getRepository(Sensor).save(sensor('v1'));
  await first.getRepository(Reading).saveMany([reading(1), reading(2)]);
  await second.getRepository(Sensor).save(sensor('v2'));
  await first.getRepository(Reading).propagate(sensor('v2'));
  await second.getRepository(Sensor).save(sensor('v3'));
  await second.getRepository(Reading).propagate(sensor('v3'));
}

describe('denormalized copies across servers whose clocks disagree', () => {
  it.each([
    [50, 0],
    [0, 50],
    [-50, 0],
    [0, -50],
  ])('a save on a server %i ms off, then a change propagated from one %i ms off', async (a, b) => {
    const { first, second } = servers(a, b);
    await saveThenChange(first, second);
    expect(await locations(second)).toEqual(['v2', 'v2', 'v2']);
  });

  it.each([
    [50, 0],
    [0, 50],
    [0, 0],
  ])('a propagation from a server %i ms off, then one from a server %i ms off', async (a, b) => {
    const { first, second } = servers(a, b);
    await changeTwice(first, second);
    expect(await locations(first)).toEqual(['v3', 'v3']);
  });

  it('holds for any two clock offsets, the same millisecond included', async () => {
    const offset = fc.integer({ min: -5_000, max: 5_000 });
    await fc.assert(
      fc.asyncProperty(offset, offset, fc.boolean(), async (a, b, twice) => {
        const { first, second } = servers(a, b);
        if (twice) {
          await changeTwice(first, second);
          expect(await locations(first)).toEqual(['v3', 'v3']);
        } else {
          await saveThenChange(first, second);
          expect(await locations(first)).toEqual(['v2', 'v2', 'v2']);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('refuses a clock that is not a function', () => {
    expect(() => new BigtableMapper({ driver: new FakeDriver(), clock: 5 as never })).toThrow(ValidationError);
  });
});
