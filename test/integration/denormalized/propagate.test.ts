import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, MetadataError, type PropagationProgress, type Repository } from '../../../src/index.js';
import { closeMapper, openMapper, recordingDriver, type DriverRecord } from '../../fixtures/entities.js';
import { denormalizedEntities } from './entities.js';
import { cellsText, rawRows } from './raw-rows.js';

const E = denormalizedEntities('denorm-prop');
type Sensor = InstanceType<typeof E.Sensor>;
type Reading = InstanceType<typeof E.Reading>;

let mapper: BigtableMapper;
let record: DriverRecord;
let sensors: Repository<Sensor>;
let readings: Repository<Reading>;

const IDS = ['s1', 's2', 's3'] as const;
const PER_SENSOR = 40;
const T0 = Date.UTC(2024, 0, 1);
const sensor = (id: string, location: string | null, kind = 'thermo'): Sensor =>
  Object.assign(new E.Sensor(), { id, location, kind });

beforeAll(async () => {
  const recorded = recordingDriver(openMapper([]).driver);
  record = recorded.record;
  mapper = new BigtableMapper({
    driver: recorded.driver,
    entities: [E.Sensor, E.Reading, E.SaltedReading, E.SensorSaltedReading, E.TsFirstReading],
  });
  await mapper.sync();
  sensors = mapper.getRepository(E.Sensor);
  readings = mapper.getRepository(E.Reading);
  await sensors.saveMany(IDS.map((id) => sensor(id, `old-${id}`)));
  await readings.saveMany(
    IDS.flatMap((sensorId) =>
      Array.from({ length: PER_SENSOR }, (_, i) =>
        Object.assign(new E.Reading(), { sensorId, ts: new Date(T0 + i * 60_000), temperature: i, humidity: 50 }),
      ),
    ),
  );
});

afterAll(() => closeMapper(mapper, Object.values(E.tables)));

/** The sensor saved: propagation copies the stored source row. */
const saved = async (s: ReturnType<typeof sensor>): Promise<ReturnType<typeof sensor>> => {
  await sensors.save(s);
  return s;
};

const callsSince = (from: number, method: string): number =>
  record.calls.slice(from).filter((c) => c === method).length;

describe('propagate (emulator)', () => {
  it('rewrites the location copy in every row of that sensor only, touching no other cell, and reports progress', async () => {
    const before = await rawRows(mapper, E.tables.readings);
    expect(before.size).toBe(IDS.length * PER_SENSOR);
    const moved = sensor('s2', 'lab-2');
    await sensors.save(moved);
    const progress: PropagationProgress[] = [];
    const callsBefore = record.calls.length;
    const startedMicros = Date.now() * 1000;
    const result = await readings.propagate(moved, { batchSize: 15, onProgress: (p) => progress.push(p) });

    expect(result).toEqual({ scanned: PER_SENSOR, updated: PER_SENSOR });
    expect(callsSince(callsBefore, 'checkAndMutate')).toBe(PER_SENSOR);
    expect(callsSince(callsBefore, 'mutateRows')).toBe(0);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toEqual(result);
    expect(progress.map((p) => p.updated)).toEqual([...progress.map((p) => p.updated)].sort((a, b) => a - b));

    const after = await rawRows(mapper, E.tables.readings);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const version =
      after.get([...after.keys()].find((k) => k.startsWith('s2#')) ?? '')?.cells.find((c) => c.qualifier === 'location')
        ?.timestampMicros ?? 0;
    expect(version).toBeGreaterThanOrEqual(startedMicros);
    for (const [key, row] of before) {
      const now = after.get(key);
      if (!key.startsWith('s2#')) {
        expect(cellsText(now)).toEqual(cellsText(row));
        continue;
      }
      const expected = row.cells.map((c) =>
        c.family === 'meta' && c.qualifier === 'location'
          ? { ...c, value: Buffer.from('lab-2'), timestampMicros: version }
          : c,
      );
      expect(cellsText(now)).toEqual(cellsText({ key: row.key, cells: expected }));
    }
  });

  it('is safe to re-run: the second propagation scans the same rows and writes nothing', async () => {
    const callsBefore = record.calls.length;
    expect(await readings.propagate(sensor('s2', 'lab-2'))).toEqual({ scanned: PER_SENSOR, updated: 0 });
    expect(callsSince(callsBefore, 'checkAndMutate')).toBe(0);
    expect(callsSince(callsBefore, 'mutateRows')).toBe(0);
  });

  it('fills the copies of rows written without them, and clears copies when the source value is null', async () => {
    const ts = new Date(T0 + 999 * 60_000);
    await readings.update({ sensorId: 's3', ts }, { temperature: 1 });
    expect(await readings.propagate(await saved(sensor('s3', 'old-s3')))).toEqual({
      scanned: PER_SENSOR + 1,
      updated: 1,
    });
    expect(await readings.findOne({ sensorId: 's3', ts })).toMatchObject({
      temperature: 1,
      location: 'old-s3',
      kind: 'thermo',
    });
    expect(await readings.propagate(await saved(sensor('s3', null)))).toEqual({
      scanned: PER_SENSOR + 1,
      updated: PER_SENSOR + 1,
    });
    const cleared = await readings.findOne({ sensorId: 's3', ts: new Date(T0) });
    expect(cleared).toMatchObject({ kind: 'thermo', temperature: 0 });
    expect(cleared?.location).toBeUndefined();
  });

  it('fans out over every salt bucket when the salt hashes more than the sensor, and reads one bucket when it does not', async () => {
    const salted = mapper.getRepository(E.SaltedReading);
    const bySensor = mapper.getRepository(E.SensorSaltedReading);
    const rows = IDS.flatMap((sensorId) =>
      Array.from({ length: 30 }, (_, seq) => ({ sensorId, seq, temperature: seq })),
    );
    await salted.saveMany(rows.map((r) => Object.assign(new E.SaltedReading(), r)));
    await bySensor.saveMany(rows.map((r) => Object.assign(new E.SensorSaltedReading(), r)));
    const moved = await saved(sensor('s1', 'annex'));
    expect(salted.planPropagation(moved).groups[0]?.scan.sources).toHaveLength(4);
    expect(bySensor.planPropagation(moved).groups[0]?.scan.sources).toHaveLength(1);
    for (const [repo, table] of [
      [salted, E.tables.salted],
      [bySensor, E.tables.sensorSalted],
    ] as const) {
      const before = await rawRows(mapper, table);
      expect(await repo.propagate(moved)).toEqual({ scanned: 30, updated: 30 });
      const after = await rawRows(mapper, table);
      const s1 = [...after.entries()].filter(([k]) => k.includes('#s1#'));
      expect(s1).toHaveLength(30);
      expect(s1.every(([, r]) => r.cells.find((c) => c.qualifier === 'location')?.value.toString() === 'annex')).toBe(
        true,
      );
      for (const [key, row] of before)
        if (!key.includes('#s1#')) expect(cellsText(after.get(key))).toEqual(cellsText(row));
      expect(await repo.propagate(moved)).toEqual({ scanned: 30, updated: 0 });
    }
  });

  it('refuses a time-first layout with the reason, and propagates with allowFullScan', async () => {
    const tsFirst = mapper.getRepository(E.TsFirstReading);
    await tsFirst.saveMany(
      IDS.flatMap((sensorId) =>
        Array.from({ length: 10 }, (_, i) =>
          Object.assign(new E.TsFirstReading(), { ts: new Date(T0 + i * 1000), sensorId, temperature: i }),
        ),
      ),
    );
    const moved = await saved(sensor('s3', 'roof'));
    const error = await tsFirst.propagate(moved).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MetadataError);
    expect((error as Error).message).toBe(
      "TsFirstReading.location: TsFirstReading's key starts with ts, not sensorId: propagation would scan the whole table. Fix: put sensorId first or pass { allowFullScan: true }",
    );
    const before = await rawRows(mapper, E.tables.tsFirst);
    expect(await tsFirst.propagate(moved, { allowFullScan: true })).toEqual({ scanned: 30, updated: 10 });
    const after = await rawRows(mapper, E.tables.tsFirst);
    for (const [key, row] of before) {
      const location = after
        .get(key)
        ?.cells.find((c) => c.qualifier === 'location')
        ?.value.toString();
      if (key.endsWith('#s3')) expect(location).toBe('roof');
      else expect(cellsText(after.get(key))).toEqual(cellsText(row));
    }
  });

  it('mapper.propagate reaches every registered dependent of the sensor', async () => {
    const result = await mapper.propagate(await saved(sensor('s1', 'everywhere')), { allowFullScan: true });
    expect(result.dependents.map((d) => [d.entity, d.updated])).toEqual([
      ['Reading', PER_SENSOR],
      ['SaltedReading', 30],
      ['SensorSaltedReading', 30],
      ['TsFirstReading', 10],
    ]);
    expect(result.updated).toBe(PER_SENSOR + 70);
  });
});
