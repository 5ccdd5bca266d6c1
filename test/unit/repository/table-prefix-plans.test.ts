import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Denormalized, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'prefix-sensors' })
@Family('info')
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string;
}

@Entity({ table: 'prefix-readings' })
@Salt({ buckets: 2, on: ['sensorId'] })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) seq!: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'm', type: 'string' })
  location?: string;
}

describe('plans of a mapper with a tablePrefix', () => {
  it('name the tables as they are sent, and what is sent is the same', async () => {
    const driver = new FakeDriver({ yieldInCalls: false });
    const mapper = new BigtableMapper({
      driver,
      tablePrefix: 'staging_',
      entities: [Sensor, Reading],
      clock: () => 1_700_000_000_000,
    });
    await mapper.sync();
    const readings = mapper.getRepository(Reading);
    const reading = Object.assign(new Reading(), { sensorId: 's1', seq: 1, location: 'lab' });
    const plan = readings.compileSave(reading);
    expect(plan.table).toBe('staging_prefix-readings');
    expect(Object.isFrozen(plan)).toBe(true);
    expect(readings.planScan({ where: { sensorId: 's1' } }).table).toBe('staging_prefix-readings');
    expect(readings.planPropagation({ id: 's1' }).groups[0]?.scan.table).toBe('staging_prefix-readings');

    driver.clearCalls();
    await readings.save(reading);
    const [sent] = driver.callsOf('mutateRow');
    expect(sent?.mutation.table).toBe(plan.table);
    expect(sent?.mutation.mutations).toEqual(plan.mutations);
    await mapper.close();

    const bare = new BigtableMapper({ driver, entities: [Reading] });
    expect(bare.getRepository(Reading).planScan().table).toBe('prefix-readings');
    await bare.close();
  });
});
