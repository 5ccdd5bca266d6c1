import type { ModuleMetadata, FactoryProvider } from '@nestjs/common';
import { MAPPER_OPTION_NAMES, type BigtableMapperOptions } from '../repository/mapper.js';
import { checkOptionNames } from '../util/option-names.js';

/**
 * Options of `BigtableModule.forRoot`: the mapper's options plus `sync`,
 * which runs `mapper.sync()` (create missing tables and families, update GC
 * rules) during start-up, for the `entities` listed here and every entity
 * registered with `forFeature`.
 *
 * @example
 * ```ts
 * const options: BigtableModuleOptions = { emulatorHost: '127.0.0.1:8086', instance: 'dev', sync: true };
 * ```
 */
export type BigtableModuleOptions = BigtableMapperOptions & {
  /** Run `mapper.sync()` before the application is ready. Default `false`. */
  sync?: boolean;
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
