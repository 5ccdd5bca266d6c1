import { Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';

/** An unsalted entity keyed `tenant#n`, for the shard and parallel-scan tests. @example `Object.assign(new Event(), { tenant: 't', n: 1 })` */
@Entity({ table: 'events' })
@Family('d')
export class Event {
  @KeyPart(0, { type: 'string' }) tenant!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) n!: number;
  @Column({ family: 'd', type: 'int' }) v?: number;
}

/** A salted entity (4 buckets on `user`) keyed `user#n`. @example `Object.assign(new Click(), { user: 'u', n: 1 })` */
@Entity({ table: 'clicks' })
@Salt({ buckets: 4, on: ['user'] })
@Family('d')
export class Click {
  @KeyPart(0, { type: 'string' }) user!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) n!: number;
  @Column({ family: 'd', type: 'int' }) v?: number;
}
