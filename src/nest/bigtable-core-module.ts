import { Global, Inject, Logger, Module } from '@nestjs/common';
import type { DynamicModule, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { BigtableMapper, type BigtableMapperOptions } from '../repository/mapper.js';
import {
  checkModuleAsyncOptions,
  checkModuleOptions,
  type BigtableModuleAsyncOptions,
  type BigtableModuleOptions,
} from './module-options.js';
import { BIGTABLE_MODULE_OPTIONS, getMapperToken } from './tokens.js';

/** The context of the Nest `Logger` a mapper logs through when the module's options give no `logger`. */
const LOGGER_CONTEXT = 'BigtableMapper';

const mapperProvider: Provider = {
  provide: getMapperToken(),
  useFactory: (options: BigtableModuleOptions) => {
    const { sync: _sync, logger = new Logger(LOGGER_CONTEXT), ...mapperOptions } = options;
    return new BigtableMapper({ ...mapperOptions, ...(logger === false ? {} : { logger }) } as BigtableMapperOptions);
  },
  inject: [BIGTABLE_MODULE_OPTIONS],
};

function coreModule(
  imports: NonNullable<BigtableModuleAsyncOptions['imports']>,
  optionsProvider: Provider,
): DynamicModule {
  return {
    module: BigtableCoreModule,
    imports,
    providers: [optionsProvider, mapperProvider],
    exports: [getMapperToken()],
  };
}

/**
 * The global module that owns the application's `BigtableMapper`: creates it
 * from the options, runs `sync()` at start-up when asked, and closes it on
 * application shutdown. Imported for you by `BigtableModule.forRoot*`.
 * @internal
 * @Module({ imports: [BigtableCoreModule.forRoot({ emulatorHost, instance: 'dev' })] })
 * class AppModule {}
 * ```
 */
@Global()
@Module({})
export class BigtableCoreModule implements OnModuleInit, OnApplicationShutdown {
  readonly #options: BigtableModuleOptions;
  readonly #mapper: BigtableMapper;
  #closing: Promise<void> | undefined;

  constructor(
    @Inject(BIGTABLE_MODULE_OPTIONS) options: BigtableModuleOptions,
    @Inject(getMapperToken()) mapper: BigtableMapper,
  ) {
    this.#options = options;
    this.#mapper = mapper;
  }

  /**
   * The core module for fixed options.
   * @example
   * ```ts
   * BigtableCoreModule.forRoot({ emulatorHost, instance: 'dev' })
   * ```
   */
  static forRoot(options: BigtableModuleOptions): DynamicModule {
    checkModuleOptions('BigtableModule.forRoot', options);
    return coreModule([], { provide: BIGTABLE_MODULE_OPTIONS, useValue: options });
  }

  /**
   * The core module for options from a factory.
   * @example
   * ```ts
   * BigtableCoreModule.forRootAsync({ useFactory: () => options })
   * ```
   */
  static forRootAsync(options: BigtableModuleAsyncOptions): DynamicModule {
    checkModuleAsyncOptions(options);
    const { imports = [], inject = [], useFactory } = options;
    const checkedFactory = async (...args: unknown[]): Promise<BigtableModuleOptions> => {
      const made = await useFactory(...args);
      checkModuleOptions('BigtableModule.forRootAsync useFactory', made);
      return made;
    };
    return coreModule(imports, { provide: BIGTABLE_MODULE_OPTIONS, useFactory: checkedFactory, inject });
  }

  /**
   * With `sync: true`, creates or updates the tables of every registered
   * entity (forRoot's `entities` and every `forFeature` entity: all providers
   * exist before the first init hook runs). Closes the mapper if that fails.
   */
  async onModuleInit(): Promise<void> {
    if (this.#options.sync !== true) return;
    try {
      const { changes } = await this.#mapper.sync();
      const logger = new Logger('BigtableModule');
      for (const change of changes) logger.log(`sync: ${change.description}`);
    } catch (error) {
      await this.#close();
      throw error;
    }
  }

  /** Closes the mapper (and the client it created) once the HTTP server has stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.#close();
  }

  #close(): Promise<void> {
    this.#closing ??= this.#mapper.close();
    return this.#closing;
  }
}
