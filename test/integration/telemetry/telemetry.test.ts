import { metrics, trace } from '@opentelemetry/api';
import { CollectingReader } from '../../support/collecting-metric-reader.js';
import { MeterProvider, type DataPoint, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';

const saltedTable = uniqueTableId('otel-salted');
const plainTable = uniqueTableId('otel-plain');

@Entity({ table: saltedTable })
@Salt({ buckets: 8 })
@Family('d')
class Event {
  @KeyPart(0, { type: 'string' }) source!: string;
  @KeyPart(1, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

@Entity({ table: plainTable })
@Family('d')
class Note {
  @KeyPart(0, { type: 'uint', width: 5 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

const NOTES = 200;
const spans = new InMemorySpanExporter();
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
let proxy: FaultProxy;
let mapper: BigtableMapper;
const logged: string[] = [];

async function collectMetrics(): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect();
  const byName = new Map<string, MetricData>();
  for (const scope of resourceMetrics.scopeMetrics)
    if (scope.scope.name === 'bigtable-mapper')
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
  return byName;
}

function points(metric: MetricData | undefined, match: Record<string, unknown>): DataPoint<unknown>[] {
  return (metric?.dataPoints ?? []).filter((p: DataPoint<unknown>) =>
    Object.entries(match).every(([key, value]) => p.attributes[key] === value),
  );
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

beforeAll(async () => {
  metrics.setGlobalMeterProvider(meterProvider);
  trace.setGlobalTracerProvider(tracerProvider);
  proxy = await startFaultProxy(emulatorHost());
  mapper = new BigtableMapper({
    emulatorHost: proxy.host,
    instance: testInstanceId,
    entities: [Event, Note],
    telemetry: true,
    logger: { debug: (message: string) => logged.push(message) },
  });
  await mapper.telemetryReady();
  await mapper.sync();
  await mapper
    .getRepository(Event)
    .saveMany(Array.from({ length: 64 }, (_, seq) => Object.assign(new Event(), { source: 's', seq, text: 'e' })));
  await mapper
    .getRepository(Note)
    .saveMany(Array.from({ length: NOTES }, (_, seq) => Object.assign(new Note(), { seq, text: 'n'.repeat(512) })));
});

beforeEach(() => spans.reset());

afterAll(async () => {
  proxy.pass();
  const admin = mapper.driver;
  await admin.deleteTable({ table: saltedTable }).catch(() => undefined);
  await admin.deleteTable({ table: plainTable }).catch(() => undefined);
  await mapper.close();
  await proxy.close();
  metrics.disable();
  trace.disable();
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
});

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const row of rows) found.push(row);
  return found;
}

describe('OpenTelemetry metrics and traces on the emulator', () => {
  it('a salted 8-bucket scan is one operation span with 8 ReadRows attempt spans under it', async () => {
    expect(await all(mapper.getRepository(Event).iterate({ where: { source: 's' } }))).toHaveLength(64);
    const finished = spans.getFinishedSpans();
    const operations = finished.filter((s) => s.attributes['db.operation.name'] === 'scan');
    expect(operations).toHaveLength(1);
    const operation = operations[0] as ReadableSpan;
    expect(operation.name).toBe(`scan ${saltedTable}`);
    expect(operation.attributes).toMatchObject({
      'db.system.name': 'gcp.bigtable',
      'db.collection.name': saltedTable,
      'bigtable_mapper.entity': 'Event',
    });
    const attempts = finished.filter((s) => parentOf(s) === operation.spanContext().spanId);
    expect(attempts).toHaveLength(8);
    for (const attempt of attempts) {
      expect(attempt.name).toBe('ReadRows');
      expect(attempt.attributes).toMatchObject({ 'db.collection.name': saltedTable, 'rpc.grpc.status_code': 0 });
      expect(attempt.spanContext().traceId).toBe(operation.spanContext().traceId);
    }
    // No key or where value on any span.
    for (const span of finished) {
      expect(JSON.stringify([span.attributes, span.events])).not.toMatch(/"s"/);
      expect(span.attributes).not.toHaveProperty('bigtable_mapper.row_key_prefix');
    }

    const byName = await collectMetrics();
    const reads = { method: 'ReadRows', entity: 'Event', operation: 'scan', table: saltedTable };
    const operationPoints = points(byName.get('operation_latencies'), { ...reads, status: 'OK', streaming: true });
    expect(operationPoints).toHaveLength(1);
    expect((operationPoints[0]?.value as Histogram).count).toBe(8);
    expect((points(byName.get('attempt_latencies'), reads)[0]?.value as Histogram).count).toBe(8);
    expect(points(byName.get('retry_count'), reads)[0]?.value).toBe(0);
    expect((points(byName.get('first_response_latencies'), reads)[0]?.value as Histogram).count).toBe(8);
    expect(byName.get('operation_latencies')?.descriptor.unit).toBe('ms');
    const writes = points(byName.get('operation_latencies'), {
      method: 'MutateRows',
      entity: 'Event',
      operation: 'saveMany',
    });
    expect(writes.length).toBeGreaterThan(0);
  });

  it('a connection reset mid-read counts one retry and shows the resumed attempt', async () => {
    const before = await collectMetrics();
    const retriesBefore = points(before.get('retry_count'), { method: 'ReadRows', entity: 'Note' }).reduce(
      (sum, p) => sum + (p.value as number),
      0,
    );
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient' });
    try {
      expect(await all(mapper.getRepository(Note).iterate({}))).toHaveLength(NOTES);
    } finally {
      proxy.pass();
    }
    const finished = spans.getFinishedSpans();
    const operation = finished.find((s) => s.attributes['db.operation.name'] === 'scan') as ReadableSpan;
    const attempts = finished
      .filter((s) => parentOf(s) === operation.spanContext().spanId)
      .sort(
        (a, b) =>
          (a.attributes['bigtable_mapper.attempt'] as number) - (b.attributes['bigtable_mapper.attempt'] as number),
      );
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[0]?.attributes['rpc.grpc.status_code']).toBeOneOf([13, 14]);
    expect(attempts[1]?.attributes['bigtable_mapper.attempt']).toBe(1);
    expect(attempts.at(-1)?.attributes['rpc.grpc.status_code']).toBe(0);
    const retries = operation.events.filter((e) => e.name === 'retry_scheduled');
    expect(retries).toHaveLength(attempts.length - 1);
    expect(retries[0]?.attributes?.['bigtable_mapper.backoff_ms']).toBeTypeOf('number');

    const after = await collectMetrics();
    const retriesAfter = points(after.get('retry_count'), { method: 'ReadRows', entity: 'Note' }).reduce(
      (sum, p) => sum + (p.value as number),
      0,
    );
    expect(retriesAfter - retriesBefore).toBe(attempts.length - 1);
    expect(retriesAfter - retriesBefore).toBe(1);
    expect(
      logged.filter((line) => line.includes(`ReadRows ${JSON.stringify(plainTable)} attempt 0 ended with`)),
    ).toHaveLength(1);
    expect(logged.at(-1)).toMatch(/; retry in \d+ ms \(Note\.scan\)$/);
    const failed = [
      ...points(after.get('attempt_latencies'), { method: 'ReadRows', entity: 'Note', status: 'UNAVAILABLE' }),
      ...points(after.get('attempt_latencies'), { method: 'ReadRows', entity: 'Note', status: 'INTERNAL' }),
    ];
    expect(failed).toHaveLength(1);
  });

  it('counts rows and bytes read and written, rows per call, buckets touched, merge waits and read-ahead', async () => {
    const sum = (metric: MetricData | undefined, match: Record<string, unknown>): number =>
      points(metric, match).reduce((total, p) => total + (p.value as number), 0);
    const histogram = (
      metric: MetricData | undefined,
      match: Record<string, unknown>,
    ): { count: number; sum: number } =>
      points(metric, match).reduce(
        (total, p) => ({
          count: total.count + (p.value as Histogram).count,
          sum: total.sum + ((p.value as Histogram).sum ?? 0),
        }),
        { count: 0, sum: 0 },
      );
    const scan = { entity: 'Event', operation: 'scan' };
    const before = await collectMetrics();
    const events = await all(mapper.getRepository(Event).iterate({ where: { source: 's' } }));
    expect(events).toHaveLength(64);
    const notes = mapper.getRepository(Note);
    const written = Array.from({ length: 10 }, (_, i) => Object.assign(new Note(), { seq: 1_000 + i, text: 'w' }));
    await notes.saveMany(written);
    const after = await collectMetrics();

    const delta = (name: string, match: Record<string, unknown>): number =>
      sum(after.get(name), match) - sum(before.get(name), match);
    expect(delta('bigtable_mapper.rows_read', { ...scan, method: 'ReadRows', table: saltedTable })).toBe(64);
    // Each row: its key and its one value 'e'.
    const keyBytes = mapper.getRepository(Event).compileSave(events[0] as Event).rowKey.length;
    expect(delta('bigtable_mapper.bytes_read', { ...scan, method: 'ReadRows' })).toBe(64 * (keyBytes + 1));
    const expectedWritten = written
      .map((note) => notes.compileSave(note))
      .reduce(
        (total, m) =>
          total +
          m.rowKey.length +
          m.mutations.reduce((cells, c) => cells + (c.kind === 'setCell' ? c.value.length : 0), 0),
        0,
      );
    const saves = { entity: 'Note', operation: 'saveMany', method: 'MutateRows' };
    expect(delta('bigtable_mapper.rows_written', saves)).toBe(10);
    expect(delta('bigtable_mapper.bytes_written', saves)).toBe(expectedWritten);

    const diff = (name: string, match: Record<string, unknown>): { count: number; sum: number } => {
      const a = histogram(after.get(name), match);
      const b = histogram(before.get(name), match);
      return { count: a.count - b.count, sum: a.sum - b.sum };
    };
    // One ReadRows call per bucket, 64 rows between them; one MutateRows call of 10 rows.
    expect(diff('bigtable_mapper.batch_rows', { ...scan, method: 'ReadRows' })).toEqual({ count: 8, sum: 64 });
    expect(diff('bigtable_mapper.batch_rows', saves)).toEqual({ count: 1, sum: 10 });
    expect(diff('bigtable_mapper.buckets_touched', { ...scan, table: saltedTable })).toEqual({ count: 1, sum: 8 });
    const waits = diff('bigtable_mapper.merge_wait', scan);
    expect(waits.count).toBe(1);
    expect(waits.sum).toBeGreaterThan(0);
    const readAhead = diff('bigtable_mapper.read_ahead', scan);
    expect(readAhead.count).toBe(1);
    expect(readAhead.sum).toBeGreaterThan(0);
    expect(readAhead.sum).toBeLessThanOrEqual(64);
    expect(after.get('bigtable_mapper.bytes_read')?.descriptor.unit).toBe('By');
  });

  it("rowKeyPrefixBytes puts the first bytes of each RPC's first key on its spans, and nothing more", async () => {
    const keyed = new BigtableMapper({
      emulatorHost: proxy.host,
      instance: testInstanceId,
      entities: [Event],
      telemetry: { metrics: false, rowKeyPrefixBytes: 3 },
    });
    try {
      await keyed.telemetryReady();
      expect(await all(keyed.getRepository(Event).iterate({ where: { source: 's' } }))).toHaveLength(64);
    } finally {
      await keyed.close();
    }
    const finished = spans.getFinishedSpans();
    const operation = finished.find((s) => s.attributes['db.operation.name'] === 'scan') as ReadableSpan;
    const attempts = finished.filter((s) => parentOf(s) === operation.spanContext().spanId);
    const prefixes = attempts.map((s) => s.attributes['bigtable_mapper.row_key_prefix']).sort();
    expect(prefixes).toEqual(['00#', '01#', '02#', '03#', '04#', '05#', '06#', '07#']);
    expect(prefixes).toContain(operation.attributes['bigtable_mapper.row_key_prefix']);
    expect(
      () =>
        new BigtableMapper({
          emulatorHost: proxy.host,
          instance: testInstanceId,
          telemetry: { rowKeyPrefixBytes: 65 },
        }),
    ).toThrow(/rowKeyPrefixBytes must be an integer from 0 to 64, got 65/);
  });
});
