import { Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';

/** An entity being re-salted from 2 to 8 buckets, for the command line's `resalt`. */
@Entity({ table: 'cli-resalt' })
@Salt({ buckets: 8, previous: { buckets: 2 } })
@Family('d')
export class ResaltedNote {
  @KeyPart(0, { type: 'string' }) author!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}
