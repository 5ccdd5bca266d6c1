import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { BigtableModule, getRepositoryToken } from '../../src/nest/index.js';
import { DEFAULT_PAGE_VIEWS_TABLE, pageViewEntity } from './page-view.entity.js';
import { PageViewsController } from './page-views.controller.js';
import { PageViewsService } from './page-views.service.js';
import { PAGE_VIEWS } from './page-views.tokens.js';

/**
 * The page-views feature: `BigtableModule.forFeature` provides the entity's
 * repository (and registers the entity for `sync: true`); `PAGE_VIEWS`
 * aliases it so the service does not depend on which table was chosen.
 *
 * @example
 * ```ts
 * @Module({ imports: [BigtableModule.forRootAsync(...), PageViewsModule.register({ table: 'page_views' })] })
 * class AppModule {}
 * ```
 */
@Module({})
export class PageViewsModule {
  /** The feature over `table` (default `page_views`). @example `PageViewsModule.register({ table: uniqueTableId('views') })` */
  static register(options: { table?: string } = {}): DynamicModule {
    const entity = pageViewEntity(options.table ?? DEFAULT_PAGE_VIEWS_TABLE);
    return {
      module: PageViewsModule,
      imports: [BigtableModule.forFeature([entity])],
      providers: [{ provide: PAGE_VIEWS, useExisting: getRepositoryToken(entity) }, PageViewsService],
      controllers: [PageViewsController],
    };
  }
}
