import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { LATENCY_BUCKETS_MS } from '../../../src/telemetry/names.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { parsePrometheusText, type PromFamily, type PromSample } from '../../support/prometheus-text.js';

const saltedTable = uniqueTableId('prom-salted');
const plainTable = uniqueTableId('prom-plain');

@Entity({ table: saltedTable })
@Salt({ buckets: 8 })
@Family('d')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) value?: string;
}

@Entity({ table: plainTable })
@Family('d')
class Note {
  @KeyPart(0, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

const READINGS = 64;
const NOTES = 200;
/** How long one scrape may take before the test gives up on it. */
const SCRAPE_TIMEOUT_MS = 10_000;
/** The attempt timeout of the point read sent into a stalled network: it can only end by this timer. */
const STALLED_ATTEMPT_MS = 1_000;

// The exporter's own server cannot take port 0, so it serves through an Express route on a free loopback port,
// as docs/observability.md shows.
const exporter = new PrometheusExporter({ preventServerStart: true });
const meterProvider = new MeterProvider({ readers: [exporter] });
let server: Server;
let proxy: FaultProxy;
let mapper: BigtableMapper;
let families: Map<string, PromFamily>;
/** Set while the network is stalled: the first retry the mapper logs heals it. */
let healOnRetry = false;

/** GET `path` from the metrics server over loopback HTTP, with a deadline. */
function scrape(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'GET', signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function family(name: string): PromFamily {
  const found = families.get(name);
  if (found === undefined) throw new Error(`no family ${name} in the scrape; families: ${[...families.keys()]}`);
  return found;
}

/** The samples named `name` whose labels include every label of `match`. */
function samples(of: PromFamily, name: string, match: Record<string, string>): PromSample[] {
  return of.samples.filter(
    (s) => s.name === name && Object.entries(match).every(([label, value]) => s.labels[label] === value),
  );
}

function only(found: PromSample[], what: string): PromSample {
  if (found.length !== 1) throw new Error(`expected one sample of ${what}, found ${found.length}`);
  return found[0] as PromSample;
}

beforeAll(async () => {
  // false: another file of this worker left its provider registered, and the mapper would write there.
  expect(metrics.setGlobalMeterProvider(meterProvider)).toBe(true);
  const app = express();
  app.get('/metrics', (req, res) => exporter.getMetricsRequestHandler(req, res));
  server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  proxy = await startFaultProxy(emulatorHost());
  mapper = new BigtableMapper({
    emulatorHost: proxy.host,
    instance: testInstanceId,
    entities: [Reading, Note],
    telemetry: true,
    logger: {
      debug: () => {
        if (!healOnRetry) return;
        healOnRetry = false;
        proxy.pass();
      },
    },
  });
  await mapper.telemetryReady();
  await mapper.sync();

  // The workload: two saveMany calls, a salted scan over 8 buckets, a point read, a scan reset mid-stream, and
  // a point read sent into a stalled network (cut by its attempt timeout, then retried once the network is back).
  const readings = mapper.getRepository(Reading);
  const notes = mapper.getRepository(Note);
  await readings.saveMany(
    Array.from({ length: READINGS }, (_, seq) => Object.assign(new Reading(), { sensorId: 's1', seq, value: 'v' })),
  );
  await notes.saveMany(
    Array.from({ length: NOTES }, (_, seq) => Object.assign(new Note(), { seq, text: 'n'.repeat(512) })),
  );
  let scanned = 0;
  for await (const _ of readings.iterate({ where: { sensorId: 's1' } })) scanned += 1;
  expect(scanned).toBe(READINGS);
  expect(await readings.findOne({ sensorId: 's1', seq: 7 })).toMatchObject({ seq: 7, value: 'v' });
  proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient' });
  let read = 0;
  try {
    for await (const _ of notes.iterate({})) read += 1;
  } finally {
    proxy.pass();
  }
  expect(read).toBe(NOTES);
  healOnRetry = true;
  proxy.stall();
  try {
    const found = await readings.findOne({ sensorId: 's1', seq: 9 }, { attemptTimeoutMs: STALLED_ATTEMPT_MS });
    expect(found).toMatchObject({ seq: 9 });
  } finally {
    healOnRetry = false;
    proxy.pass();
  }

  const scraped = await scrape('/metrics');
  expect(scraped.status).toBe(200);
  expect(scraped.type).toMatch(/^text\/plain/);
  families = parsePrometheusText(scraped.body);
});

afterAll(async () => {
  proxy?.pass();
  if (mapper !== undefined) {
    await mapper.driver.deleteTable({ table: saltedTable }).catch(() => undefined);
    await mapper.driver.deleteTable({ table: plainTable }).catch(() => undefined);
    await mapper.close();
  }
  await proxy?.close();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  metrics.disable();
  await meterProvider.shutdown();
});

describe('Prometheus scrape after a workload on the emulator', () => {
  it('names the metrics as the exporter renders them, with their types and units', () => {
    expect(family('operation_latencies')).toMatchObject({ type: 'histogram', unit: 'ms' });
    expect(family('attempt_latencies')).toMatchObject({ type: 'histogram', unit: 'ms' });
    expect(family('first_response_latencies')).toMatchObject({ type: 'histogram', unit: 'ms' });
    // Monotonic counters get the `_total` suffix.
    expect(family('retry_count_total')).toMatchObject({ type: 'counter' });
    expect(family('connectivity_error_count_total')).toMatchObject({ type: 'counter' });
    expect(family('retry_count_total').help).toMatch(/after the first/);
    for (const sample of family('operation_latencies').samples)
      expect(sample.labels).toMatchObject({ otel_scope_name: 'bigtable-mapper' });
  });

  it('writes every latency boundary as a cumulative _bucket line that ends at _count', () => {
    const operation = family('operation_latencies');
    const series = samples(operation, 'operation_latencies_count', {});
    expect(series.length).toBeGreaterThanOrEqual(4);
    const expectedLe = [...LATENCY_BUCKETS_MS.map(String), '+Inf'];
    // The documented boundaries, written as Prometheus writes them.
    expect(expectedLe).toEqual(expect.arrayContaining(['0.01', '0.3', '1', '65', '1000', '3200000', '+Inf']));
    for (const count of series) {
      const { le: _, ...labels } = count.labels;
      const buckets = operation.samples.filter(
        (s) =>
          s.name === 'operation_latencies_bucket' &&
          Object.entries(labels).every(([label, value]) => s.labels[label] === value),
      );
      expect(buckets.map((b) => b.labels['le'])).toEqual(expectedLe);
      for (const [i, bucket] of buckets.entries())
        if (i > 0) expect(bucket.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
      expect(buckets.at(-1)?.value).toBe(count.value);
      expect(count.value).toBeGreaterThan(0);
      expect(only(samples(operation, 'operation_latencies_sum', labels), 'its sum').value).toBeGreaterThan(0);
    }
  });

  it('labels each RPC call with method, status, streaming, table, app profile, entity and operation', () => {
    const operation = family('operation_latencies');
    const scan = only(
      samples(operation, 'operation_latencies_count', {
        method: 'ReadRows',
        status: 'OK',
        streaming: 'true',
        table: saltedTable,
        app_profile: 'default',
        entity: 'Reading',
        operation: 'scan',
      }),
      'the salted scan',
    );
    expect(scan.value).toBe(8); // one ReadRows per salt bucket
    const attempts = only(
      samples(family('attempt_latencies'), 'attempt_latencies_count', {
        method: 'ReadRows',
        entity: 'Reading',
        operation: 'scan',
      }),
      'the scan attempts',
    );
    expect(attempts.value).toBe(8);
    const findOne = only(
      samples(operation, 'operation_latencies_count', { entity: 'Reading', operation: 'findOne', status: 'OK' }),
      'the point reads',
    );
    expect(findOne.value).toBe(2);
    expect(findOne.labels).toMatchObject({ method: 'ReadRows', table: saltedTable, app_profile: 'default' });
    const writes = samples(operation, 'operation_latencies_count', {
      method: 'MutateRows',
      status: 'OK',
      streaming: 'false',
      entity: 'Reading',
      operation: 'saveMany',
      table: saltedTable,
    });
    expect(writes.map((w) => w.value).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
  });

  it('counts the retries of the reads cut by the network, and the connectivity error of the unanswered one', () => {
    const retries = family('retry_count_total');
    const scanRetries = only(
      samples(retries, 'retry_count_total', {
        method: 'ReadRows',
        entity: 'Note',
        operation: 'scan',
        table: plainTable,
      }),
      'the scan reset mid-stream',
    );
    expect(scanRetries.value).toBe(1);
    expect(scanRetries.labels['status']).toBe('OK');
    const pointRetries = only(
      samples(retries, 'retry_count_total', { method: 'ReadRows', entity: 'Reading', operation: 'findOne' }),
      'the point reads',
    );
    expect(pointRetries.value).toBeGreaterThanOrEqual(1);
    const quiet = retries.samples.filter((s) => s !== scanRetries && s !== pointRetries);
    expect(quiet.length).toBeGreaterThan(0);
    expect(quiet.map((s) => s.value)).toEqual(quiet.map(() => 0));

    // The scan's reset came after its first response: a retry, not a connectivity error. The stalled point
    // read had no answer: each of its attempts cut by the timer is one.
    const errors = family('connectivity_error_count_total').samples;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.labels).toMatchObject({
      method: 'ReadRows',
      status: 'DEADLINE_EXCEEDED',
      table: saltedTable,
      entity: 'Reading',
      operation: 'findOne',
    });
    expect(errors[0]?.value).toBe(pointRetries.value);
    const failedScanAttempts = samples(family('attempt_latencies'), 'attempt_latencies_count', {
      table: plainTable,
      operation: 'scan',
    }).filter((s) => s.labels['status'] !== 'OK');
    expect(failedScanAttempts).toHaveLength(1);
    expect(['UNAVAILABLE', 'INTERNAL']).toContain(failedScanAttempts[0]?.labels['status']);
    expect(failedScanAttempts[0]?.value).toBe(1);
  });

  it('answers 404 off the route', async () => {
    expect((await scrape('/nothing')).status).toBe(404);
  });
});
