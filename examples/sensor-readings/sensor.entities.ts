import { Column, Denormalized, Entity, Family, KeyPart, type Versioned } from '../../src/index.js';

/** Versions kept of a measurement column (seed 001: "keep the last 5 versions"). */
export const MEASUREMENT_VERSIONS = 5;

/**
 * Declares seed 001's two entities in the given tables: the `Sensor` (where
 * its location lives) and its `Reading`s keyed `sensorId#timestamp` (ISO),
 * with a `measurements` family keeping 5 versions, a `logs` family, and the
 * sensor's location copied into every reading (`@Denormalized`).
 *
 * @example
 * ```ts
 * const { Sensor, Reading } = sensorEntities('readings', 'sensors');
 * ```
 */
export function sensorEntities(readingsTable: string, sensorsTable: string) {
  @Entity({ table: sensorsTable })
  @Family('info', { gc: { maxVersions: 1 } })
  class Sensor {
    @KeyPart(0, { type: 'string', maxLength: 64 }) id!: string;
    @Column({ family: 'info', type: 'string' }) location!: string;
  }

  @Entity({ table: readingsTable })
  @Family('measurements', { gc: { maxVersions: MEASUREMENT_VERSIONS } })
  @Family('logs', { gc: { maxAge: '30d' } })
  class Reading {
    @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
    @KeyPart(1, { type: 'timestamp' }) ts!: Date;
    @Column({ family: 'measurements', type: 'float', versions: MEASUREMENT_VERSIONS }) temperature?: Versioned<number>;
    @Column({ family: 'measurements', type: 'float' }) humidity?: number;
    @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
    @Column({ family: 'measurements', type: 'string' })
    location?: string;
    @Column({ family: 'logs', type: 'string' }) system?: string;
  }

  return { Sensor, Reading };
}

/** The classes of one {@link sensorEntities} call. */
export type SensorEntities = ReturnType<typeof sensorEntities>;
/** A sensor. @example `const s: Sensor = mapper.getRepository(E.Sensor).create({ id: 's1', location: 'lab' });` */
export type Sensor = InstanceType<SensorEntities['Sensor']>;
/** A reading. @example `const r: Reading = mapper.getRepository(E.Reading).create({ sensorId: 's1', ts: new Date() });` */
export type Reading = InstanceType<SensorEntities['Reading']>;
