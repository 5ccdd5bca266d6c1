import { Inject, Injectable } from '@nestjs/common';
import type { EntityData, Page, Repository } from '../../src/index.js';
import type { PageView } from './page-view.entity.js';
import { PAGE_VIEWS } from './page-views.tokens.js';

/**
 * Records and reads page views. Listing one user's views of one site reads a
 * single salt bucket (the entity is salted on `userId` and `site`).
 *
 * @example
 * ```ts
 * const { items, cursor } = await service.list('u1', 'example.com', 20);
 * ```
 */
@Injectable()
export class PageViewsService {
  readonly #views: Repository<PageView>;

  constructor(@Inject(PAGE_VIEWS) views: Repository<PageView>) {
    this.#views = views;
  }

  /** Saves a page view made from a request body's data. @example `await service.record(readPageView(body));` */
  async record(input: EntityData<PageView>): Promise<PageView> {
    const view = this.#views.create(input);
    await this.#views.save(view);
    return view;
  }

  /** One view, or `EntityNotFoundError` (a 404 through the controller's filter). @example `await service.get('u1', 'example.com', at);` */
  get(userId: string, site: string, at: Date): Promise<PageView> {
    return this.#views.findOneOrFail({ userId, site, at });
  }

  /** One page of a user's views of a site, oldest first. @example `await service.list('u1', 'example.com', 20, cursor);` */
  list(userId: string, site: string, limit: number, cursor?: string): Promise<Page<PageView>> {
    return this.#views.page({ where: { userId, site }, limit, ...(cursor === undefined ? {} : { cursor }) });
  }
}
