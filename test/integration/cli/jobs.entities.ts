import { CellTimestamp, Column, Denormalized, Entity, Family, KeyPart, Salt } from '../../../src/index.js';

/** Page visits salted over 4 buckets, with their own cell timestamp: the table the job tests census, export and import. */
@Entity({ table: 'cli-jobs-visits' })
@Salt({ buckets: 4 })
@Family('v', { gc: { maxVersions: 3 } })
export class JobVisit {
  @KeyPart(0, { type: 'string' }) site!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
  @Column({ family: 'v', type: 'string' }) page?: string;
  @Column({ family: 'v', type: 'int' }) ms?: number;
  @Column({ family: 'v', type: 'json' }) tags?: string[];
  @Column({ family: 'v', type: 'bytes' }) digest?: Buffer;
  @CellTimestamp() at?: Date;
}

/** An entity being re-salted from 4 to 8 buckets: 4 tasks move one old bucket each. */
@Entity({ table: 'cli-jobs-notes' })
@Salt({ buckets: 8, previous: { buckets: 4 } })
@Family('d')
export class JobNote {
  @KeyPart(0, { type: 'string' }) author!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

/** The source of the copies `repropagate` rewrites. */
@Entity({ table: 'cli-jobs-authors' })
@Salt({ buckets: 4 })
@Family('a')
export class JobAuthor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'a', type: 'string' }) name?: string;
}

/** Posts holding a copy of their author's name, keyed by author first (a prefix propagation). */
@Entity({ table: 'cli-jobs-posts' })
@Family('p')
export class JobPost {
  @KeyPart(0, { type: 'string' }) authorId!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'p', type: 'string' }) title?: string;
  @Denormalized({ from: () => JobAuthor, key: { id: 'authorId' }, field: 'name' })
  @Column({ family: 'p', type: 'string' })
  authorName?: string;
}

/** An unsalted log: one key range, which only a tablet-aligned shard plan (`shards`, `--plan`) splits. */
@Entity({ table: 'cli-jobs-log' })
@Family('l')
export class JobLog {
  @KeyPart(0, { type: 'string' }) day!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'l', type: 'string' }) line?: string;
}
