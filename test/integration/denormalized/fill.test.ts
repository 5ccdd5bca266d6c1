import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BigtableMapper, PartialWriteError, ValidationError, type Repository } from '../../../src/index.js';
import { closeMapper, openMapper, rawRow, recordingDriver, type DriverRecord } from '../../fixtures/entities.js';
import { denormalizedEntities } from './entities.js';

const E = denormalizedEntities('denorm-fill');
type Sensor = InstanceType<typeof E.Sensor>;
type Reading = InstanceType<typeof E.Reading>;

let mapper: BigtableMapper;
let record: DriverRecord;
let sensors: Repository<Sensor>;
let readings: Repository<Reading>;

const SENSORS = 7;
const T0 = Date.UTC(2024, 0, 1);
const reading = (sensorId: string, i: number): Reading =>
  Object.assign(new E.Reading(), { sensorId, ts: new Date(T0 + i * 60_000), temperature: 20 + (i % 5) });

beforeAll(async () => {
  const recorded = recordingDriver(openMapper([]).driver);
  record = recorded.record;
  mapper = new BigtableMapper({ driver: recorded.driver, entities: [E.Sensor, E.Reading] });
  await mapper.sync();
  sensors = mapper.getRepository(E.Sensor);
  readings = mapper.getRepository(E.Reading);
  await sensors.saveMany(
    Array.from({ length: SENSORS }, (_, i) =>
      Object.assign(new E.Sensor(), {
        id: `sensor-${i}`,
        location: `greenhouse-${i}`,
        kind: i % 2 === 0 ? 'thermo' : 'hygro',
      }),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.sensors, E.tables.readings]));

/** The number of keys of each readRows call on the sensors table since call number `from`. */
function sensorReads(from: number): number[] {
  return record.args.slice(from).flatMap((args, i) => {
    const request = args[0] as { table?: string; keys?: Buffer[] };
    return record.calls[from + i] === 'readRows' && request.table === E.tables.sensors
      ? [request.keys?.length ?? 0]
      : [];
  });
}

describe('@Denormalized fill on save (emulator)', () => {
  it('copies location and kind into 1,000 readings over 7 sensors with one source lookup per distinct sensor, and one check after', async () => {
    const findMany = vi.spyOn(sensors, 'findMany');
    const rowsBefore = record.rowsRead.length;
    const callsBefore = record.calls.length;
    const entities = Array.from({ length: 1_000 }, (_, i) => reading(`sensor-${i % SENSORS}`, i));
    expect(await readings.saveMany(entities, { batchSize: 250, concurrency: 2 })).toEqual({ written: 1_000 });

    // One lookup to fill, one after the writes to catch a sensor that changed meanwhile.
    expect(findMany).toHaveBeenCalledTimes(2);
    expect(findMany.mock.calls.map((c) => c[0].length)).toEqual([SENSORS, SENSORS]);
    expect(sensorReads(callsBefore)).toEqual([SENSORS, SENSORS]);
    const sensorRowsRead = record.rowsRead
      .slice(rowsBefore)
      .filter((r) => r.key.toString().startsWith('sensor-') && r.cells.info !== undefined);
    expect(sensorRowsRead).toHaveLength(2 * SENSORS);
    findMany.mockRestore();

    let copied = 0;
    for await (const r of readings.iterate({ select: ['location', 'kind'] })) {
      const n = Number(r.sensorId.slice('sensor-'.length));
      if (r.location === `greenhouse-${n}` && r.kind === (n % 2 === 0 ? 'thermo' : 'hygro')) copied++;
    }
    expect(copied).toBe(1_000);
    expect(entities.every((e) => e.location === undefined)).toBe(true);
  });

  it('fills a single save with one read and checks it with one more, and keeps a value given by the caller', async () => {
    const callsBefore = record.calls.length;
    await readings.save(Object.assign(reading('sensor-3', 5_000), { kind: 'custom' }));
    expect(sensorReads(callsBefore)).toEqual([1, 1]);
    const row = await rawRow(mapper, E.tables.readings, readings.compileSave(reading('sensor-3', 5_000)).rowKeyText);
    const cell = (q: string) => row?.cells.find((c) => c.family === 'meta' && c.qualifier === q)?.value.toString();
    expect([cell('location'), cell('kind')]).toEqual(['greenhouse-3', 'custom']);
  });

  it('never writes a reading without its copy: a missing sensor fails the save, and that entity only in saveMany', async () => {
    await expect(readings.save(reading('sensor-missing', 1))).rejects.toThrow(ValidationError);
    const entities = [reading('sensor-1', 6_000), reading('sensor-missing', 6_001), reading('sensor-2', 6_002)];
    const error = (await readings.saveMany(entities).catch((e: unknown) => e)) as PartialWriteError<Reading>;
    expect(error).toBeInstanceOf(PartialWriteError);
    expect(error.failures.map((f) => [f.index, f.entity])).toEqual([[1, entities[1]]]);
    expect(error.failures[0]?.message).toContain('no Sensor with { id: "sensor-missing" } to copy location from');
    expect(error.succeeded).toBe(2);
    const found = await readings.findMany(entities.map((e) => ({ sensorId: e.sensorId, ts: e.ts })));
    expect(found.map((f) => f?.location)).toEqual(['greenhouse-1', undefined, 'greenhouse-2']);
    expect(found[1]).toBeUndefined();
  });
});
