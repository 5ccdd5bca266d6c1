import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../../examples/nestjs/app.module.js';
import type { IngestReport } from '../../../examples/nestjs/ingest.service.js';
import { PageView } from '../../../examples/nestjs/page-view.entity.js';
import { SiteTraffic } from '../../../examples/nestjs/site-traffic.entity.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { getMapperToken } from '../../../src/nest/index.js';
import type { BigtableMapper } from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const tablePrefix = `${uniqueTableId('ingest')}_`;
const DAY1 = Date.UTC(2024, 4, 1, 12);
const DAY2 = Date.UTC(2024, 4, 2, 9);
let app: INestApplication | undefined;
let base: string;
let mapper: BigtableMapper;

/** Page views of `count` users on `site` at `from` + i seconds, each lasting 100 + i ms, as NDJSON lines. */
function views(site: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      userId: `u${i}`,
      site,
      at: new Date(from + i * 1_000).toISOString(),
      path: '/',
      durationMs: 100 + i,
    }),
  );
}

function ingest(lines: readonly string[], type = 'application/x-ndjson'): Promise<Response> {
  return fetch(`${base}/page-views/ingest`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: lines.join('\n'),
  });
}

async function traffic(site: string, day: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/traffic/${site}/${day}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** 0 + 1 + … + (n - 1). */
const triangle = (n: number): number => (n * (n - 1)) / 2;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ emulatorHost: emulatorHost(), instance: testInstanceId, tablePrefix })],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
  mapper = app.get<BigtableMapper>(getMapperToken());
});

afterAll(async () => {
  await app?.close();
  const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
  for (const table of ['page_views', 'customers', 'site_traffic'])
    await driver.deleteTable({ table: `${tablePrefix}${table}` }).catch(() => undefined);
  await driver.close();
});

describe('NestJS example: a stream of page views through a BulkWriter, counted in Sum counters', () => {
  it('writes every valid line, refuses the others by line number, and counts the written views per site and day', async () => {
    const lines = [
      ...views('example.com', DAY1, 600),
      'not json',
      JSON.stringify({ userId: 'u1', site: 'example.com', path: 'no-slash' }),
      '',
      ...views('example.com', DAY2, 40),
      ...views('other.org', DAY1, 25),
    ];
    const res = await ingest(lines);
    expect(res.status).toBe(201);
    const report = (await res.json()) as IngestReport;
    expect(report).toMatchObject({ lines: lines.length, persisted: 665, failed: 0, unknown: 0, rejectedCount: 2 });
    expect(report.rejected.map((r) => r.line)).toEqual([601, 602]);
    expect(report.rejected[1]?.message).toMatch(/path/);
    expect(report.counters).toEqual({ added: 3, unknown: 0 });

    expect(await traffic('example.com', '2024-05-01')).toEqual({
      status: 200,
      body: { site: 'example.com', day: '2024-05-01', views: '600', durationMs: String(600 * 100 + triangle(600)) },
    });
    expect((await traffic('example.com', '2024-05-02')).body).toMatchObject({ views: '40' });
    expect((await traffic('other.org', '2024-05-01')).body).toMatchObject({ views: '25' });
    expect((await traffic('other.org', '2024-05-02')).status).toBe(404);

    // The rows are there, read back through the repository.
    const saved = await mapper
      .getRepository(PageView)
      .findOne({ userId: 'u599', site: 'example.com', at: new Date(DAY1 + 599_000) });
    expect(saved?.durationMs).toBe(699);
  });

  it('a second ingest adds to the same counters (the rows themselves are written again, unchanged)', async () => {
    const report = (await (await ingest(views('other.org', DAY1, 25))).json()) as IngestReport;
    expect(report).toMatchObject({ persisted: 25, rejectedCount: 0, counters: { added: 1, unknown: 0 } });
    expect((await traffic('other.org', '2024-05-01')).body).toMatchObject({
      views: '50',
      durationMs: String(2 * (25 * 100 + triangle(25))),
    });
    const counters = await mapper.getRepository(SiteTraffic).findOne({ site: 'other.org', day: '2024-05-01' });
    expect(counters?.views).toBe(50);
  });

  it('refuses a body that is not NDJSON, and a malformed day', async () => {
    expect((await ingest(views('example.com', DAY1, 1), 'application/json')).status).toBe(400);
    expect((await traffic('example.com', 'yesterday')).status).toBe(400);
  });
});
