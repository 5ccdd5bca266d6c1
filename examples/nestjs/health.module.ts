import { Controller, Get, Inject, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule, type HealthCheckResult } from '@nestjs/terminus';
import { BigtableHealthIndicator } from '../../src/nest/terminus.js';

/**
 * `GET /health/ready`: a Terminus health check of Bigtable, for a readiness
 * probe. 200 while every table of the app answers a one-row read within 2 s;
 * 503 otherwise, with each table's error code (`TABLE_NOT_FOUND`,
 * `DEADLINE_EXCEEDED`, ...).
 *
 * @example
 * ```ts
 * const res = await fetch(`${base}/health/ready`); // 200 { status: 'ok', info: { bigtable: { status: 'up', ... } } }
 * ```
 */
@Controller('health')
export class HealthController {
  readonly #health: HealthCheckService;
  readonly #bigtable: BigtableHealthIndicator;

  constructor(
    @Inject(HealthCheckService) health: HealthCheckService,
    @Inject(BigtableHealthIndicator) bigtable: BigtableHealthIndicator,
  ) {
    this.#health = health;
    this.#bigtable = bigtable;
  }

  /** Bigtable's health under the key `bigtable`. @example `GET /health/ready` */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.#health.check([() => this.#bigtable.isHealthy('bigtable', { timeoutMs: 2_000 })]);
  }
}

/**
 * The health feature: Terminus (its failed checks logged through Nest's
 * logger) and the indicator of the mapper `BigtableModule` provides.
 *
 * @example
 * ```ts
 * @Module({ imports: [BigtableModule.forRootAsync(...), HealthModule] })
 * class AppModule {}
 * ```
 */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [BigtableHealthIndicator],
})
export class HealthModule {}
