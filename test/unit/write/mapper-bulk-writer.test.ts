import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { DriverError, TableNotFoundError, ValidationError } from '../../../src/errors/index.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import type { WriteOutcome } from '../../../src/write/bulk-writer.js';
import { FakeDriver } from '../../support/fake-driver.js';

/** `mapper.bulkWriter()`: one writer for entities of several classes and tables. */

@Entity({ table: 'readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensor!: string;
  @Column({ family: 'm', type: 'float' }) value?: number;
}

@Entity({ table: 'sensors' })
@Family('s')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'string' }) place?: string;
}

class Unregistered {
  id = 'x';
}

const reading = (i: number): Reading => Object.assign(new Reading(), { sensor: `r${i}`, value: i });
const sensor = (i: number): Sensor => Object.assign(new Sensor(), { id: `s${i}`, place: `p${i}` });

describe('mapper.bulkWriter()', { timeout: 10_000 }, () => {
  it('writes entities of several classes in mixed batches, one MutateRows call per table', async () => {
    const driver = new FakeDriver();
    const mapper = new BigtableMapper({ driver, entities: [Reading, Sensor] });
    const writer = mapper.bulkWriter({ batchSize: 4, flushIntervalMs: 0 });
    for (let i = 0; i < 6; i++) {
      await writer.add(reading(i));
      await writer.add(sensor(i));
    }
    expect(await writer.close()).toEqual({ accepted: 12, persisted: 12, failed: 0, unknown: 0, pending: 0 });
    expect(driver.rows('readings')).toHaveLength(6);
    expect(driver.rows('sensors')).toHaveLength(6);
    const calls = driver.callsOf('mutateRows');
    // 3 batches of 4 rows (2 of each table): 2 calls each.
    expect(calls).toHaveLength(6);
    await mapper.close();
  });

  it('rejects what is not an instance of a registered class, naming the fix', async () => {
    const mapper = new BigtableMapper({ driver: new FakeDriver(), entities: [Reading] });
    const writer = mapper.bulkWriter();
    await expect(writer.add(new Unregistered())).rejects.toThrow(ValidationError);
    await expect(writer.add(sensor(1))).rejects.toThrow(/not an instance of a registered entity class\. Fix:/);
    await expect(writer.add({ sensor: 'plain' })).rejects.toThrow(/a plain object/);
    expect(() => mapper.bulkWriter({ batchSize: 0 })).toThrow(ValidationError);
    expect(() => mapper.bulkWriter({ bachSize: 10 } as object)).toThrow(/batchSize/);
    await writer.close();
    await mapper.close();
  });

  it('a table whose call fails as a whole fails only its rows; the other table is written', async () => {
    const driver = new FakeDriver({ implicitTables: false });
    await driver.createTable({ table: 'readings', families: [{ name: 'm', gc: undefined }] });
    const mapper = new BigtableMapper({ driver, entities: [Reading, Sensor] });
    const writer = mapper.bulkWriter({ batchSize: 10, flushIntervalMs: 0 });
    const handles = [];
    for (let i = 0; i < 3; i++) {
      handles.push(await writer.add(reading(i)));
      handles.push(await writer.add(sensor(i)));
    }
    const totals = await writer.close();
    expect(totals).toMatchObject({ persisted: 3, failed: 3, pending: 0 });
    const outcomes: WriteOutcome<object>[] = await Promise.all(handles.map((h) => h.outcome));
    const failed = outcomes.filter((o) => o.status === 'failed');
    expect(failed.map((o) => o.entity)).toEqual([sensor(0), sensor(1), sensor(2)]);
    expect(failed.every((o) => o.status === 'failed' && o.error instanceof TableNotFoundError)).toBe(true);
    expect(driver.rows('readings')).toHaveLength(3);
    await mapper.close();
  });

  it('a batch whose every call fails is a whole-batch failure (the dead-backend breaker counts it)', async () => {
    const driver = new FakeDriver();
    const unavailable = (): DriverError =>
      new DriverError('mutateRows', Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }));
    for (let i = 0; i < 6; i++) driver.failNext('mutateRows', unavailable());
    const mapper = new BigtableMapper({ driver, entities: [Reading, Sensor] });
    const writer = mapper.bulkWriter({ batchSize: 2, concurrency: 1, maxOutstandingRows: 2, flushIntervalMs: 0 });
    let refused: unknown;
    for (let i = 0; i < 50 && refused === undefined; i++) {
      await writer.add(i % 2 === 0 ? reading(i) : sensor(i)).catch((err: unknown) => (refused = err));
    }
    expect(refused).toBeInstanceOf(DriverError);
    expect((await writer.close()).persisted).toBe(0);
    await mapper.close();
  });
});
