import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * Where {@link startTelemetry} sends what the example measures. Without
 * them, spans and metrics are printed on the console, one line each
 * ({@link LineSpanExporter} in batches, {@link LineMetricExporter} every
 * minute and at shutdown).
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
    spanProcessors: [exporters.spans ?? new BatchSpanProcessor(new LineSpanExporter())],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  const meterProvider = new MeterProvider({
    readers: [
      exporters.metrics ??
        new PeriodicExportingMetricReader({ exporter: new LineMetricExporter(), exportIntervalMillis: 60_000 }),
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

/** What an exporter reports back: `ExportResultCode.SUCCESS` of `@opentelemetry/core` is 0. */
type ExportDone = Parameters<SpanExporter['export']>[1];
const EXPORTED = { code: 0 } as Parameters<ExportDone>[0];

/** The attributes that tell the example's series apart, as `key=value` text. */
function labels(attributes: Record<string, unknown>): string {
  return ['entity', 'operation', 'method', 'status', 'table']
    .filter((key) => attributes[key] !== undefined)
    .map((key) => `${key}=${String(attributes[key])}`)
    .join(' ');
}

/**
 * A span exporter that prints one line per span: its name, duration, status
 * and parent, where the SDK's `ConsoleSpanExporter` prints each span's whole
 * structure. An application exports with OTLP instead.
 * @example
 * ```ts
 * new BatchSpanProcessor(new LineSpanExporter());
 * // span scan page_views 3.1 ms OK (parent 5f2c…)
 * ```
 */
export class LineSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: ExportDone): void {
    for (const span of spans) {
      const ms = span.duration[0] * 1_000 + span.duration[1] / 1_000_000;
      const parent = span.parentSpanContext?.spanId;
      console.log(
        `span ${span.name} ${ms.toFixed(1)} ms ${span.status.code === 2 ? 'ERROR' : 'OK'}${parent === undefined ? '' : ` (parent ${parent.slice(0, 4)}…)`}`,
      );
    }
    done(EXPORTED);
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A metric exporter that prints one line per series: a histogram's count and
 * sum, a counter's value, with the attributes that tell series apart.
 * @example
 * ```ts
 * new PeriodicExportingMetricReader({ exporter: new LineMetricExporter() });
 * // metric attempt_latencies entity=PageView operation=save method=MutateRows status=OK table=page_views: 3 in 7.0 ms
 * ```
 */
export class LineMetricExporter implements PushMetricExporter {
  export(metrics: ResourceMetrics, done: ExportDone): void {
    for (const scope of metrics.scopeMetrics)
      for (const metric of scope.metrics)
        for (const point of metric.dataPoints) {
          const { name, unit } = metric.descriptor;
          const value =
            metric.dataPointType === DataPointType.HISTOGRAM
              ? (() => {
                  const histogram = point.value as { count: number; sum?: number };
                  return `${histogram.count} in ${(histogram.sum ?? 0).toFixed(1)} ${unit}`;
                })()
              : `${String(point.value)} ${unit}`;
          console.log(`metric ${name} ${labels(point.attributes)}: ${value}`);
        }
    done(EXPORTED);
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
