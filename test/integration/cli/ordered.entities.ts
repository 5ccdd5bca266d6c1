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

/** Key parts of every non-text type, for the command line's JSON round trip. */
@Entity({ table: 'cli-typed-keys' })
@Family('d', { gc: { maxVersions: 1 } })
export class TypedKeys {
  @KeyPart(0, { type: 'bytes', maxLength: 16 }) digest!: Buffer;
  @KeyPart(1, { type: 'float' }) score!: number;
  @KeyPart(2, { type: 'boolean' }) active!: boolean;
  @Column({ family: 'd', type: 'string' }) note?: string;
}
