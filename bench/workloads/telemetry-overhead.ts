import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { BigtableMapper } from '../../src/index.js';
import { createGoogleCloudDriver } from '../../src/driver-api.js';
import { alternate, ratio, sample, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { entities } from '../dataset.js';
import { wideDataset } from '../datasets.js';
import { defineWideRow } from '../entities.js';
import { startClock } from '../measure.js';
import { measureRead, withLimit } from '../read-sample.js';
import type { RunSample, ThroughputResult } from '../results.js';
import { BULK } from './bulk-write.js';

/** How a variant's mapper reports: not at all, to the API with no SDK registered, or to the SDK. */
type Mode = 'off' | 'api' | 'sdk';

const MODES: readonly { readonly mode: Mode; readonly label: string }[] = [
  { mode: 'off', label: 'telemetry off' },
  { mode: 'api', label: 'telemetry on, no SDK registered' },
  { mode: 'sdk', label: 'telemetry on, SDK with in-memory exporters' },
];

/** The OpenTelemetry SDK as an application registers it: metrics read every second, spans exported in batches. */
interface RegisteredSdk {
  readonly spans: InMemorySpanExporter;
  shutdown(): Promise<void>;
}

function registerSdk(): RegisteredSdk {
  const spans = new InMemorySpanExporter();
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 1_000,
      }),
    ],
  });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  metrics.setGlobalMeterProvider(meterProvider);
  trace.setGlobalTracerProvider(tracerProvider);
  return {
    spans,
    shutdown: async () => {
      metrics.disable();
      trace.disable();
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

/**
 * A mapper of the given mode on a driver of its own (a mapper with telemetry
 * measures the driver it is given, so the variants must not share one), and
 * the SDK it reports to; both are released by `close`, outside the clock.
 */
async function openMapper(ctx: BenchContext, mode: Mode): Promise<{ mapper: BigtableMapper; close(): Promise<void> }> {
  const sdk = mode === 'sdk' ? registerSdk() : undefined;
  const driver = createGoogleCloudDriver({ bigtable: ctx.bigtable, instance: ctx.options.instance });
  const mapper = new BigtableMapper({ driver, ...(mode === 'off' ? {} : { telemetry: true }) });
  await mapper.telemetryReady();
  return {
    mapper,
    close: async () => {
      await mapper.close();
      await sdk?.shutdown();
    },
  };
}

/**
 * Workload: what the `telemetry` option costs `saveMany` and `iterate`, each
 * run three ways alternated in one process: telemetry off (the library never
 * loads `@opentelemetry/api`), on with the API and no SDK registered (the
 * API's no-op meter and tracer), and on with the SDK registered with
 * in-memory exporters (a periodic metric reader, batched span export). Every
 * run gets a fresh mapper on a driver of its own, and registers and
 * unregisters the SDK outside its clock. It runs each variant `2 × repeats + 3`
 * times (9 by default): the ratios it checks are within 2% of 1, and one run
 * on the emulator varies by ±20% (a full bench run with 5 runs per variant
 * measured 0.979 and 0.975 for the API-only variants, a run with 9 runs 0.992
 * and 0.996).
 * @example `const result = await telemetryOverhead(ctx);`
 */
export async function telemetryOverhead(ctx: BenchContext): Promise<ThroughputResult> {
  const { rows, warmupRows } = ctx.options;
  const repeats = 2 * ctx.options.repeats + 3;
  ctx.log('telemetry-overhead:');
  const data = await wideDataset(ctx);
  const size = (warmup: boolean): number => (warmup ? Math.min(warmupRows, rows) : rows);

  const saveMany = (mode: Mode, label: string): Variant => ({
    id: `save-many-${mode}`,
    label: `saveMany, ${label}`,
    side: 'mapper',
    run: async (warmup): Promise<RunSample> => {
      const n = size(warmup);
      const tableId = await ctx.createTable(`t-${mode}`);
      const opened = await openMapper(ctx, mode);
      try {
        const Wide = defineWideRow(tableId);
        const repo = opened.mapper.getRepository(Wide);
        const input = entities(Wide, 0, n);
        const clock = startClock();
        const { written } = await repo.saveMany(input, BULK);
        const time = clock.stop();
        if (written !== n) throw new Error(`saveMany wrote ${written} of ${n} rows`);
        return sample(n, time);
      } finally {
        await opened.close();
        await ctx.dropTable(tableId);
      }
    },
  });

  const iterate = (mode: Mode, label: string): Variant => ({
    id: `iterate-${mode}`,
    label: `iterate, ${label}`,
    side: 'mapper',
    run: async (warmup): Promise<RunSample> => {
      const opened = await openMapper(ctx, mode);
      try {
        const repo = opened.mapper.getRepository(data.Wide);
        const limit = warmup ? Math.min(warmupRows, data.rows) : undefined;
        return await measureRead(limit ?? data.rows, async (onRow) => {
          for await (const entity of repo.iterate(withLimit({}, limit))) onRow(entity);
        });
      } finally {
        await opened.close();
      }
    },
  });

  const variants: Variant[] = [
    ...MODES.map(({ mode, label }) => saveMany(mode, label)),
    ...MODES.map(({ mode, label }) => iterate(mode, label)),
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  return {
    kind: 'throughput',
    id: 'telemetry-overhead',
    title: `Telemetry overhead: saveMany of ${rows.toLocaleString('en-US')} and iterate over ${data.rows.toLocaleString('en-US')} wide rows`,
    rows,
    repeats,
    variants: results,
    ratios: [
      ratio(results, 'save-many-api', 'save-many-off', 'saveMany: API without SDK / telemetry off'),
      ratio(results, 'save-many-sdk', 'save-many-off', 'saveMany: SDK with in-memory exporters / telemetry off'),
      ratio(results, 'iterate-api', 'iterate-off', 'iterate: API without SDK / telemetry off'),
      ratio(results, 'iterate-sdk', 'iterate-off', 'iterate: SDK with in-memory exporters / telemetry off'),
    ],
  };
}
