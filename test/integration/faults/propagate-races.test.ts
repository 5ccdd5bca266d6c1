import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableMapper, Repository } from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { denormalizedEntities } from '../denormalized/entities.js';

/**
 * propagate() racing other writers of the same dependent rows, with real
 * concurrency against the emulator: a deleteMany of the rows it rewrites, and
 * a saveMany writing copies of a newer source value while it propagates an
 * older one. Each race starts the other writer once propagate has scanned its
 * first rows, so both run over the same rows at the same time.
 */
const E = denormalizedEntities('prop-race');
type Sensor = InstanceType<typeof E.Sensor>;
type Reading = InstanceType<typeof E.Reading>;

const ROWS = 1500;
const T0 = Date.UTC(2024, 0, 1);

let mapper: BigtableMapper;
let sensors: Repository<Sensor>;
let readings: Repository<Reading>;

const sensor = (id: string, location: string): Sensor =>
  Object.assign(new E.Sensor(), { id, location, kind: 'thermo' });
const reading = (sensorId: string, i: number): Reading =>
  Object.assign(new E.Reading(), { sensorId, ts: new Date(T0 + i * 1000), temperature: i });
const readingsOf = (sensorId: string): Reading[] => Array.from({ length: ROWS }, (_, i) => reading(sensorId, i));

/** Runs `propagate` and starts `other` once propagate has scanned its first rows; settles both, then throws the first failure. */
async function race(
  propagate: (onProgress: () => void) => Promise<unknown>,
  other: () => Promise<unknown>,
): Promise<void> {
  let started: Promise<unknown> | undefined;
  const start = (): Promise<unknown> => (started ??= other());
  const propagated = propagate(() => void start());
  const results = await Promise.allSettled([propagated, propagated.finally(start)]);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/** Every reading of one sensor, read through the mapper. */
async function readingsOfSensor(sensorId: string): Promise<Reading[]> {
  const rows: Reading[] = [];
  for await (const row of readings.iterate({ where: { sensorId } })) rows.push(row);
  return rows;
}

beforeAll(async () => {
  mapper = openMapper([E.Sensor, E.Reading]);
  await mapper.sync();
  sensors = mapper.getRepository(E.Sensor);
  readings = mapper.getRepository(E.Reading);
});

afterAll(() => closeMapper(mapper, [E.tables.sensors, E.tables.readings]));

describe('propagate racing other writers (emulator)', () => {
  it('never re-creates a row that deleteMany removes while it propagates', async () => {
    await sensors.save(sensor('del', 'v1'));
    await readings.saveMany(readingsOf('del'));
    await sensors.save(sensor('del', 'v2'));

    await race(
      (onProgress) => readings.propagate(sensor('del', 'v2'), { batchSize: 50, onProgress }),
      () => readings.deleteMany(readingsOf('del').map((r) => ({ sensorId: r.sensorId, ts: r.ts }))),
    );

    const left = await readingsOfSensor('del');
    expect(left.length, 'rows re-created by propagate after deleteMany removed them').toBe(0);
  });

  it('never overwrites a copy that a concurrent save wrote from a newer source value', async () => {
    await sensors.save(sensor('new', 'v1'));
    await readings.saveMany(readingsOf('new'));
    const older = sensor('new', 'v2');
    await sensors.save(older);
    await sensors.save(sensor('new', 'v3'));

    await race(
      (onProgress) => readings.propagate(older, { batchSize: 50, onProgress }),
      () => readings.saveMany(readingsOf('new')),
    );

    const rows = await readingsOfSensor('new');
    expect(rows).toHaveLength(ROWS);
    const overwritten = rows.filter((r) => r.location !== 'v3');
    expect(overwritten.length, 'copies of v3 overwritten with the older v2').toBe(0);
  });
});
