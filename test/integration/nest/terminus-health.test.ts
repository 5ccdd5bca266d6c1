import { Controller, Get, Inject, Module, Query, type INestApplication } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule, type HealthCheckResult } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { Column, Entity, Family, KeyPart, ValidationError, type BigtableMapper } from '../../../src/index.js';
import { BigtableModule, getMapperToken } from '../../../src/nest/index.js';
import { BigtableHealthIndicator } from '../../../src/nest/terminus.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';

const table = uniqueTableId('nest-health');

@Entity({ table })
@Family('d')
class Probe {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) secret?: string;
}

@Controller('health')
class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(BigtableHealthIndicator) private readonly bigtable: BigtableHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check(@Query('timeoutMs') timeoutMs?: string): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.bigtable.isHealthy('bigtable', timeoutMs === undefined ? {} : { timeoutMs: Number(timeoutMs) }),
    ]);
  }
}

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [BigtableHealthIndicator],
})
class HealthModule {}

let proxy: FaultProxy;
let app: INestApplication | undefined;
let base: string;
let mapper: BigtableMapper;

async function health(query = ''): Promise<{ status: number; text: string; body: HealthCheckResult }> {
  const res = await fetch(`${base}/health${query}`);
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as HealthCheckResult };
}

beforeAll(async () => {
  // Through a loopback proxy, so one test can make Bigtable stop answering.
  proxy = await startFaultProxy(emulatorHost());
  const moduleRef = await Test.createTestingModule({
    imports: [
      BigtableModule.forRoot({
        emulatorHost: proxy.host,
        instance: testInstanceId,
        entities: [Probe],
        sync: true,
        logger: false,
      }),
      HealthModule,
    ],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
  mapper = app.get<BigtableMapper>(getMapperToken());
  await mapper.getRepository(Probe).save(Object.assign(new Probe(), { id: 'row-key-k1', secret: 'cell-value-v1' }));
});

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('BigtableHealthIndicator in a Terminus health check', () => {
  it('is up with the per-table report while every table answers: 200', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      info: { bigtable: { status: 'up', tables: [{ table, healthy: true }] } },
      error: {},
    });
    expect(body.details['bigtable']?.['ms']).toEqual(expect.any(Number));
  });

  it('is down with the table and its error code when the table is gone: 503 through Terminus, no key or value', async () => {
    await mapper.driver.deleteTable({ table });
    try {
      const { status, text, body } = await health();
      expect(status).toBe(503);
      expect(body).toMatchObject({
        status: 'error',
        info: {},
        error: { bigtable: { status: 'down', tables: [{ table, healthy: false, code: 'TABLE_NOT_FOUND' }] } },
      });
      expect(text).not.toContain('row-key-k1');
      expect(text).not.toContain('cell-value-v1');
    } finally {
      await mapper.sync();
    }
    expect((await health()).status).toBe(200);
  });

  it('rejects an unknown option with a ValidationError naming the closest one', async () => {
    const indicator = app!.get(BigtableHealthIndicator);
    await expect(indicator.isHealthy('bigtable', { timeout: 1_000 } as never)).rejects.toThrow(ValidationError);
    await expect(indicator.isHealthy('bigtable', { timeout: 1_000 } as never)).rejects.toThrow(
      /BigtableHealthIndicator\.isHealthy: unknown option "timeout"\. Did you mean "timeoutMs"\?/,
    );
  });

  it('is down with DEADLINE_EXCEEDED once timeoutMs passes while Bigtable does not answer: 503', async () => {
    proxy.stall();
    try {
      const { status, body } = await health('?timeoutMs=300');
      expect(status).toBe(503);
      expect(body.error).toMatchObject({
        bigtable: { status: 'down', tables: [{ table, healthy: false, code: 'DEADLINE_EXCEEDED' }] },
      });
    } finally {
      proxy.pass();
    }
  });
});
