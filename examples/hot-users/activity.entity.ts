import { Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';

/** Seed 003's salt range ("if our hash size is 4"). */
export const SALT_RANGE = 4;

/** Forward-only migration cutoff: rows at or after it are salted, older rows keep their keys. */
export const CUTOFF = new Date('2024-06-24T00:00:00.000Z');

/**
 * Declares seed 003's activity row `userId-site-timestamp` (epoch ms), salted
 * the way the seed's Java writes it: `rowKeyBase.hashCode() % 4 + "-" + rowKey`
 * where `rowKeyBase` is `userId-site` (partial-key salting, sign kept), and
 * only for rows at or after {@link CUTOFF}.
 *
 * @example
 * ```ts
 * const Activity = activityEntity('activity');
 * const a = mapper.getRepository(Activity).create({ userId: 'user42', site: 'web', at: new Date(), action: 'view' });
 * ```
 */
export function activityEntity(table: string, cutoff: Date = CUTOFF) {
  @Entity({
    table,
    separator: '-',
    lint: {
      ignore: {
        'java-hashcode-power-of-two':
          "seed 003's Java writers salt with hashCode() % 4; the keys must match theirs, and 4 buckets measure even",
      },
    },
  })
  @Salt({
    buckets: SALT_RANGE,
    on: ['userId', 'site'],
    hash: 'java-string-hashcode-signed',
    format: { width: 1, separator: '-' },
    since: { component: 'at', from: cutoff },
  })
  @Family('a', { gc: { maxVersions: 1 } })
  class Activity {
    @KeyPart(0, { type: 'string', maxLength: 64 }) userId!: string;
    @KeyPart(1, { type: 'string', maxLength: 64 }) site!: string;
    @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
    @Column({ family: 'a', type: 'string' }) action!: string;
  }
  return Activity;
}

/** An instance of {@link activityEntity}. @example `const a: Activity = new ActivityClass();` */
export type Activity = InstanceType<ReturnType<typeof activityEntity>>;
