import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DataPoint, Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppModule } from '../../../examples/nestjs/app.module.js';
import type { PageViewJson } from '../../../examples/nestjs/page-view-input.js';
import { startTelemetry, type ExampleTelemetry } from '../../../examples/nestjs/telemetry.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { BigtableMapper } from '../../../src/index.js';
import { getMapperToken } from '../../../src/nest/index.js';
import { CollectingReader } from '../../support/collecting-metric-reader.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

/**
 * The NestJS example with its OpenTelemetry setup (`examples/nestjs/telemetry.ts`)
 * given in-memory exporters instead of the console ones: real HTTP requests to
 * the app, real RPCs to the emulator, and the spans and metrics they exported.
 */

const tablePrefix = `${uniqueTableId('nest-otel')}_`;
const table = `${tablePrefix}page_views`;
const start = Date.UTC(2024, 4, 1, 12);
const spans = new InMemorySpanExporter();
const reader = new CollectingReader();
let telemetry: ExampleTelemetry;
let app: INestApplication | undefined;
let base: string;

function post(body: object): Promise<Response> {
  return fetch(`${base}/page-views`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function collectMetrics(): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect();
  const byName = new Map<string, MetricData>();
  for (const scope of resourceMetrics.scopeMetrics)
    if (scope.scope.name === 'bigtable-mapper')
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
  return byName;
}

function points(metric: MetricData | undefined, match: Record<string, unknown>): DataPoint<Histogram>[] {
  return (metric?.dataPoints ?? []).filter((p) =>
    Object.entries(match).every(([key, value]) => p.attributes[key] === value),
  ) as DataPoint<Histogram>[];
}

/** The finished spans of repository operation `operation`, with the attempt spans under each. */
function operationSpans(operation: string): { span: ReadableSpan; attempts: ReadableSpan[] }[] {
  const finished = spans.getFinishedSpans();
  return finished
    .filter((s) => s.attributes['db.operation.name'] === operation)
    .map((span) => ({
      span,
      attempts: finished.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId),
    }));
}

beforeAll(async () => {
  telemetry = startTelemetry({ spans: new SimpleSpanProcessor(spans), metrics: reader });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ emulatorHost: emulatorHost(), instance: testInstanceId, tablePrefix })],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
  // The mapper loads @opentelemetry/api when it is created; calls before that are not measured.
  await app.get<BigtableMapper>(getMapperToken()).telemetryReady();
});

beforeEach(() => spans.reset());

afterAll(async () => {
  await app?.close();
  await telemetry?.shutdown();
  const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.deleteTable({ table: `${tablePrefix}customers` }).catch(() => undefined);
  await driver.close();
});

describe('the NestJS example exports traces and metrics', () => {
  it('POST /page-views: a save span of the Bigtable system with its MutateRows attempt, and latency points of PageView.save', async () => {
    const res = await post({ userId: 'otel-u1', site: 'example.com', at: new Date(start).toISOString(), path: '/a' });
    expect(res.status).toBe(201);

    const saves = operationSpans('save');
    expect(saves).toHaveLength(1);
    const [{ span, attempts }] = saves as [{ span: ReadableSpan; attempts: ReadableSpan[] }];
    expect(span.name).toBe(`save ${table}`);
    expect(span.attributes).toMatchObject({
      'db.system.name': 'gcp.bigtable',
      'db.operation.name': 'save',
      'db.collection.name': table,
      'bigtable_mapper.entity': 'PageView',
    });
    expect(attempts.map((a) => a.name)).toEqual(['MutateRows']);
    expect(attempts[0]?.attributes).toMatchObject({
      'db.system.name': 'gcp.bigtable',
      'db.collection.name': table,
      'bigtable_mapper.attempt': 0,
      'rpc.grpc.status_code': 0,
    });
    expect(attempts[0]?.spanContext().traceId).toBe(span.spanContext().traceId);
    // No key or value of the request on any span.
    expect(JSON.stringify(spans.getFinishedSpans().map((s) => [s.attributes, s.events]))).not.toMatch(/otel-u1|\/a"/);

    const byName = await collectMetrics();
    const save = { entity: 'PageView', operation: 'save', method: 'MutateRows', table, status: 'OK' };
    expect(points(byName.get('operation_latencies'), save).map((p) => p.value.count)).toEqual([1]);
    expect(points(byName.get('attempt_latencies'), save).map((p) => p.value.count)).toEqual([1]);
    expect(byName.get('operation_latencies')?.descriptor.unit).toBe('ms');
  });

  it('GET one page and one view: page and findOneOrFail spans with their ReadRows attempts, and their latency points', async () => {
    for (const [i, path] of ['/b', '/c'].entries())
      expect(
        (await post({ userId: 'otel-u2', site: 'example.com', at: new Date(start + i).toISOString(), path })).status,
      ).toBe(201);
    spans.reset();
    const before = await collectMetrics();
    const pageReadsBefore = points(before.get('operation_latencies'), { entity: 'PageView', operation: 'page' })
      .map((p) => p.value.count)
      .reduce((a, b) => a + b, 0);

    const page = await fetch(`${base}/page-views/otel-u2/example.com?limit=10`);
    expect(page.status).toBe(200);
    const { items } = (await page.json()) as { items: PageViewJson[] };
    expect(items.map((v) => v.path)).toEqual(['/b', '/c']);
    const one = await fetch(`${base}${items[0]?.href ?? ''}`);
    expect(one.status).toBe(200);

    // Salted on userId and site: one user's views of one site are one bucket, one ReadRows.
    const pages = operationSpans('page');
    expect(pages).toHaveLength(1);
    expect(pages[0]?.span.attributes).toMatchObject({
      'db.system.name': 'gcp.bigtable',
      'db.collection.name': table,
      'bigtable_mapper.entity': 'PageView',
    });
    expect(pages[0]?.attempts.map((a) => a.name)).toEqual(['ReadRows']);
    const finds = operationSpans('findOneOrFail');
    expect(finds).toHaveLength(1);
    expect(finds[0]?.span.name).toBe(`findOneOrFail ${table}`);
    expect(finds[0]?.span.attributes).toMatchObject({
      'db.system.name': 'gcp.bigtable',
      'bigtable_mapper.entity': 'PageView',
    });
    expect(finds[0]?.attempts.map((a) => a.name)).toEqual(['ReadRows']);

    const byName = await collectMetrics();
    const reads = { entity: 'PageView', operation: 'page', method: 'ReadRows', table, streaming: true, status: 'OK' };
    const pageReads = points(byName.get('operation_latencies'), reads)
      .map((p) => p.value.count)
      .reduce((a, b) => a + b, 0);
    expect(pageReads - pageReadsBefore).toBe(1);
    expect(points(byName.get('attempt_latencies'), reads)).toHaveLength(1);
    expect(
      points(byName.get('attempt_latencies'), { entity: 'PageView', operation: 'findOneOrFail', method: 'ReadRows' }),
    ).toHaveLength(1);
  });
});
