import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppModule } from '../../../examples/nestjs/app.module.js';
import type { PageView } from '../../../examples/nestjs/page-view.entity.js';
import type { PageViewJson } from '../../../examples/nestjs/page-view-input.js';
import { PAGE_VIEWS } from '../../../examples/nestjs/page-views.tokens.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { getMapperToken } from '../../../src/nest/index.js';
import { OperationAbortedError, type BigtableMapper, type Repository } from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const tablePrefix = `${uniqueTableId('nest')}_`;
const table = `${tablePrefix}page_views`;
const start = Date.UTC(2024, 4, 1, 12);
const iso = (ms: number): string => new Date(ms).toISOString();
let app: INestApplication | undefined;
let base: string;
let mapper: BigtableMapper;

function post(body: object, path = '/page-views'): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function getJson<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

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
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.deleteTable({ table: `${tablePrefix}customers` }).catch(() => undefined);
  await driver.deleteTable({ table: `${tablePrefix}site_traffic` }).catch(() => undefined);
  await driver.close();
});

describe('NestJS example over HTTP', () => {
  it('created the prefixed table at start-up (sync: true) and injects its repository', async () => {
    expect(await mapper.driver.getFamilies({ table: 'page_views' })).toEqual([
      { name: 'v', gc: { kind: 'maxVersions', count: 1 } },
    ]);
    expect(mapper.tablePrefix).toBe(tablePrefix);
    expect(app?.get<Repository<PageView>>(PAGE_VIEWS).schema.table).toBe('page_views');
  });

  it('creates a page view and reads it back by key', async () => {
    const res = await post({ userId: 'u#1', site: 'example.com', at: iso(start), path: '/pricing', durationMs: 1234 });
    expect(res.status).toBe(201);
    const created = (await res.json()) as PageViewJson;
    expect(created.href).toBe(`/page-views/u%231/example.com/${start}`);
    const read = await getJson<PageViewJson>(created.href);
    expect(read).toEqual({ status: 200, body: created });
    expect(read.body).toMatchObject({
      userId: 'u#1',
      site: 'example.com',
      at: new Date(start).toISOString(),
      path: '/pricing',
      durationMs: 1234,
    });
  });

  it('answers 404 for a missing key and 400 for invalid input', async () => {
    const missing = await getJson<{ code: string }>(`/page-views/nobody/example.com/${start}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect((await post({ userId: 'u1', site: 'example.com' })).status).toBe(400);
    expect((await getJson('/page-views/u1/example.com/yesterday')).status).toBe(400);
    expect((await getJson('/page-views/u1/example.com?cursor=not-a-cursor')).status).toBe(400);
  });

  it('answers a POST without a key part with 400 and the library error as JSON (BigtableMapperExceptionFilter)', async () => {
    const res = await post({ site: 'example.com', path: '/' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION' });
    expect(body['message']).toMatch(/^PageView: key is missing "userId"/);
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error', 'message', 'statusCode']);
  });

  it('answers a body the entity refuses with 400 and every issue: its JSON form, then its validators', async () => {
    const form = await post({ userId: 'u1', site: 'example.com', at: 1714564800000, path: '/', referrer: 'x' });
    expect(form.status).toBe(400);
    expect(
      ((await form.json()) as { details: { issues: { path: string }[] } }).details.issues.map((i) => i.path),
    ).toEqual(['PageView.at', 'PageView.referrer']);
    const values = await post({ userId: 'u1', site: 'example.com', path: 'pricing', durationMs: -1 });
    expect(values.status).toBe(400);
    expect(await values.json()).toMatchObject({
      code: 'VALIDATION',
      details: {
        issues: [
          { property: 'path', path: 'PageView.path', message: expect.stringContaining('"/"') as unknown },
          { property: 'durationMs', path: 'PageView.durationMs', message: expect.any(String) as unknown },
        ],
      },
    });
  });

  it('serves the JSON Schema of the body, narrowed by the validators', async () => {
    const { status, body } = await getJson<{ required: string[]; properties: Record<string, object> }>(
      '/page-views/schema',
    );
    expect(status).toBe(200);
    expect(body.required).toEqual(['userId', 'site', 'at']);
    expect(body.properties['userId']).toEqual({ type: 'string', minLength: 1, maxLength: 64 });
    expect(body.properties['path']).toMatchObject({ type: 'string', maxLength: 2048 });
  });

  it('answers 404 with the key as given in details', async () => {
    const missing = await getJson<Record<string, unknown>>(`/page-views/nobody/example.com/${start}`);
    expect(missing.body).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      details: {
        entity: 'PageView',
        key: { userId: 'nobody', site: 'example.com', at: new Date(start).toISOString() },
      },
    });
  });

  it('lists one user and site page by page, visiting every row once', async () => {
    const ats = Array.from({ length: 11 }, (_, i) => start + i * 1_000);
    for (const at of [...ats].reverse())
      expect((await post({ userId: 'pager', site: 'a.com', at: iso(at), path: `/p${at}` })).status).toBe(201);
    await post({ userId: 'pager', site: 'a.co', at: iso(start), path: '/other-site' });
    await post({ userId: 'pager2', site: 'a.com', at: iso(start), path: '/other-user' });

    const seen: PageViewJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=3' : `?limit=3&cursor=${encodeURIComponent(cursor)}`;
      const page = await getJson<{ items: PageViewJson[]; cursor: string | null }>(`/page-views/pager/a.com${query}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items);
      cursor = page.body.cursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(seen.map((v) => v.path)).toEqual(ats.map((at) => `/p${at}`));
    expect(pages).toBe(4);
  });

  it('stores a customer aggregate in one table (sync created the union of its families) and reads it in one scan', async () => {
    expect((await mapper.driver.getFamilies({ table: 'customers' }))?.map((f) => f.name)).toEqual(['a', 'c', 'o']);
    expect((await post({ customerId: 'c1', name: 'Ada', email: 'ada@example.com' }, '/customers')).status).toBe(201);
    expect((await post({ customerId: 'c10', name: 'Other' }, '/customers')).status).toBe(201);
    for (const [orderId, total] of [
      [2, 30],
      [1, 9.5],
    ] as const)
      expect((await post({ orderId, total, status: 'open' }, '/customers/c1/orders')).status).toBe(201);
    expect((await post({ label: 'home', city: 'Lyon' }, '/customers/c1/addresses')).status).toBe(201);
    expect((await post({ orderId: 1, total: 1, status: 'open' }, '/customers/c10/orders')).status).toBe(201);
    const read = vi.spyOn(mapper.driver, 'readRows');
    const aggregate = await getJson<Record<string, unknown>>('/customers/c1');
    expect(read).toHaveBeenCalledTimes(1);
    read.mockRestore();
    expect(aggregate).toEqual({
      status: 200,
      body: {
        customer: { customerId: 'c1', name: 'Ada', email: 'ada@example.com' },
        orders: [
          { customerId: 'c1', orderId: 1, total: 9.5, status: 'open' },
          { customerId: 'c1', orderId: 2, total: 30, status: 'open' },
        ],
        addresses: [{ customerId: 'c1', label: 'home', city: 'Lyon' }],
        unknownRows: 0,
      },
    });
    expect((await getJson('/customers/nobody')).status).toBe(404);
  });

  it("validates customer bodies through the entities' zod validators: 400 listing every issue, nothing written", async () => {
    const bad = await post({ orderId: 3, total: -1, status: 'lost' }, '/customers/c2/orders');
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { details?: { issues?: { property: string }[] } };
    expect(body.details?.issues?.map((issue) => issue.property).sort()).toEqual(['status', 'total']);
    expect((await post({ customerId: 'c1', name: 'Ada', email: 'not an email' }, '/customers')).status).toBe(400);
    expect(
      (await post({ customerId: 'c3', orderId: 1, total: 1, status: 'open' }, '/customers/c2/orders')).status,
    ).toBe(400);
    expect((await getJson<{ orders?: unknown[] }>('/customers/c1')).body.orders).toHaveLength(2);
  });

  it('serves an OpenAPI document generated from the entities', async () => {
    const { status, body } = await getJson<{
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { required?: string[]; properties?: Record<string, object> }> };
    }>('/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toContain('/customers/{customerId}');
    const order = body.components.schemas['OrderCreate'];
    expect(order?.required?.sort()).toEqual(['customerId', 'orderId']);
    expect(order?.properties?.['status']).toMatchObject({ enum: ['open', 'paid', 'shipped'] });
    expect(body.components.schemas['CustomerCreate']?.properties?.['email']).toMatchObject({ format: 'email' });
    expect(Object.keys(body.components.schemas).sort()).toEqual([
      'Address',
      'AddressCreate',
      'Customer',
      'CustomerCreate',
      'Order',
      'OrderCreate',
      'PageView',
      'PageViewCreate',
    ]);
  });

  it('answers 500 with the table-missing message when the table is gone, and is not ready, until sync creates it again', async () => {
    expect(await getJson('/health/ready')).toMatchObject({
      status: 200,
      body: {
        status: 'ok',
        info: {
          bigtable: {
            status: 'up',
            tables: [{ table: 'customers' }, { table: 'page_views' }, { table: 'site_traffic' }],
          },
        },
      },
    });
    await mapper.driver.deleteTable({ table: 'page_views' });
    try {
      const gone = await getJson<Record<string, unknown>>(`/page-views/nobody/example.com/${start}`);
      expect(gone.status).toBe(500);
      expect(gone.body).toMatchObject({ statusCode: 500, code: 'TABLE_NOT_FOUND', details: { table } });
      expect(gone.body['message']).toContain('run mapper.sync()');
      expect(await getJson('/health/ready')).toMatchObject({
        status: 503,
        body: {
          status: 'error',
          error: {
            bigtable: {
              status: 'down',
              tables: [
                { table: 'customers', healthy: true },
                { table: 'page_views', healthy: false, code: 'TABLE_NOT_FOUND' },
                { table: 'site_traffic', healthy: true },
              ],
            },
          },
        },
      });
    } finally {
      await mapper.sync();
    }
    expect((await getJson(`/page-views/nobody/example.com/${start}`)).status).toBe(404);
    expect((await getJson('/health/ready')).status).toBe(200);
  });

  it('closes the mapper when the application closes', async () => {
    const views = app!.get<Repository<PageView>>(PAGE_VIEWS);
    const close = vi.spyOn(mapper, 'close');
    await app!.close();
    app = undefined;
    expect(close).toHaveBeenCalledTimes(1);
    const view = Object.assign(new views.schema.target(), {
      userId: 'late',
      site: 'x.com',
      at: new Date(start),
      path: '/',
    });
    await expect(views.save(view)).rejects.toThrow(OperationAbortedError);
    await expect(views.save(view)).rejects.toThrow(/mapper was closed/);
  });
});
