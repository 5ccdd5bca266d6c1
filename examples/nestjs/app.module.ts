import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { BigtableMapperExceptionFilter, BigtableModule } from '../../src/nest/index.js';
import { APP_CONFIG, AppConfigModule, type AppConfig } from './app-config.js';
import { PageViewsModule } from './page-views.module.js';
import { CustomersModule } from './customers.module.js';
import { HealthModule } from './health.module.js';
import { IngestModule } from './ingest.module.js';
import { OpenApiController } from './openapi.controller.js';

/**
 * Options of {@link AppModule.forRoot}.
 *
 * @example
 * ```ts
 * const options: AppOptions = { emulatorHost: '127.0.0.1:8086', tablePrefix: 'staging_' };
 * ```
 */
export interface AppOptions extends Partial<AppConfig> {
  /** The mapper's `tablePrefix`: one set of tables per environment or test run (`staging_page_views`); default none. */
  tablePrefix?: string;
}

/**
 * The example application: a mapper configured asynchronously from
 * {@link AppConfig}, with `sync: true` so the page-views table exists before
 * the first request, and `telemetry: true` for OpenTelemetry spans and metrics
 * (exported by what `telemetry.ts` registers; nothing without it); the page-views, customers and ingest features (the ingest one streams page views through a `BulkWriter` and keeps Sum counters); a Terminus readiness check of Bigtable (`GET /health/ready`); the OpenAPI
 * document generated from their entities (`GET /openapi.json`); and `BigtableMapperExceptionFilter`
 * as a global filter, so the library's errors answer 400, 404, 503, 504 or 500
 * with a JSON body.
 *
 * @example
 * ```ts
 * const app = await NestFactory.create(AppModule.forRoot({ emulatorHost: emulator.host }));
 * ```
 */
@Module({})
export class AppModule {
  /** The application module. @example `AppModule.forRoot({ tablePrefix: 'staging_' })` */
  static forRoot(options: AppOptions = {}): DynamicModule {
    const { tablePrefix = '', ...config } = options;
    return {
      module: AppModule,
      imports: [
        BigtableModule.forRootAsync({
          imports: [AppConfigModule.forRoot(config)],
          inject: [APP_CONFIG],
          useFactory: ({ emulatorHost, instance }: AppConfig) => ({
            emulatorHost,
            instance,
            tablePrefix,
            sync: true,
            // Spans and metrics through the globally registered OpenTelemetry providers (telemetry.ts).
            telemetry: true,
          }),
        }),
        PageViewsModule.register(),
        CustomersModule.register(),
        IngestModule.register(),
        HealthModule,
      ],
      controllers: [OpenApiController],
      providers: [{ provide: APP_FILTER, useClass: BigtableMapperExceptionFilter }],
    };
  }
}
