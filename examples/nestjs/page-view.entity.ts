import { Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';
import type { Constructor } from '../../src/index.js';

/** The table `PageView` is declared in. @example `pageViewEntity(DEFAULT_PAGE_VIEWS_TABLE) === PageView` */
export const DEFAULT_PAGE_VIEWS_TABLE = 'page_views';

/**
 * One page view, keyed `userId#site#at` (epoch ms). Salted on `userId` and
 * `site`, so one user's views of one site share a bucket: listing them reads a
 * single key range, while writes of different users spread over 8 buckets.
 *
 * @example
 * ```ts
 * const view = views.create({ userId: 'u1', site: 'example.com', at: new Date(), path: '/' }); // views: Repository<PageView>
 * ```
 */
@Entity({ table: DEFAULT_PAGE_VIEWS_TABLE })
@Salt({ buckets: 8, on: ['userId', 'site'] })
@Family('v', { gc: { maxVersions: 1 } })
export class PageView {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'string' }) site!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', width: 13 }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path!: string;
  @Column({ family: 'v', type: 'int' }) durationMs?: number;
}

/**
 * `PageView` stored in another table (a subclass that overrides `@Entity`),
 * so tests and parallel runs can each use their own table.
 *
 * @example
 * ```ts
 * const Entity = pageViewEntity(uniqueTableId('page-views'));
 * ```
 */
export function pageViewEntity(table: string): Constructor<PageView> {
  if (table === DEFAULT_PAGE_VIEWS_TABLE) return PageView;
  @Entity({ table })
  class PageViewInTable extends PageView {}
  return PageViewInTable;
}
