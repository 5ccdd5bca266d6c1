// Entities of a CommonJS app, compiled to JS and loaded by the package's command line (an ES module).
import { Column, Entity, Family, KeyPart, Salt } from 'bigtable-mapper';

@Entity({ table: 'cli-notes' })
@Salt({ buckets: 8 })
@Family('d', { gc: { maxVersions: 1 } })
export class Note {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) text?: string;
}
