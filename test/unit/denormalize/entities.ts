import { Column, Denormalized, Entity, Family, KeyPart, Salt } from '../../../src/index.js';

/**
 * Entities of the denormalization unit tests (fake driver, fixed tables):
 * sensors, their readings (sensorId first), salted readings, readings keyed
 * by time first, alerts referencing a sensor in a column, and notes whose
 * copy is skipped when the sensor is missing.
 *
 * @example
 * ```ts
 * const sensor = Object.assign(new Sensor(), { id: 's1', location: 'lab', kind: 'thermo' });
 * ```
 */
@Entity({ table: 'sensors' })
@Family('info')
export class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string' }) location?: string | null;
  @Column({ family: 'info', type: 'string' }) kind?: string;
  @Column({ family: 'info', type: 'int' }) floor?: number;
}

/** Readings keyed sensorId#ts with two copies. */
@Entity({ table: 'readings' })
@Family('m')
@Family('meta')
export class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
  @Column({ family: 'm', type: 'float' }) temperature?: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'meta', type: 'string' })
  location?: string | null;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'kind' })
  @Column({ family: 'meta', type: 'string' })
  kind?: string;
}

/** Readings salted over the whole key: propagation fans out to 4 buckets. */
@Entity({ table: 'salted-readings' })
@Salt({ buckets: 4 })
@Family('m')
export class SaltedReading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
  @Column({ family: 'm', type: 'float' }) temperature?: number;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'm', type: 'string' })
  location?: string | null;
}

/** Time-first keys: propagation needs a full scan. */
@Entity({ table: 'ts-first' })
@Family('m')
export class TsFirstReading {
  @KeyPart(0, { type: 'timestamp', format: 'epoch-ms' }) ts!: Date;
  @KeyPart(1, { type: 'string' }) sensorId!: string;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
  @Column({ family: 'm', type: 'string' })
  location?: string | null;
}

/** The sensor referenced by a column; missing sensors are skipped. */
@Entity({ table: 'alerts' })
@Family('a')
export class Alert {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'a', type: 'string' }) sensorId?: string;
  @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'floor', onMissingSource: 'skip' })
  @Column({ family: 'a', type: 'int' })
  floor?: number;
}
