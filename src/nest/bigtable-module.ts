import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { Constructor } from '../model/declarations.js';
import { BigtableCoreModule } from './bigtable-core-module.js';
import type { BigtableModuleAsyncOptions, BigtableModuleOptions } from './module-options.js';
import { createRepositoryProviders } from './repository-providers.js';
import { createBulkWriterProviders } from './bulk-writer-providers.js';
import type { BulkWriteOptions } from '../write/bulk-writer.js';
import type { OperationOptions } from '../operation/operation.js';
import { checkOptionNames } from '../util/option-names.js';

/**
 * NestJS integration, in the style of `@nestjs/typeorm`: `forRoot` /
 * `forRootAsync` once in the root module create a global `BigtableMapper`
 * (closed on application shutdown, tables synced at start-up with
 * `sync: true`); `forFeature([Entity])` in feature modules provides
 * repositories for `@InjectRepository(Entity)`.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     BigtableModule.forRoot({ emulatorHost: '127.0.0.1:8086', instance: 'dev', sync: true }),
 *     BigtableModule.forFeature([Reading]),
 *   ],
 *   providers: [ReadingsService],
 * })
 * class AppModule {}
 * ```
 */
@Module({})
export class BigtableModule {
  /**
   * Creates the application's mapper from fixed options.
   * @example
   * ```ts
   * BigtableModule.forRoot({ clientOptions: {}, instance: 'prod' })
   * ```
   */
  static forRoot(options: BigtableModuleOptions): DynamicModule {
    return { module: BigtableModule, imports: [BigtableCoreModule.forRoot(options)] };
  }

  /**
   * Creates the application's mapper from options computed by a factory,
   * which may be async and receives the `inject` tokens.
   *
   * @example
   * ```ts
   * BigtableModule.forRootAsync({
   *   imports: [ConfigModule],
   *   inject: [ConfigService],
   *   useFactory: (config: ConfigService) => ({ instance: config.get('BT_INSTANCE'), clientOptions: {}, sync: true }),
   * });
   * ```
   */
  static forRootAsync(options: BigtableModuleAsyncOptions): DynamicModule {
    return { module: BigtableModule, imports: [BigtableCoreModule.forRootAsync(options)] };
  }

  /**
   * Provides (and exports) a `Repository` for each entity, injectable with
   * `@InjectRepository(Entity)`; the entities are registered with the mapper.
   * With `bulkWriters`, also a `BulkWriter` per entity made with those
   * options, injectable with `@InjectBulkWriter(Entity)`: it lives as long as
   * the application and is flushed and closed on shutdown (in
   * `beforeApplicationShutdown`, so before the mapper closes in
   * `onApplicationShutdown`; call `app.enableShutdownHooks()` for SIGTERM).
   *
   * @example
   * ```ts
   * @Module({ imports: [BigtableModule.forFeature([Reading], { bulkWriters: { flushIntervalMs: 200 } })], providers: [IngestService] })
   * class IngestModule {}
   * ```
   */
  static forFeature(
    entities: readonly Constructor[],
    options: { readonly bulkWriters?: BulkWriteOptions & OperationOptions } = {},
  ): DynamicModule {
    checkOptionNames('BigtableModule.forFeature', options, ['bulkWriters']);
    const providers = createRepositoryProviders(entities);
    const exported = [...providers];
    if (options.bulkWriters !== undefined) {
      const writers = createBulkWriterProviders(entities, options.bulkWriters);
      providers.push(...writers);
      exported.push(...writers.slice(0, entities.length));
    }
    return { module: BigtableModule, providers, exports: exported };
  }
}
