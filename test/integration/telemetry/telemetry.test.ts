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
    for (const span of finished) expect(JSON.stringify([span.attributes, span.events])).not.toMatch(/"s"/);

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
});
