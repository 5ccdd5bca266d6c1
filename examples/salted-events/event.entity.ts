import { Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';

/** Buckets of seed 002's Python recipe (`SaltedKeyGenerator(num_buckets=10)`). */
export const DEFAULT_BUCKETS = 10;

/**
 * Declares seed 002's event: logical key `event#<source>#<timestamp>` (a
 * literal `event`, an escaped string, an ISO timestamp), salted with
 * `int(md5(logical key)) % buckets` as a two-digit prefix: `07#event#…`.
 *
 * @example
 * ```ts
 * const Event = eventEntity('events', 10);
 * const e = mapper.getRepository(Event).create({ source: 'web-server', timestamp: new Date(), type: 'page_view' });
 * ```
 */
export function eventEntity(table: string, buckets: number = DEFAULT_BUCKETS) {
  @Entity({ table })
  @KeyPart(0, { literal: 'event' })
  @Salt({ buckets, hash: 'md5' })
  @Family('data', { gc: { maxVersions: 1 } })
  class Event {
    @KeyPart(1, { type: 'string', maxLength: 64 }) source!: string;
    @KeyPart(2, { type: 'timestamp' }) timestamp!: Date;
    @Column({ family: 'data', type: 'string' }) type!: string;
    @Column({ family: 'data', type: 'json' }) payload?: { page: string; user: string };
  }
  return Event;
}

/** An event instance of {@link eventEntity}. @example `const e: SaltedEvent = new Event();` */
export type SaltedEvent = InstanceType<ReturnType<typeof eventEntity>>;
