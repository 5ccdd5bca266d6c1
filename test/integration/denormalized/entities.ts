import { Column, Denormalized, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { uniqueTableId } from '../../support/emulator.js';

/**
 * Entities of the denormalization integration tests, bound to fresh table ids
 * (one emulator serves the whole run): sensors; readings keyed sensorId first
 * (prefix propagation); readings salted over the whole key (fan-out over 4
 * buckets); readings salted on sensorId (one bucket); readings keyed time first
 * (full scan only).
 *
 * @example
 * ```ts
 * const E = denormalizedEntities('denorm-fill');
 * const mapper = openMapper([E.Sensor, E.Reading]);
 * ```
 */
export function denormalizedEntities(prefix: string) {
  const tables = {
    sensors: uniqueTableId(`${prefix}-sensors`),
    readings: uniqueTableId(`${prefix}-readings`),
    salted: uniqueTableId(`${prefix}-salted`),
    sensorSalted: uniqueTableId(`${prefix}-sensor-salted`),
    tsFirst: uniqueTableId(`${prefix}-ts-first`),
  };

  @Entity({ table: tables.sensors })
  @Family('info')
  class Sensor {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'info', type: 'string' }) location?: string | null;
    @Column({ family: 'info', type: 'string' }) kind?: string;
  }

  @Entity({ table: tables.readings })
  @Family('m', { gc: { maxVersions: 3 } })
  @Family('meta')
  class Reading {
    @KeyPart(0, { type: 'string' }) sensorId!: string;
    @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
    @Column({ family: 'm', type: 'float' }) temperature?: number;
    @Column({ family: 'm', type: 'float' }) humidity?: number;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'meta', type: 'string' })
    location?: string | null;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'kind' })
    @Column({ family: 'meta', type: 'string' })
    kind?: string;
  }

  @Entity({ table: tables.salted })
  @Salt({ buckets: 4 })
  @Family('m')
  class SaltedReading {
    @KeyPart(0, { type: 'string' }) sensorId!: string;
    @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
    @Column({ family: 'm', type: 'float' }) temperature?: number;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'm', type: 'string' })
    location?: string | null;
  }

  @Entity({ table: tables.sensorSalted })
  @Salt({ buckets: 4, on: ['sensorId'] })
  @Family('m')
  class SensorSaltedReading {
    @KeyPart(0, { type: 'string' }) sensorId!: string;
    @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
    @Column({ family: 'm', type: 'float' }) temperature?: number;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'm', type: 'string' })
    location?: string | null;
  }

  @Entity({ table: tables.tsFirst })
  @Family('m')
  class TsFirstReading {
    @KeyPart(0, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
    @KeyPart(1, { type: 'string' }) sensorId!: string;
    @Column({ family: 'm', type: 'float' }) temperature?: number;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'm', type: 'string' })
    location?: string | null;
  }

  return { tables, Sensor, Reading, SaltedReading, SensorSaltedReading, TsFirstReading };
}

/** The classes of one {@link denormalizedEntities} call. */
export type DenormalizedEntities = ReturnType<typeof denormalizedEntities>;
