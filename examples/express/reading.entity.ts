import { Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';
import type { Constructor } from '../../src/index.js';

/** The table `Reading` is declared in. @example `readingEntity(DEFAULT_READINGS_TABLE) === Reading` */
export const DEFAULT_READINGS_TABLE = 'readings';

/**
 * A sensor reading keyed `sensorId#ts` (epoch ms), salted over 4 buckets on
 * the whole key: writes spread evenly, and a scan of one sensor reads every
 * bucket in parallel and merges them back in time order.
 *
 * @example
 * ```ts
 * const reading = mapper.getRepository(Reading).create({ sensorId: 's1', ts: new Date(), temperature: 21.5 });
 * ```
 */
@Entity({ table: DEFAULT_READINGS_TABLE })
@Salt({ buckets: 4 })
@Family('m', { gc: { maxVersions: 1 } })
export class Reading {
  @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms', width: 13 }) ts!: Date;
  @Column({ family: 'm', type: 'float' }) temperature!: number;
  @Column({ family: 'm', type: 'float' }) humidity?: number;
}

/**
 * `Reading` stored in another table (a subclass that overrides `@Entity`),
 * so tests and parallel runs can each use their own table.
 *
 * @example
 * ```ts
 * const readings = mapper.getRepository(readingEntity(uniqueTableId('readings')));
 * ```
 */
export function readingEntity(table: string): Constructor<Reading> {
  if (table === DEFAULT_READINGS_TABLE) return Reading;
  @Entity({ table })
  class ReadingInTable extends Reading {}
  return ReadingInTable;
}
