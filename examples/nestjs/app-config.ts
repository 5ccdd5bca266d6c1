import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

/**
 * Where the example's data lives.
 *
 * @example
 * ```ts
 * const config: AppConfig = { emulatorHost: '127.0.0.1:8086', instance: 'examples' };
 * ```
 */
export interface AppConfig {
  /** Loopback `HOST:PORT` of a Bigtable emulator. */
  emulatorHost: string;
  /** Bigtable instance id (any id works on the emulator). */
  instance: string;
}

/** Injection token of the {@link AppConfig}. @example `constructor(@Inject(APP_CONFIG) config: AppConfig) {}` */
export const APP_CONFIG: unique symbol = Symbol('APP_CONFIG');

/**
 * Provides {@link APP_CONFIG}: the given values, the emulator host defaulting
 * to `BIGTABLE_EMULATOR_HOST`.
 *
 * @example
 * ```ts
 * AppConfigModule.forRoot({ emulatorHost: emulator.host });
 * ```
 */
@Module({})
export class AppConfigModule {
  /** The config module for these values. @example `AppConfigModule.forRoot({ instance: 'examples' })` */
  static forRoot(options: Partial<AppConfig> = {}): DynamicModule {
    const emulatorHost = options.emulatorHost ?? process.env['BIGTABLE_EMULATOR_HOST'];
    if (emulatorHost === undefined || emulatorHost === '') {
      throw new Error(
        'No Bigtable emulator: pass emulatorHost (main.ts starts one with useEmulator()) or set BIGTABLE_EMULATOR_HOST.',
      );
    }
    const config: AppConfig = { emulatorHost, instance: options.instance ?? 'examples' };
    return { module: AppConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
