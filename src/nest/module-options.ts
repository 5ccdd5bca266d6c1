import type { ModuleMetadata, FactoryProvider } from '@nestjs/common';
import type { MapperLogger } from '../model/telemetry.js';
import { MAPPER_OPTION_NAMES, type BigtableMapperOptions } from '../repository/mapper.js';
import { checkOptionNames } from '../util/option-names.js';

/** Each way of reaching Bigtable of the mapper's options, without `logger` (the module's own follows). */
type WithoutLogger<T> = T extends unknown ? Omit<T, 'logger'> : never;

/**
 * Options of `BigtableModule.forRoot`: the mapper's options plus `sync`,
 * which runs `mapper.sync()` (create missing tables and families, update GC
 * rules) during start-up, for the `entities` listed here and every entity
 * registered with `forFeature`. Without `logger` the mapper logs through a
 * Nest `Logger` (context `BigtableMapper`); `logger: false` turns that off.
 *
 * @example
 * ```ts
 * const options: BigtableModuleOptions = { emulatorHost: '127.0.0.1:8086', instance: 'dev', sync: true };
 * const quiet: BigtableModuleOptions = { ...options, logger: false };
 * ```
 */
export type BigtableModuleOptions = WithoutLogger<BigtableMapperOptions> & {
  /** Run `mapper.sync()` before the application is ready. Default `false`. */
  sync?: boolean;
  /**
   * Where the mapper logs retries (`debug`), calls slower than `slowOperationMs`, partial writes and lint
   * findings (`warn`). Default: a Nest `Logger` with context `BigtableMapper`, so the messages follow the
   * application's logger and log levels (`NestFactory.create(AppModule, { logger: ['error', 'warn'] })` hides
   * the retries). Give another logger (pino, a `Logger` of another context) to replace it, or `false` for none.
   */
  logger?: MapperLogger | false;
};

/**
 * Options of `BigtableModule.forRootAsync`: a factory (sync or async) and the
 * providers it needs.
 *
 * @example
 * ```ts
 * const options: BigtableModuleAsyncOptions = {
 *   imports: [ConfigModule],
 *   inject: [ConfigService],
 *   useFactory: (config: ConfigService) => ({ instance: config.get('BT_INSTANCE'), clientOptions: {} }),
 * };
 * ```
 */
export interface BigtableModuleAsyncOptions {
  /** Modules that export the providers listed in `inject`. */
  imports?: ModuleMetadata['imports'];
  /** Tokens whose values are passed to `useFactory`, in order. */
  inject?: FactoryProvider['inject'];
  /** Returns the options (or a promise of them); receives the `inject` values. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => BigtableModuleOptions | Promise<BigtableModuleOptions>;
}

const MODULE_OPTION_NAMES: readonly string[] = [...MAPPER_OPTION_NAMES, 'sync'];
const ASYNC_OPTION_NAMES: readonly string[] = Object.keys({
  imports: true,
  inject: true,
  useFactory: true,
} satisfies Record<keyof BigtableModuleAsyncOptions, true>);

/**
 * Throws a `ValidationError` naming an option of `forRoot` (or of what a
 * `forRootAsync` factory returned) that does not exist, with the closest valid name.
 * @internal
 */
export function checkModuleOptions(operation: string, options: unknown): void {
  checkOptionNames(operation, options, MODULE_OPTION_NAMES);
}

/**
 * `checkModuleOptions` for the options of `forRootAsync` themselves.
 * @internal
 */
export function checkModuleAsyncOptions(options: unknown): void {
  checkOptionNames('BigtableModule.forRootAsync', options, ASYNC_OPTION_NAMES);
}
