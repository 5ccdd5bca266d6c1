import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { BigtableModule, getRepositoryToken } from '../../src/nest/index.js';
import { PageView } from './page-view.entity.js';
import { PageViewsController } from './page-views.controller.js';
import { PageViewsService } from './page-views.service.js';
import { PAGE_VIEWS } from './page-views.tokens.js';

/**
 * The page-views feature: `BigtableModule.forFeature` provides the entity's
 * repository (and registers the entity for `sync: true`); `PAGE_VIEWS`
 * aliases it for the service.
 *
 * @example
 * ```ts
 * @Module({ imports: [BigtableModule.forRootAsync(...), PageViewsModule.register()] })
 * class AppModule {}
 * ```
 */
@Module({})
export class PageViewsModule {
  /** The feature. @example `PageViewsModule.register()` */
  static register(): DynamicModule {
    return {
      module: PageViewsModule,
      imports: [BigtableModule.forFeature([PageView])],
      providers: [{ provide: PAGE_VIEWS, useExisting: getRepositoryToken(PageView) }, PageViewsService],
      controllers: [PageViewsController],
    };
  }
}
