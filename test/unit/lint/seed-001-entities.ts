import { Column, Entity, Family, KeyPart, type Versioned } from '../../../src/index.js';

/**
 * Seed 001's bad example, `2023-05-01T12:00:00Z#sensor123`: the timestamp
 * leads the key, so every new reading lands at the end of the key space.
 */
@Entity({ table: 'readings-by-time' })
@Family('measurements', { gc: { maxVersions: 5 } })
export class TimeFirstReading {
  @KeyPart(0, { type: 'timestamp' }) ts!: Date;
  @KeyPart(1, { type: 'string', maxLength: 64 }) sensorId!: string;
  @Column({ family: 'measurements', type: 'float' }) temperature?: number;
}

/**
 * Seed 001's good example, `sensor123#2023-05-01T12:00:00Z`, with the rest of
 * its design: measurements kept to the last 5 versions, system logs in their
 * own family.
 */
@Entity({ table: 'readings' })
@Family('measurements', { gc: { maxVersions: 5 } })
@Family('logs', { gc: { maxAge: '30d' } })
export class SensorFirstReading {
  @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'measurements', type: 'float', versions: 5 }) temperature?: Versioned<number>;
  @Column({ family: 'measurements', type: 'float' }) humidity?: number;
  @Column({ family: 'logs', qualifier: 'system_logs', type: 'string' }) systemLogs?: string;
}
