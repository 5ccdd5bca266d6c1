import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NdjsonSummary } from '../../../examples/express/ndjson.js';
import { readingEntity } from '../../../examples/express/reading.entity.js';
import type { ReadingJson } from '../../../examples/express/reading-json.js';
import { createReadingsApp } from '../../../examples/express/readings-app.js';
import { listen, type RunningServer } from '../../../examples/express/server.js';
import type { GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { BigtableMapper } from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('express-readings');
const Reading = readingEntity(table);
const mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId });
const readings = mapper.getRepository(Reading);
const exportsEnded: NdjsonSummary[] = [];
const start = Date.UTC(2024, 4, 1, 12);
let server: RunningServer | undefined;

const reading = (sensorId: string, i: number) =>
  Object.assign(new Reading(), { sensorId, ts: new Date(start + i * 1_000), temperature: 20 + i / 10 });
const activeReads = () => (mapper.driver as GoogleCloudDriver).activeReads;

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function url(path: string): string {
  return `${server!.url}${path}`;
}

beforeAll(async () => {
  await mapper.sync();
  server = await listen(
    createReadingsApp(readings, {
      onExportEnd: (s) => exportsEnded.push(s),
      ready: (signal) => mapper.health({ signal, timeoutMs: 2_000 }),
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await mapper.driver.deleteTable({ table }).catch(() => undefined);
  await mapper.close();
});

describe('Express example over HTTP', () => {
  it('answers GET /ready with 200 while Bigtable answers for the table, 503 with the report when it does not', async () => {
    const ok = await fetch(url('/ready'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ healthy: true, tables: [{ table, healthy: true }] });
    await mapper.driver.deleteTable({ table });
    try {
      const down = await fetch(url('/ready'));
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ healthy: false, tables: [{ table, code: 'TABLE_NOT_FOUND' }] });
    } finally {
      await mapper.sync();
    }
    expect((await fetch(url('/ready'))).status).toBe(200);
  });

  it('creates a reading and reads it back by key; 404 and 400 otherwise', async () => {
    const body = { sensorId: 'dock/7', ts: start, temperature: 21.25, humidity: 40 };
    const res = await fetch(url('/readings'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as ReadingJson;
    expect(created).toEqual({
      sensorId: 'dock/7',
      ts: new Date(start).toISOString(),
      temperature: 21.25,
      humidity: 40,
      href: `/readings/dock%2F7/${start}`,
    });
    const read = await fetch(url(created.href));
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);

    expect((await fetch(url(`/readings/dock%2F7/${start + 1}`))).status).toBe(404);
    expect((await fetch(url('/readings/dock%2F7/soon'))).status).toBe(400);
    const invalid = await fetch(url('/readings'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sensorId":"x","temperature":"hot"}',
    });
    expect(invalid.status).toBe(400);
    expect((await fetch(url('/readings?cursor=garbage'))).status).toBe(400);
  });

  it('answers the library errors with JSON bodies: a POST without a key part 400, a missing row 404', async () => {
    const noKey = await fetch(url('/readings'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ temperature: 20 }),
    });
    expect(noKey.status).toBe(400);
    const body = (await noKey.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION' });
    expect(body['message']).toMatch(/key is missing "sensorId"/);
    const badKey = await fetch(url('/readings'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sensorId: '', temperature: 20 }),
    });
    expect(badKey.status).toBe(400);
    expect(await badKey.json()).toMatchObject({ code: 'KEY_ENCODING', details: { property: 'sensorId' } });
    const missing = await fetch(url(`/readings/nobody/${start}`));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      details: { key: { sensorId: 'nobody', ts: new Date(start).toISOString() } },
    });
  });

  it('lists a sensor page by page with the cursor, visiting every row once in key order', async () => {
    await readings.saveMany([
      ...Array.from({ length: 23 }, (_, i) => reading('paged', i)),
      reading('paged-x', 0),
      reading('page', 0),
    ]);
    const seen: ReadingJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await fetch(
        url(`/readings?sensorId=paged&limit=5${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
      );
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: ReadingJson[]; cursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(5);
      seen.push(...page.items);
      cursor = page.cursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(5);
    expect(seen.map((r) => r.ts)).toEqual(
      Array.from({ length: 23 }, (_, i) => new Date(start + i * 1_000).toISOString()),
    );
    expect(new Set(seen.map((r) => r.sensorId))).toEqual(new Set(['paged']));
  });

  it('streams a scan as NDJSON, one JSON object per line, in key order', async () => {
    const res = await fetch(url('/readings/export?sensorId=paged'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const rows = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ReadingJson);
    expect(rows.map((r) => r.ts)).toEqual(
      Array.from({ length: 23 }, (_, i) => new Date(start + i * 1_000).toISOString()),
    );
    await until(() => exportsEnded.length === 1);
    expect(exportsEnded[0]).toEqual({ rows: 23, aborted: false });
    expect(activeReads()).toBe(0);

    const empty = await fetch(url('/readings/export?sensorId=nobody'));
    expect([empty.status, await empty.text()]).toEqual([200, '']);
    await until(() => exportsEnded.length === 2);
    expect(exportsEnded[1]).toEqual({ rows: 0, aborted: false });
  });

  it('stops the scan when the client disconnects mid-stream', async () => {
    const before = exportsEnded.length;
    const total = 12_000;
    await readings.saveMany(
      Array.from({ length: total }, (_, i) => reading('bulk', i)),
      { batchSize: 500, concurrency: 2 },
    );
    const abort = new AbortController();
    const res = await fetch(url('/readings/export?sensorId=bulk'), { signal: abort.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(activeReads()).toBeGreaterThan(0);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    await until(() => exportsEnded.length === before + 1 && activeReads() === 0);
    expect(exportsEnded[before]!.aborted).toBe(true);
    expect(exportsEnded[before]!.rows).toBeLessThan(total);
  });
});
