import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { BigtableModule } from '../../src/nest/index.js';
import { IngestController } from './ingest.controller.js';
import { IngestService } from './ingest.service.js';
import { PageView } from './page-view.entity.js';
import { SiteTraffic } from './site-traffic.entity.js';

/**
 * The ingest feature: a `BulkWriter` of page views that lives as long as the
 * application (flushed and closed on shutdown, before the mapper), and the
 * `SiteTraffic` Sum counters (`sync: true` creates their aggregate family).
 *
 * @example
 * ```ts
 * @Module({ imports: [BigtableModule.forRootAsync(...), IngestModule.register()] })
 * class AppModule {}
 * ```
 */
@Module({})
export class IngestModule {
  /** The feature. @example `IngestModule.register()` */
  static register(): DynamicModule {
    return {
      module: IngestModule,
      imports: [
        // A batch goes out at 500 rows or 200 ms after its first one; add() waits past 5,000 outstanding rows.
        BigtableModule.forFeature([PageView], { bulkWriters: { flushIntervalMs: 200, maxOutstandingRows: 5_000 } }),
        BigtableModule.forFeature([SiteTraffic]),
      ],
      providers: [IngestService],
      controllers: [IngestController],
    };
  }
}
