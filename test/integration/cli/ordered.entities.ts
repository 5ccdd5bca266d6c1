import { Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';

/** A salted entity with binary (`ordered-code`) row keys, for the command line's key commands. */
@Entity({ table: 'cli-ordered', keyFormat: 'ordered-code' })
@Salt({ buckets: 4 })
@Family('d', { gc: { maxVersions: 1 } })
export class OrderedReading {
  @KeyPart(0, { type: 'string', maxLength: 64 }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp', descending: true }) at!: Date;
  @Column({ family: 'd', type: 'float' }) value?: number;
}
