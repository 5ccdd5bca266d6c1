import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * Where {@link startTelemetry} sends what the example measures. Without
 * them, spans and metrics are printed on the console (`ConsoleSpanExporter`
 * in batches, `ConsoleMetricExporter` every minute and at shutdown).
 *
 * @example
 * ```ts
 * const exporters: TelemetryExporters = { spans: new SimpleSpanProcessor(new InMemorySpanExporter()), metrics: reader };
 * ```
 */
export interface TelemetryExporters {
  /** The span processor, with its exporter (an OTLP exporter in production, an in-memory one in a test). */
  spans?: SpanProcessor;
  /** The metric reader, with its exporter. */
  metrics?: MetricReader;
}

/**
 * The OpenTelemetry SDK of the running example: its providers, and
 * `shutdown()`, which flushes them (printing the last metrics) and unregisters them.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry();
 * await telemetry.shutdown();
 * ```
 */
export interface ExampleTelemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry for the NestJS example: registers a TracerProvider, a
 * MeterProvider and an async-hooks context manager globally, which the
 * mapper's `telemetry: true` (in `AppModule`) writes to. Call it before Nest
 * creates the application, as `main.ts` does. A production app would use
 * `@opentelemetry/sdk-node` with OTLP exporters instead (docs/observability.md);
 * the parts here are the ones that package is made of.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry(); // console exporters
 * const app = await NestFactory.create(AppModule.forRoot({ emulatorHost }));
 * // ...
 * await app.close();
 * await telemetry.shutdown();
 * ```
 */
export function startTelemetry(exporters: TelemetryExporters = {}): ExampleTelemetry {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [exporters.spans ?? new BatchSpanProcessor(new ConsoleSpanExporter())],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  const meterProvider = new MeterProvider({
    readers: [
      exporters.metrics ??
        new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 60_000 }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    tracerProvider,
    meterProvider,
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}
