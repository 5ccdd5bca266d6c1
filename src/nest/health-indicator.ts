import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { HealthReport } from '../repository/health.js';
import type { BigtableMapper } from '../repository/mapper.js';
import { checkOptionNames } from '../util/option-names.js';
import { getMapperToken } from './tokens.js';

/**
 * Options of one `BigtableHealthIndicator.isHealthy()` check: those of
 * `mapper.health()`.
 *
 * @example
 * ```ts
 * const options: BigtableHealthCheckOptions = { timeoutMs: 2_000 };
 * ```
 */
export interface BigtableHealthCheckOptions {
  /** How long the whole check may take, every table included (milliseconds). Default 5 000, as `mapper.health()`. */
  timeoutMs?: number;
  /** Aborting it ends the check: every table not yet answered is down with `ABORTED`. */
  signal?: AbortSignal;
}

/**
 * What `isHealthy()` reports under its key, up or down: the `ms` and
 * `tables` of `mapper.health()`'s report, each table with `healthy` and,
 * when down, the error's `code` and `message`. No row key or value.
 *
 * @example
 * ```ts
 * const down: BigtableHealthDetails = { ms: 3, tables: [{ table: 'readings', healthy: false, code: 'TABLE_NOT_FOUND', message: '…' }] };
 * ```
 */
export type BigtableHealthDetails = Pick<HealthReport, 'ms' | 'tables'>;

const CHECK_OPTION_NAMES: readonly string[] = Object.keys({
  timeoutMs: true,
  signal: true,
} satisfies Record<keyof BigtableHealthCheckOptions, true>);

/**
 * A `@nestjs/terminus` health indicator for the application's
 * `BigtableMapper` (from `BigtableModule.forRoot`): `isHealthy(key)` runs
 * `mapper.health()` (a one-row read of every registered table, bounded by
 * `timeoutMs`) and reports up or down under `key`, with each table's outcome.
 * A down check makes `HealthCheckService.check()` answer 503. List it in the
 * providers of a module that imports `TerminusModule` (Terminus 11 or later:
 * it is built on `HealthIndicatorService`). From `bigtable-mapper/nest/terminus`,
 * so `bigtable-mapper/nest` never loads Terminus.
 *
 * @example
 * ```ts
 * import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
 * import { BigtableHealthIndicator } from 'bigtable-mapper/nest/terminus';
 *
 * @Controller('health')
 * class HealthController {
 *   constructor(
 *     @Inject(HealthCheckService) private readonly health: HealthCheckService,
 *     @Inject(BigtableHealthIndicator) private readonly bigtable: BigtableHealthIndicator,
 *   ) {}
 *
 *   @Get('ready')
 *   @HealthCheck()
 *   ready() {
 *     return this.health.check([() => this.bigtable.isHealthy('bigtable', { timeoutMs: 2_000 })]);
 *   }
 * }
 *
 * @Module({ imports: [TerminusModule], controllers: [HealthController], providers: [BigtableHealthIndicator] })
 * class HealthModule {}
 * ```
 */
@Injectable()
export class BigtableHealthIndicator {
  readonly #indicators: HealthIndicatorService;
  readonly #mapper: BigtableMapper;

  /**
   * @param indicators - Terminus's `HealthIndicatorService` (exported by `TerminusModule`).
   * @param mapper - The module's mapper (`BigtableModule.forRoot` provides it globally).
   */
  constructor(
    @Inject(HealthIndicatorService) indicators: HealthIndicatorService,
    @Inject(getMapperToken()) mapper: BigtableMapper,
  ) {
    this.#indicators = indicators;
    this.#mapper = mapper;
  }

  /**
   * Checks Bigtable and reports under `key`: `up` when every registered
   * table answered, else `down`; with the report's `ms` and `tables` either
   * way. Never rejects for a failed check; an unknown option is a
   * `ValidationError`.
   *
   * @example
   * ```ts
   * await this.health.check([() => this.bigtable.isHealthy('bigtable', { timeoutMs: 2_000 })]);
   * // { status: 'ok', info: { bigtable: { status: 'up', ms: 4, tables: [{ table: 'readings', healthy: true }] } }, ... }
   * ```
   */
  async isHealthy<const Key extends string>(
    key: Key,
    options: BigtableHealthCheckOptions = {},
  ): Promise<HealthIndicatorResult<Key, 'up' | 'down', BigtableHealthDetails>> {
    checkOptionNames('BigtableHealthIndicator.isHealthy', options, CHECK_OPTION_NAMES);
    const check = this.#indicators.check(key);
    const { healthy, ms, tables } = await this.#mapper.health(options);
    const details: BigtableHealthDetails = { ms, tables };
    return healthy ? check.up(details) : check.down(details);
  }
}
