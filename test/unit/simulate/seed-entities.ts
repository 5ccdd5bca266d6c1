import 'reflect-metadata';
import { Entity, KeyPart, Salt } from '../../../src/decorators/index.js';

/**
 * The key designs of the row-key seed articles, as entities for the simulator.
 *
 * @example
 * ```ts
 * simulateHotspots({ entity: TimestampFirst, workload });
 * ```
 */
@Entity({ table: 'readings_by_time' })
export class TimestampFirst {
  @KeyPart(0, { type: 'timestamp' }) ts!: Date;
  @KeyPart(1, { type: 'string' }) sensorId!: string;
}

/** Seed 001's good layout: sensor id first, then the reading's time. */
@Entity({ table: 'readings' })
export class SensorFirst {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
}

/** Seed 003's events by user, unsalted: a celebrity user's rows are one contiguous run. */
@Entity({ table: 'user_events' })
export class UserEvents {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
}

/** The same events salted over 8 buckets of the whole key. */
@Entity({ table: 'user_events_salted' })
@Salt({ buckets: 8 })
export class SaltedUserEvents {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
}
