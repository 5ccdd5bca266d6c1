import { readFileSync } from 'node:fs';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, type Histogram } from '@opentelemetry/sdk-metrics';
import { CollectingReader } from '../../support/collecting-metric-reader.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, ValidationError } from '../../../src/index.js';
import { InMemoryBigtable } from '../../../src/testing/index.js';
import type { AttemptCallEvent } from '../../../src/driver/retry-engine.js';
import {
  INSTRUMENTATION_SCOPE,
  printableKeyPrefix,
  splitOperationName,
  statusName,
} from '../../../src/telemetry/names.js';
import { MapperTelemetry } from '../../../src/telemetry/telemetry.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'telemetry-items' })
@Family('d')
class Item {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) name?: string;
}

/** Every hook of the listener once, as one call of two attempts (a reset, then success) would send them. */
function driveOneCall(telemetry: MapperTelemetry): void {
  const started = telemetry.start('Item.scan');
  const base: AttemptCallEvent = {
    method: 'ReadRows',
    operation: 'readRows "t"',
    table: 't',
    telemetry: started.call,
    call: {},
    rowKey: undefined,
    appProfileId: undefined,
  };
  const { listener } = telemetry;
  listener.attemptStarted?.({ ...base, attempt: 0 });
  listener.attemptEnded?.({ ...base, attempt: 0, ms: 3, status: 14, answered: false });
  listener.retryScheduled?.({ ...base, attempt: 0, delayMs: 10 });
  listener.attemptStarted?.({ ...base, attempt: 1 });
  listener.firstResponse?.({ ...base, attempt: 1, ms: 1, operationMs: 15 });
  listener.attemptEnded?.({ ...base, attempt: 1, ms: 2, status: 0, answered: true });
  listener.operationEnded?.({ ...base, attempts: 2, ms: 20, outcome: 'done' });
  started.end();
}

afterEach(() => {
  metrics.disable();
  trace.disable();
  context.disable();
});

describe('telemetry without registered providers', () => {
  it('records nothing and throws nothing when @opentelemetry/api is present but no provider is registered', async () => {
    const reader = new CollectingReader();
    // A provider that is not registered globally: the library must not reach it.
    const unregistered = new MeterProvider({ readers: [reader] });
    const telemetry = new MapperTelemetry({}, () => undefined);
    await telemetry.ready;
    expect(() => driveOneCall(telemetry)).not.toThrow();
    const { resourceMetrics } = await reader.collect();
    expect(resourceMetrics.scopeMetrics).toEqual([]);
    await unregistered.shutdown();
  });

  it('records nothing and throws nothing when @opentelemetry/api cannot be loaded', async () => {
    const telemetry = new MapperTelemetry(
      {},
      () => undefined,
      () => Promise.resolve(undefined),
    );
    await telemetry.ready;
    expect(() => driveOneCall(telemetry)).not.toThrow();
    expect(telemetry.start('Item.save').call).toEqual({ entity: 'Item', operation: 'save' });
  });

  it('a failing loader is the same as a missing API', async () => {
    const telemetry = new MapperTelemetry(
      {},
      () => undefined,
      () => Promise.reject(new Error('no module')),
    );
    await telemetry.ready;
    expect(() => driveOneCall(telemetry)).not.toThrow();
  });

  it('a custom driver still gets the per-scan metrics: buckets touched, merge wait and read-ahead', async () => {
    @Entity({ table: 'salted-items' })
    @Salt({ buckets: 4 })
    @Family('d')
    class SaltedItem {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'd', type: 'string' }) name?: string;
    }
    const reader = new CollectingReader();
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    const mapper = new BigtableMapper({ driver: new InMemoryBigtable(), entities: [SaltedItem], telemetry: true });
    try {
      await mapper.telemetryReady();
      await mapper.sync();
      const repo = mapper.getRepository(SaltedItem);
      await repo.saveMany(
        Array.from({ length: 20 }, (_, i) => Object.assign(new SaltedItem(), { id: `i${i}`, name: 'x' })),
      );
      let rows = 0;
      for await (const item of repo.iterate({})) if (item.id.startsWith('i')) rows += 1;
      expect(rows).toBe(20);
      const { resourceMetrics } = await reader.collect();
      const byName = new Map(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
      const only = (name: string): Histogram => {
        const found = byName.get(name)?.dataPoints ?? [];
        expect(found).toHaveLength(1);
        expect(found[0]?.attributes).toMatchObject({ entity: 'SaltedItem', operation: 'scan', table: 'salted-items' });
        return found[0]?.value as Histogram;
      };
      expect(only('bigtable_mapper.buckets_touched')).toMatchObject({ count: 1, sum: 4 });
      expect(only('bigtable_mapper.merge_wait').count).toBe(1);
      expect(only('bigtable_mapper.read_ahead').count).toBe(1);
      // The RPC metrics are the built-in driver's.
      expect(byName.has('bigtable_mapper.rows_read')).toBe(false);
    } finally {
      await mapper.close();
      await provider.shutdown();
    }
  });

  it('a mapper with telemetry and a custom driver runs its calls as before', async () => {
    const mapper = new BigtableMapper({ driver: new FakeDriver(), entities: [Item], telemetry: true });
    await mapper.telemetryReady();
    const repo = mapper.getRepository(Item);
    await repo.save(Object.assign(new Item(), { id: 'a', name: 'x' }));
    expect((await repo.findOne({ id: 'a' }))?.name).toBe('x');
    await mapper.close();
  });
});

describe('the telemetry option and names', () => {
  it('rejects a telemetry option that is not a boolean or { metrics, traces }', () => {
    for (const telemetry of [
      'yes',
      1,
      [],
      { metrics: 'on' },
      { logs: true },
      { rowKeyPrefixBytes: -1 },
      { rowKeyPrefixBytes: 1.5 },
      { rowKeyPrefixBytes: '8' },
    ])
      expect(
        () => new BigtableMapper({ driver: new FakeDriver(), telemetry: telemetry as unknown as boolean }),
      ).toThrow(ValidationError);
  });

  it('names gRPC codes and splits operation names', () => {
    expect(statusName(0)).toBe('OK');
    expect(statusName(14)).toBe('UNAVAILABLE');
    expect(statusName(99)).toBe('UNKNOWN');
    expect(statusName(undefined)).toBe('UNKNOWN');
    expect(splitOperationName('Reading.saveMany')).toEqual({ entity: 'Reading', operation: 'saveMany' });
    expect(splitOperationName('BigtableMapper.sync')).toEqual({ entity: undefined, operation: 'sync' });
  });

  it("the meter's version is the package's", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(INSTRUMENTATION_SCOPE).toEqual({ name: pkg.name, version: pkg.version });
  });
});

describe('telemetry with a registered MeterProvider', () => {
  it('counts the retry and the connectivity error of a call reset before any response', async () => {
    const reader = new CollectingReader();
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    const telemetry = new MapperTelemetry({ traces: false }, () => 'batch');
    await telemetry.ready;
    driveOneCall(telemetry);
    const { resourceMetrics } = await reader.collect();
    const scope = resourceMetrics.scopeMetrics.find((s) => s.scope.name === 'bigtable-mapper');
    expect(scope?.scope.version).toBe(INSTRUMENTATION_SCOPE.version);
    const byName = new Map(scope?.metrics.map((m) => [m.descriptor.name, m.dataPoints]));
    const common = {
      method: 'ReadRows',
      table: 't',
      app_profile: 'batch',
      entity: 'Item',
      operation: 'scan',
      streaming: true,
    };
    expect(byName.get('retry_count')).toMatchObject([{ attributes: { ...common, status: 'OK' }, value: 1 }]);
    expect(byName.get('connectivity_error_count')).toMatchObject([
      { attributes: { ...common, status: 'UNAVAILABLE' }, value: 1 },
    ]);
    expect(byName.get('attempt_latencies')).toHaveLength(2);
    expect(byName.get('first_response_latencies')).toMatchObject([{ value: { count: 1, sum: 15 } }]);
    expect(byName.get('operation_latencies')).toMatchObject([{ value: { count: 1, sum: 20 } }]);
    await provider.shutdown();
  });
});

describe('the logger option', () => {
  it('logs each retry with debug and a call slower than slowOperationMs with warn, naming no key', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (m: string) => lines.push(`debug ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
    };
    const telemetry = new MapperTelemetry(undefined, () => undefined, undefined, { logger, slowOperationMs: 1 });
    await telemetry.ready;
    driveOneCall(telemetry);
    const slow = telemetry.start('Item.findOne');
    await new Promise((resolve) => setTimeout(resolve, 5));
    slow.end(new ValidationError('bad key "secret"'));
    expect(lines[0]).toBe(
      'debug bigtable-mapper: ReadRows "t" attempt 0 ended with UNAVAILABLE; retry in 10 ms (Item.scan)',
    );
    expect(lines.at(-1)).toMatch(
      /^warn bigtable-mapper: Item\.findOne took \d+ ms \(slowOperationMs 1\), failed with VALIDATION$/,
    );
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('a logger that throws or lacks a method is ignored', async () => {
    const telemetry = new MapperTelemetry(undefined, () => undefined, undefined, {
      logger: {
        warn: () => {
          throw new Error('broken logger');
        },
      },
      slowOperationMs: 1,
    });
    await telemetry.ready;
    expect(() => driveOneCall(telemetry)).not.toThrow();
    const slow = telemetry.start('Item.save');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(() => slow.end()).not.toThrow();
  });

  it('a mapper takes a NestJS- or pino-shaped logger; slowOperationMs needs one, and a valid number', async () => {
    const warned: string[] = [];
    const mapper = new BigtableMapper({
      driver: new FakeDriver(),
      entities: [Item],
      logger: { log: () => undefined, warn: (m: string) => warned.push(m), error: () => undefined },
      slowOperationMs: 1,
    });
    await mapper.getRepository(Item).save(Object.assign(new Item(), { id: 'a', name: 'x' }));
    await mapper.close();
    expect(() => new BigtableMapper({ driver: new FakeDriver(), slowOperationMs: 100 })).toThrow(ValidationError);
    expect(() => new BigtableMapper({ driver: new FakeDriver(), logger: console, slowOperationMs: -1 })).toThrow(
      ValidationError,
    );
    expect(() => new BigtableMapper({ driver: new FakeDriver(), logger: {} as never })).toThrow(ValidationError);
  });
});

describe('telemetry spans', () => {
  it('a call started inside another repository call is its child; an error sets error.type, not the message', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    const telemetry = new MapperTelemetry({ metrics: false }, () => undefined);
    await telemetry.ready;
    const outer = telemetry.start('Order.save');
    await outer.within?.(async () => {
      await Promise.resolve();
      const inner = telemetry.start('Customer.findMany');
      inner.end(new ValidationError('row "secret" is bad'));
    });
    outer.end();
    const [inner, saved] = exporter.getFinishedSpans();
    expect(saved?.name).toBe('save');
    expect(saved?.attributes).toMatchObject({ 'db.system.name': 'gcp.bigtable', 'bigtable_mapper.entity': 'Order' });
    expect(inner?.parentSpanContext?.spanId).toBe(saved?.spanContext().spanId);
    expect(inner?.attributes['error.type']).toBe('VALIDATION');
    expect(inner?.status.code).toBe(2);
    expect(JSON.stringify([inner?.attributes, inner?.events, inner?.status])).not.toContain('secret');
    await provider.shutdown();
  });
});

describe('printableKeyPrefix', () => {
  it('keeps printable ASCII, doubles a backslash, escapes every other byte, and stops at the byte count', () => {
    expect(printableKeyPrefix(Buffer.from('03#sensor-1'), 6)).toBe('03#sen');
    expect(printableKeyPrefix(Buffer.from([0x00, 0x41, 0x5c, 0xff, 0x7f]), 5)).toBe('\\x00A\\\\\\xff\\x7f');
    expect(printableKeyPrefix(Buffer.from('ab'), 8)).toBe('ab');
    expect(printableKeyPrefix(Buffer.from('é'), 1)).toBe('\\xc3');
  });
});
