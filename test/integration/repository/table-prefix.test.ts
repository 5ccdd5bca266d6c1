import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  Denormalized,
  Entity,
  Family,
  KeyPart,
  TableNotFoundError,
  ValidationError,
} from '../../../src/index.js';
import { createGoogleCloudDriver } from '../../../src/driver-api.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const sensors = uniqueTableId('pfx-sensors');
const readings = uniqueTableId('pfx-readings');

@Entity({ table: sensors })
@Family('info')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string;
}

@Entity({ table: readings })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) seq!: number;
  @Column({ family: 'm', type: 'int' }) value?: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location', onMissingSource: 'skip' })
  @Column({ family: 'm', type: 'string' })
  location?: string;
}

const open = (tablePrefix: string): BigtableMapper =>
  new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId, entities: [Reading], tablePrefix });

const raw = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const staging = open('staging_');
const tenant = open('tenant-b.');
const reading = (sensorId: string, seq: number, value: number): Reading =>
  Object.assign(new Reading(), { sensorId, seq, value });

beforeAll(async () => {
  await staging.sync();
  await tenant.sync();
});

afterAll(async () => {
  for (const table of [sensors, readings])
    for (const prefix of ['staging_', 'tenant-b.'])
      await raw.deleteTable({ table: `${prefix}${table}` }).catch(() => undefined);
  await Promise.all([staging.close(), tenant.close(), raw.close()]);
});

describe('tablePrefix', () => {
  it('sync creates the prefixed tables, never the bare ones, and reports them by their real ids', async () => {
    const tables = await raw.listTables();
    for (const table of [sensors, readings]) {
      expect(tables).toContain(`staging_${table}`);
      expect(tables).toContain(`tenant-b.${table}`);
      expect(tables).not.toContain(table);
    }
    const again = open('fresh_');
    try {
      const { changes } = await again.sync({ dryRun: true });
      expect(changes.map((c) => c.table).sort()).toEqual([`fresh_${readings}`, `fresh_${sensors}`].sort());
    } finally {
      await again.close();
    }
    expect(await staging.sync()).toEqual({ changes: [], applied: true });
  });

  it('two mappers with different prefixes do not see each other’s rows', async () => {
    const a = staging.getRepository(Reading);
    const b = tenant.getRepository(Reading);
    await a.save(reading('s1', 1, 10));
    await b.saveMany([reading('s1', 1, 20), reading('s1', 2, 21)]);
    expect((await a.findOne({ sensorId: 's1', seq: 1 }))?.value).toBe(10);
    expect((await b.findOne({ sensorId: 's1', seq: 1 }))?.value).toBe(20);
    expect((await lastValueFrom(a.scan({}).pipe(toArray()))).map((r) => r.value)).toEqual([10]);
    expect((await b.page({ limit: 10 })).items.map((r) => r.value)).toEqual([20, 21]);
    expect(await a.increment({ sensorId: 's1', seq: 1 }, 'value', 5)).toBe(15);
    expect(await b.saveIf(reading('s1', 3, 30), { rowExists: false })).toBe(true);
    expect(await a.findOne({ sensorId: 's1', seq: 3 })).toBeUndefined();
    await b.delete({ sensorId: 's1', seq: 2 });
    expect(await b.findMany([{ sensorId: 's1', seq: 2 }])).toEqual([undefined]);
  });

  it('denormalized copies are read from and propagated within the mapper’s own prefix', async () => {
    await staging.getRepository(Sensor).save(Object.assign(new Sensor(), { id: 's9', location: 'staging-lab' }));
    await tenant.getRepository(Sensor).save(Object.assign(new Sensor(), { id: 's9', location: 'tenant-lab' }));
    await staging.getRepository(Reading).save(reading('s9', 1, 1));
    await tenant.getRepository(Reading).save(reading('s9', 1, 1));
    expect((await staging.getRepository(Reading).findOne({ sensorId: 's9', seq: 1 }))?.location).toBe('staging-lab');
    expect((await tenant.getRepository(Reading).findOne({ sensorId: 's9', seq: 1 }))?.location).toBe('tenant-lab');
    await staging.getRepository(Sensor).save(Object.assign(new Sensor(), { id: 's9', location: 'moved' }));
    await staging.propagate(Object.assign(new Sensor(), { id: 's9' }));
    expect((await staging.getRepository(Reading).findOne({ sensorId: 's9', seq: 1 }))?.location).toBe('moved');
    expect((await tenant.getRepository(Reading).findOne({ sensorId: 's9', seq: 1 }))?.location).toBe('tenant-lab');
  });

  it('bulk writers of a repository and of the mapper write into the mapper’s own prefix', async () => {
    const sensor = (id: string, location: string): Sensor => Object.assign(new Sensor(), { id, location });
    const writer = staging.getRepository(Sensor).bulkWriter({ batchSize: 3 });
    for (let i = 0; i < 7; i++) await writer.add(sensor(`w${i}`, `repo-${i}`));
    expect(await writer.close()).toMatchObject({ accepted: 7, persisted: 7 });
    const several = tenant.bulkWriter({ batchSize: 2 });
    for (let i = 0; i < 5; i++) await several.add(sensor(`w${i}`, `mapper-${i}`));
    expect(await several.close()).toMatchObject({ accepted: 5, persisted: 5 });
    const locations = async (mapper: BigtableMapper): Promise<string[]> =>
      (await mapper.getRepository(Sensor).findMany(['w0', 'w4', 'w6'].map((id) => ({ id })))).map(
        (s) => s?.location ?? '-',
      );
    expect(await locations(staging)).toEqual(['repo-0', 'repo-4', 'repo-6']);
    expect(await locations(tenant)).toEqual(['mapper-0', 'mapper-4', '-']);
    const bare = await raw
      .readRows({ table: sensors })
      .next()
      .catch((error: unknown) => error);
    expect(bare).toBeInstanceOf(TableNotFoundError);
  });

  it('a missing prefixed table is named with its prefix', async () => {
    const other = open('never_synced_');
    try {
      const error = await other
        .getRepository(Reading)
        .findOne({ sensorId: 's1', seq: 1 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TableNotFoundError);
      expect((error as TableNotFoundError).table).toBe(`never_synced_${readings}`);
    } finally {
      await other.close();
    }
  });

  it('rejects a prefix that is not a table id start, or that makes a table id longer than 50 characters', () => {
    for (const bad of ['-x', '.x', 'a b', 'é', 7 as unknown as string])
      expect(() => open(bad)).toThrow(ValidationError);
    expect(() => open('p'.repeat(40))).toThrow(/at most 50/);
  });
});
