import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BigtableMapper,
  Column,
  Denormalized,
  Entity,
  Family,
  KeyPart,
  PartialWriteError,
  ValidationError,
  type Repository,
} from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { Alert, Reading, Sensor } from './entities.js';

let driver: FakeDriver;
let mapper: BigtableMapper;
let sensors: Repository<Sensor>;
let readings: Repository<Reading>;

const sensor = (id: string, location: string, kind = 'thermo'): Sensor =>
  Object.assign(new Sensor(), { id, location, kind, floor: id.length });
const reading = (sensorId: string, i: number, extra: Partial<Reading> = {}): Reading =>
  Object.assign(new Reading(), {
    sensorId,
    ts: new Date(1_700_000_000_000 + i * 1000),
    temperature: 20 + (i % 10),
    ...extra,
  });

beforeEach(async () => {
  driver = new FakeDriver({ yieldInCalls: false });
  mapper = new BigtableMapper({ driver, entities: [Sensor, Reading, Alert] });
  sensors = mapper.getRepository(Sensor);
  readings = mapper.getRepository(Reading);
  await sensors.saveMany(Array.from({ length: 7 }, (_, i) => sensor(`s${i}`, `room-${i}`)));
  driver.clearCalls();
});

const sensorReads = () => driver.callsOf('readRows').filter((c) => c.request.table === 'sensors');

describe('filling @Denormalized copies on save', () => {
  it('fills undefined copies from the source, keeps given values and never modifies the input', async () => {
    const given = reading('s1', 1, { kind: 'hygro' });
    await readings.save(given);
    expect(given.location).toBeUndefined();
    const stored = await readings.findOne({ sensorId: 's1', ts: given.ts });
    expect(stored).toMatchObject({ location: 'room-1', kind: 'hygro', temperature: 21 });
    // One read to fill, one after the write to check the source did not change meanwhile.
    expect(sensorReads()).toHaveLength(2);
    expect(sensorReads().map((c) => c.request.keys?.map(String))).toEqual([['s1'], ['s1']]);
  });

  it('rewrites a copy whose source changed between its read and the write, once the write is confirmed', async () => {
    const mutateRow = driver.mutateRow.bind(driver);
    driver.mutateRow = async (mutation, call) => {
      if (mutation.table === 'readings') await sensors.save(sensor('s1', 'moved-meanwhile'));
      return mutateRow(mutation, call);
    };
    await readings.save(reading('s1', 1));
    expect((await readings.findOne({ sensorId: 's1', ts: reading('s1', 1).ts }))?.location).toBe('moved-meanwhile');
    const rewrite = driver.callsOf('checkAndMutate');
    expect(rewrite).toHaveLength(1);
    expect(rewrite[0]?.request.predicate).toEqual({ kind: 'passAll' });
  });

  it('clears a copy whose source has no value, and writes a copy whole, whatever the timestamps of older copy cells', async () => {
    await readings.save(reading('s1', 1));
    driver.seed({
      table: 'readings',
      rowKey: Buffer.from(`s1#${reading('s1', 1).ts.getTime()}`),
      rowKeyText: '',
      idempotent: true,
      mutations: [
        {
          kind: 'setCell',
          family: 'meta',
          qualifier: 'kind',
          timestampMicros: (Date.now() + 3_600_000) * 1000,
          value: Buffer.from('from a clock an hour ahead'),
        },
      ],
    });
    await sensors.update({ id: 's1' }, { location: null });
    await readings.save(reading('s1', 1));
    const stored = await readings.findOne({ sensorId: 's1', ts: reading('s1', 1).ts });
    expect(stored?.location).toBeUndefined();
    expect(stored?.kind).toBe('thermo');
  });

  it('reads only the copied columns of the source, and nothing when every copy is given', async () => {
    await readings.save(reading('s2', 1));
    const filter = JSON.stringify(sensorReads()[0]?.request.filter);
    expect(filter).toContain('"location"');
    expect(filter).toContain('"kind"');
    expect(filter).not.toContain('"floor"');
    driver.clearCalls();
    await readings.save(reading('s2', 2, { location: 'given', kind: 'given' }));
    expect(sensorReads()).toHaveLength(0);
  });

  it('fills on replace and saveIf too', async () => {
    await readings.replace(reading('s3', 1));
    expect((await readings.findOne({ sensorId: 's3', ts: reading('s3', 1).ts }))?.location).toBe('room-3');
    expect(await readings.saveIf(reading('s4', 1), { rowExists: false })).toBe(true);
    expect((await readings.findOne({ sensorId: 's4', ts: reading('s4', 1).ts }))?.location).toBe('room-4');
  });

  it('rejects a save whose source is missing, naming the copy, the key and the fixes', async () => {
    const error = await readings.save(reading('ghost', 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      'Reading.location: no Sensor with { id: "ghost" } to copy location from. Fix: save the Sensor first, set location yourself, or declare @Denormalized({ ..., onMissingSource: \'skip\' })',
    );
    expect(driver.callsOf('mutateRow')).toHaveLength(0);
  });

  it("skips the copy when the source is missing and onMissingSource is 'skip', and when no source is referenced", async () => {
    const alerts = mapper.getRepository(Alert);
    await alerts.save(Object.assign(new Alert(), { id: 'a1', sensorId: 'ghost' }));
    await alerts.save(Object.assign(new Alert(), { id: 'a2', sensorId: 's6' }));
    driver.clearCalls();
    await alerts.save(Object.assign(new Alert(), { id: 'a3', floor: 1 }));
    expect(sensorReads()).toHaveLength(0);
    expect(await alerts.findMany([{ id: 'a1' }, { id: 'a2' }, { id: 'a3' }])).toMatchObject([
      { sensorId: 'ghost' },
      { sensorId: 's6', floor: 2 },
      { floor: 1 },
    ]);
    expect((await alerts.findOne({ id: 'a1' }))?.floor).toBeUndefined();
  });

  it('rejects a key that cannot address a source, naming the dependent property (skipped with onMissingSource: skip)', async () => {
    @Entity({ table: 'tagged' })
    @Family('t')
    class Tagged {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 't', type: 'string' }) sensorId?: string;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
      @Column({ family: 't', type: 'string' })
      location?: string;
      @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'floor', onMissingSource: 'skip' })
      @Column({ family: 't', type: 'int' })
      floor?: number;
    }
    const tagged = mapper.getRepository(Tagged);
    await expect(tagged.save(Object.assign(new Tagged(), { id: 't1', sensorId: '' }))).rejects.toThrow(
      'Tagged.location: sensorId "" cannot address a Sensor',
    );
    await tagged.save(Object.assign(new Tagged(), { id: 't1', sensorId: '', location: 'given' }));
    expect(await tagged.findOne({ id: 't1' })).toMatchObject({ location: 'given', sensorId: '' });
  });

  it('registers the sources of an entity’s copies with the mapper, so sync creates their tables', async () => {
    const fresh = new BigtableMapper({ driver: new FakeDriver(), entities: [Reading] });
    const { changes } = await fresh.sync({ dryRun: true });
    expect(
      changes
        .filter((c) => c.kind === 'create-table')
        .map((c) => c.table)
        .sort(),
    ).toEqual(['readings', 'sensors']);
  });

  it('works without a mapper: a repository reads sources on its own driver', async () => {
    const { Repository } = await import('../../../src/index.js');
    const standalone = new Repository(driver, compileEntity(Reading));
    await standalone.save(reading('s5', 1));
    expect((await standalone.findOne({ sensorId: 's5', ts: reading('s5', 1).ts }))?.location).toBe('room-5');
  });
});

describe('filling copies on saveMany', () => {
  it('reads each distinct source once, and once more after the writes: 1,000 readings over 7 sensors cost two findMany of 7 keys', async () => {
    const findMany = vi.spyOn(sensors, 'findMany');
    const entities = Array.from({ length: 1_000 }, (_, i) => reading(`s${i % 7}`, i));
    expect(await readings.saveMany(entities, { batchSize: 250 })).toEqual({ written: 1_000 });
    expect(findMany).toHaveBeenCalledTimes(2);
    expect(findMany.mock.calls.map((c) => c[0].length)).toEqual([7, 7]);
    expect(findMany.mock.calls[0]?.[1]).toEqual({ select: ['location', 'kind'] });
    expect(sensorReads()).toHaveLength(2);
    const stored = driver.rows('readings');
    expect(stored).toHaveLength(1_000);
    expect(stored.every((r) => r.cells.meta?.location?.[0]?.value.toString() === `room-${r.key.toString()[1]}`)).toBe(
      true,
    );
  });

  it('looks sources up per chunk of 1,000 entities, never re-reading a key within the call', async () => {
    const findMany = vi.spyOn(sensors, 'findMany');
    async function* input(): AsyncGenerator<Reading> {
      for (let i = 0; i < 2_500; i++) yield reading(`s${Math.floor(i / 500)}`, i);
    }
    expect(await readings.saveMany(input())).toEqual({ written: 2_500 });
    // One lookup per chunk for the keys not read yet, then one check of all five after the writes.
    expect(findMany.mock.calls.map((c) => c[0].length)).toEqual([2, 2, 1, 5]);
    driver.clearCalls();
    await readings.saveMany([reading('s0', 1), reading('s0', 2)]);
    expect(findMany.mock.calls.slice(4).map((c) => c[0].length)).toEqual([1, 1]);
  });

  it('reports entities whose source is missing in the PartialWriteError and writes every other one', async () => {
    const entities = Array.from({ length: 30 }, (_, i) => reading(i % 10 === 3 ? 'ghost' : `s${i % 7}`, i));
    const error = (await readings
      .saveMany(entities, { batchSize: 8 })
      .catch((e: unknown) => e)) as PartialWriteError<Reading>;
    expect(error).toBeInstanceOf(PartialWriteError);
    expect(error.failures.map((f) => f.index)).toEqual([3, 13, 23]);
    expect(error.failures[0]?.entity).toBe(entities[3]);
    expect(error.failures[0]?.message).toContain('no Sensor with { id: "ghost" }');
    expect(error.succeeded).toBe(27);
    expect(
      driver
        .rows('readings')
        .map((r) => r.key.toString())
        .filter((k) => k.startsWith('ghost')),
    ).toEqual([]);
    expect(driver.rows('readings')).toHaveLength(27);
  });

  it('fails the entities of a chunk whose source lookup failed', async () => {
    driver.failNext('readRows', Object.assign(new Error('unavailable'), { code: 14 }));
    const error = (await readings
      .saveMany([reading('s1', 1), reading('s2', 2)])
      .catch((e: unknown) => e)) as PartialWriteError<Reading>;
    expect(error).toBeInstanceOf(PartialWriteError);
    expect(error.failures.map((f) => f.message)).toEqual(['unavailable', 'unavailable']);
  });
});
