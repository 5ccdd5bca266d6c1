import { Column, Entity, Family, KeyPart } from '../../../src/index.js';

/** An entity with a sum family, for the command line's drift check of aggregate families. */
@Entity({ table: 'cli-page-hits' })
@Family('hits', { aggregate: 'sum' })
export class PageHits {
  @KeyPart(0, { type: 'string', maxLength: 64 }) page!: string;
  @Column({ family: 'hits', type: 'int' }) views?: number | bigint;
}
