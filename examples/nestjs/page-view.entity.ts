import { z } from 'zod';
import { Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';

/**
 * One page view, keyed `userId#site#at` (epoch ms). Salted on `userId` and
 * `site`, so one user's views of one site share a bucket: listing them reads a
 * single key range, while writes of different users spread over 8 buckets.
 * Each environment (or test run) keeps its own `page_views` table through the
 * mapper's `tablePrefix`, not through a subclass per table. The zod
 * validators of `path` and `durationMs` run on every write; they also narrow
 * the JSON Schema of the request body (`toJsonSchema`).
 *
 * @example
 * ```ts
 * const view = views.create({ userId: 'u1', site: 'example.com', at: new Date(), path: '/' }); // views: Repository<PageView>
 * ```
 */
@Entity({ table: 'page_views' })
@Salt({ buckets: 8, on: ['userId', 'site'] })
@Family('v', { gc: { maxVersions: 1 } })
export class PageView {
  @KeyPart(0, { type: 'string', maxLength: 64 }) userId!: string;
  @KeyPart(1, { type: 'string', maxLength: 253 }) site!: string; // a DNS name is at most 253 characters
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', width: 13 }) at!: Date;
  @Column({ family: 'v', type: 'string', validate: z.string().startsWith('/').max(2048) }) path!: string;
  @Column({ family: 'v', type: 'int', validate: z.number().int().nonnegative() }) durationMs?: number;
}
