import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { BigtableModule } from '../../src/nest/index.js';
import { APP_CONFIG, AppConfigModule, type AppConfig } from './app-config.js';
import { PageViewsModule } from './page-views.module.js';

/**
 * Options of {@link AppModule.forRoot}.
 *
 * @example
 * ```ts
 * const options: AppOptions = { emulatorHost: '127.0.0.1:8086', table: 'page_views' };
 * ```
 */
export interface AppOptions extends Partial<AppConfig> {
  /** Page-views table; default `page_views`. */
  table?: string;
}

/**
 * The example application: a mapper configured asynchronously from
 * {@link AppConfig}, with `sync: true` so the page-views table exists before
 * the first request, and the page-views feature.
 *
 * @example
 * ```ts
 * const app = await NestFactory.create(AppModule.forRoot({ emulatorHost: emulator.host }));
 * ```
 */
@Module({})
export class AppModule {
  /** The application module. @example `AppModule.forRoot({ table: uniqueTableId('views') })` */
  static forRoot(options: AppOptions = {}): DynamicModule {
    const { table, ...config } = options;
    return {
      module: AppModule,
      imports: [
        BigtableModule.forRootAsync({
          imports: [AppConfigModule.forRoot(config)],
          inject: [APP_CONFIG],
          useFactory: ({ emulatorHost, instance }: AppConfig) => ({ emulatorHost, instance, sync: true }),
        }),
        PageViewsModule.register(table === undefined ? {} : { table }),
      ],
    };
  }
}
