import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptCallEvent } from '../../../src/driver/retry-engine.js';
import { MapperTelemetry } from '../../../src/telemetry/telemetry.js';
import { CollectingReader } from '../../support/collecting-metric-reader.js';

afterEach(() => {
  metrics.disable();
});

/** One call of one unanswered attempt that ended with gRPC `status`, as the retry engine reports it. */
function failOnce(telemetry: MapperTelemetry, method: string, status: number): void {
  const started = telemetry.start('Item.save');
  const event: AttemptCallEvent = {
    method,
    operation: `${method} "t"`,
    table: 't',
    telemetry: started.call,
    call: {},
    rowKey: undefined,
    appProfileId: undefined,
  };
  telemetry.listener.attemptStarted?.({ ...event, attempt: 0 });
  telemetry.listener.attemptEnded?.({ ...event, attempt: 0, ms: 2, status, answered: false });
  telemetry.listener.operationEnded?.({ ...event, attempts: 1, ms: 2, outcome: 'failed' });
  started.end();
}

describe('connectivity_error_count', () => {
  it('counts attempts cut by the network (UNAVAILABLE, INTERNAL, a timeout), not statuses the server answered', async () => {
    const reader = new CollectingReader();
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    const telemetry = new MapperTelemetry({ traces: false }, () => undefined);
    await telemetry.ready;
    // The server's answers: a missing table during sync, a failed condition, a bad request.
    failOnce(telemetry, 'getFamilies', 5);
    failOnce(telemetry, 'CheckAndMutateRow', 9);
    failOnce(telemetry, 'MutateRows', 3);
    failOnce(telemetry, 'MutateRows', 7);
    // No answer: a reset (INTERNAL or UNAVAILABLE) and an attempt timeout.
    failOnce(telemetry, 'ReadRows', 14);
    failOnce(telemetry, 'ReadRows', 13);
    failOnce(telemetry, 'ReadRows', 4);
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'connectivity_error_count');
    const counted = (metric?.dataPoints ?? [])
      .filter((p) => (p.value as number) > 0)
      .map((p) => `${String(p.attributes['method'])} ${String(p.attributes['status'])} ${String(p.value)}`)
      .sort();
    expect(counted).toEqual(['ReadRows DEADLINE_EXCEEDED 1', 'ReadRows INTERNAL 1', 'ReadRows UNAVAILABLE 1']);
    await provider.shutdown();
  });
});
