/**
 * The dashboard picture of docs/observability.md: `npm run docs:dashboard` starts the Bigtable
 * emulator (or uses the loopback one named by `BIGTABLE_EMULATOR_HOST`), puts a loopback fault proxy in
 * front of it, and runs a workload through a mapper with `telemetry` on: `saveMany` writers, point
 * readers (`findOne`) and salted scans over 8 buckets, while the proxy resets every open connection a
 * few times. The OpenTelemetry SDK's in-memory exporter collects the mapper's metrics every second
 * (DELTA), and the dashboard drawn from them (scripts/dashboard/) is written to
 * docs/images/observability-dashboard.png. A real run: the numbers differ a little every time.
 *
 * Options: `--seconds N` (default 24) and `--resets N` (default 4, evenly spread).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../src/index.js';
import { renderPng } from '../src/heatmap/render-png.js';
import { uniqueTableId, useEmulator } from '../src/testing/index.js';
import { startFaultProxy } from '../test/support/fault-proxy.js';
import { dashboardData, type MetricSnapshot } from './dashboard/dashboard-data.js';
import { renderDashboardSvg } from './dashboard/dashboard-svg.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images', 'observability-dashboard.png');
const SENSORS = 200;
const BATCH = 250;
const WRITERS = 2;
const POINT_READERS = 2;
const SCANNERS = 1;
const BUCKETS = 8;
const EXPORT_INTERVAL_MS = 1_000;
/** Pauses between the calls of each loop: a service's steady load, not a benchmark's. */
const PAUSE_MS = { write: 150, pointRead: 10, scan: 50 } as const;
/** Every call of the run gives up after this long (the resets cost a retry, not minutes). */
const CALL_TIMEOUT_MS = 30_000;
const READINGS_TABLE = uniqueTableId('dashboard-readings');
const SENSORS_TABLE = uniqueTableId('dashboard-sensors');

@Entity({ table: READINGS_TABLE })
@Salt({ buckets: BUCKETS })
@Family('d', { gc: { maxVersions: 1 } })
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 10 }) seq!: number;
  @Column({ family: 'd', type: 'float' }) celsius?: number;
}

@Entity({ table: SENSORS_TABLE })
@Family('d', { gc: { maxVersions: 1 } })
class Sensor {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) site?: string;
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  strict: true,
  options: { seconds: { type: 'string' }, resets: { type: 'string' } },
});
const seconds = Number(values.seconds ?? 24);
const resetCount = Number(values.resets ?? 4);
if (!Number.isInteger(seconds) || seconds < 5 || seconds > 600) throw new Error('--seconds must be 5 to 600');
if (!Number.isInteger(resetCount) || resetCount < 0 || resetCount > 50) throw new Error('--resets must be 0 to 50');

const sensorId = (n: number): string => `sensor-${String(n).padStart(3, '0')}`;
const pick = (n: number): number => Math.floor(Math.random() * n);
const tally = { rows: 0, batches: 0, pointReads: 0, scans: 0, rowsScanned: 0, failed: new Map<string, number>() };

function failed(error: unknown): void {
  const name = error instanceof Error ? error.name : 'unknown';
  tally.failed.set(name, (tally.failed.get(name) ?? 0) + 1);
}

const emulator = await useEmulator();
const proxy = await startFaultProxy(emulator.host);
const mapper = new BigtableMapper({
  emulatorHost: proxy.host,
  instance: 'dashboard',
  entities: [Reading, Sensor],
  telemetry: { metrics: true, traces: false },
});
try {
  await mapper.sync();
  const sensors = mapper.getRepository(Sensor);
  const readings = mapper.getRepository(Reading);
  await sensors.saveMany(
    Array.from({ length: SENSORS }, (_, n) => Object.assign(new Sensor(), { id: sensorId(n), site: `site-${n % 7}` })),
  );

  // Measured from here on: the setup above is not part of the picture.
  const exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: EXPORT_INTERVAL_MS });
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  await mapper.telemetryReady();
  const startedAtMs = Date.now();
  const stopAt = startedAtMs + seconds * 1000;
  const running = (): boolean => Date.now() < stopAt;
  let seq = 0;

  const writer = async (): Promise<void> => {
    while (running()) {
      const batch = Array.from({ length: BATCH }, () =>
        Object.assign(new Reading(), {
          sensorId: sensorId(pick(SENSORS)),
          seq: seq++,
          celsius: 15 + Math.random() * 10,
        }),
      );
      try {
        await readings.saveMany(batch, { timeoutMs: CALL_TIMEOUT_MS });
        tally.rows += batch.length;
        tally.batches += 1;
      } catch (error) {
        failed(error);
      }
      await sleep(PAUSE_MS.write);
    }
  };
  const pointReader = async (): Promise<void> => {
    while (running()) {
      try {
        await sensors.findOne({ id: sensorId(pick(SENSORS)) }, { timeoutMs: CALL_TIMEOUT_MS });
        tally.pointReads += 1;
      } catch (error) {
        failed(error);
      }
      await sleep(PAUSE_MS.pointRead);
    }
  };
  const scanner = async (): Promise<void> => {
    while (running()) {
      try {
        for await (const _ of readings.iterate({
          where: { sensorId: sensorId(pick(SENSORS)) },
          timeoutMs: CALL_TIMEOUT_MS,
        }))
          tally.rowsScanned += 1;
        tally.scans += 1;
      } catch (error) {
        failed(error);
      }
      await sleep(PAUSE_MS.scan);
    }
  };
  const resetsAtMs: number[] = [];
  const resetTimers = Array.from({ length: resetCount }, (_, i) =>
    setTimeout(
      () => {
        resetsAtMs.push(Date.now());
        proxy.resetAll();
      },
      ((i + 1) * seconds * 1000) / (resetCount + 1),
    ),
  );
  await Promise.all([
    ...Array.from({ length: WRITERS }, writer),
    ...Array.from({ length: POINT_READERS }, pointReader),
    ...Array.from({ length: SCANNERS }, scanner),
  ]);
  for (const timer of resetTimers) clearTimeout(timer);
  await reader.forceFlush();
  const snapshots: MetricSnapshot[] = exporter
    .getMetrics()
    .map((resource) =>
      resource.scopeMetrics.filter((s) => s.scope.name === 'bigtable-mapper').flatMap((s) => s.metrics),
    );
  const failures = [...tally.failed.entries()].map(([name, n]) => `${n} ${name}`).join(', ') || 'none';
  const runSeconds = Math.round((Date.now() - startedAtMs) / 1000);
  const data = dashboardData(snapshots, {
    title: 'bigtable-mapper on the Bigtable emulator: one run with telemetry on',
    caption: [
      `A real run of npm run docs:dashboard, ${runSeconds} s: ${WRITERS} saveMany writers (${formatInt(tally.rows)} readings in ${formatInt(tally.batches)} batches of ${BATCH}), ` +
        `${POINT_READERS} findOne readers (${formatInt(tally.pointReads)} point reads), ${SCANNERS} salted scanner (${formatInt(tally.scans)} scans over ${BUCKETS} buckets, ${formatInt(tally.rowsScanned)} rows).`,
      `A loopback fault proxy reset every open connection ${resetsAtMs.length} times. Failed repository calls: ${failures}. ` +
        `Metrics: the SDK's in-memory exporter, DELTA every ${EXPORT_INTERVAL_MS / 1000} s (${snapshots.length} exports). Latencies are whole milliseconds.`,
    ],
    startedAtMs,
    resetsAtMs,
  });
  mkdirSync(dirname(OUT), { recursive: true });
  const png = await renderPng(renderDashboardSvg(data), undefined);
  writeFileSync(OUT, png);
  console.log(`observability-dashboard.png: ${(png.length / 1024).toFixed(0)} KiB`);
  console.log(data.caption.join('\n'));
  metrics.disable();
  await provider.shutdown();
  await mapper.driver.deleteTable({ table: READINGS_TABLE }).catch(() => undefined);
  await mapper.driver.deleteTable({ table: SENSORS_TABLE }).catch(() => undefined);
} finally {
  await mapper.close();
  await proxy.close();
  await emulator.stop();
}

function formatInt(n: number): string {
  return n.toLocaleString('en-US');
}
