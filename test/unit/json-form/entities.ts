import { z } from 'zod';
import { Column, Entity, Family, KeyPart, type Versioned } from '../../../src/index.js';

/** An embedded object, stored flattened (one cell per field) or as JSON. @example `Object.assign(new Place(), { city: 'Oslo' })` */
export class Place {
  street?: string;
  city?: string;
  zip?: string;
}

/**
 * An entity with every column type, an embedded object in both layouts, a
 * versioned column, validators that describe themselves in JSON Schema (zod)
 * and key parts bounded by maxLength and width.
 *
 * @example
 * ```ts
 * const sensor = Object.assign(new Sensor(), { site: 'oslo', chip: Buffer.from([1]), slot: 3, label: 'north' });
 * ```
 */
@Entity({ table: 'sensors' })
@Family('d')
@Family('m', { gc: { maxVersions: 3 } })
export class Sensor {
  @KeyPart(0, { type: 'string', maxLength: 12 }) site!: string;
  @KeyPart(1, { type: 'bytes', maxLength: 4 }) chip!: Buffer;
  @KeyPart(2, { type: 'uint', width: 4 }) slot!: number;
  @Column({
    family: 'd',
    type: 'string',
    validate: z
      .string()
      .regex(/^[a-z ]*$/)
      .max(20),
  })
  label?: string;
  @Column({ family: 'd', type: 'int', validate: z.number().int().min(0).max(1000) }) count?: number;
  @Column({ family: 'd', type: 'float' }) gain?: number;
  @Column({ family: 'd', type: 'boolean' }) active?: boolean;
  @Column({ family: 'd', type: 'date' }) installed?: Date;
  @Column({ family: 'd', type: 'bigint' }) serial?: bigint;
  @Column({ family: 'd', type: 'bytes' }) firmware?: Buffer;
  @Column({ family: 'd', type: 'json' }) settings?: unknown;
  @Column({ family: 'd', type: Place, layout: 'flatten', fields: ['street', 'city', 'zip'] }) place?: Place;
  @Column({ family: 'd', type: Place }) shipping?: Place;
  @Column({ family: 'm', type: 'float', versions: 3 }) temperature?: Versioned<number>;
}
