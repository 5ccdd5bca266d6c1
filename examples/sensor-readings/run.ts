/**
 * Seed 001, sensor readings: `sensorId#timestamp` keys for contiguous
 * per-sensor range scans, a `measurements` family keeping the last 5 versions
 * and a `logs` family, and the sensor's location denormalized into each reading.
 */
import { range } from '../../src/index.js';
import { uniqueTableId } from '../../src/testing/index.js';
import { runScenario } from '../shared/run-scenario.js';
import { isAscending, type ScenarioReport } from '../shared/scenario-report.js';
import type { ScenarioOptions } from '../shared/scenario-options.js';
import { MEASUREMENT_VERSIONS, sensorEntities, type Reading } from './sensor.entities.js';

/** Options of {@link run}. @example `{ emulatorHost: '127.0.0.1:8086', instance: 'examples' }` */
export type SensorReadingsOptions = ScenarioOptions & {
  /** Sensors table id. Default: `<table>-sensors`. */
  readonly sensorsTable?: string;
};

/** What the run observed. */
export interface SensorReadingsData {
  readonly keys: readonly string[];
  readonly readings: number;
  readonly hourRows: number;
  readonly hourExpected: number;
  readonly versionsWritten: number;
  /** Values of the versioned cell as returned (asked for 10 versions), newest first. */
  readonly versionValues: readonly number[];
  readonly versionTimes: readonly string[];
  readonly locationsCopied: number;
  readonly locationsAfterMove: readonly string[];
  readonly propagated: { readonly scanned: number; readonly updated: number };
}

const LOCATIONS: Readonly<Record<string, string>> = {
  sensor123: 'greenhouse-1/north',
  sensor124: 'greenhouse-1/south',
  sensor12: 'warehouse',
};
const START = Date.UTC(2023, 4, 1, 11, 0, 0);
const STEP = 5 * 60_000;
const PER_SENSOR = 36; // 11:00 to 13:55, every 5 minutes
const HOUR = { gte: new Date(Date.UTC(2023, 4, 1, 12, 0, 0)), lt: new Date(Date.UTC(2023, 4, 1, 13, 0, 0)) };
const VERSIONS_WRITTEN = 7;

/**
 * Saves three sensors and their readings (without locations: the mapper
 * copies them), scans one sensor's hour, writes 7 versions of one
 * measurement and reads it back, then moves a sensor and propagates.
 *
 * @example
 * ```ts
 * const report = await run({ emulatorHost: emulator.host, instance: 'examples' });
 * ```
 */
export async function run(
  options: SensorReadingsOptions,
): Promise<ScenarioReport & { readonly data: SensorReadingsData }> {
  const table = options.table ?? uniqueTableId('sensor-readings');
  const { Sensor, Reading } = sensorEntities(table, options.sensorsTable ?? `${table}-sensors`);
  const spec = {
    scenario: 'sensor-readings',
    title: 'Sensor readings (seed 001): sensorId#timestamp, 5 versions, denormalized location',
    entities: [Sensor, Reading],
  };
  return runScenario(options, spec, async (mapper, out) => {
    const sensors = mapper.getRepository(Sensor);
    const readings = mapper.getRepository(Reading);
    await sensors.saveMany(Object.entries(LOCATIONS).map(([id, location]) => sensors.create({ id, location })));
    const rows = Object.keys(LOCATIONS).flatMap((sensorId) =>
      Array.from({ length: PER_SENSOR }, (_, i) => {
        const ts = new Date(START + i * STEP);
        return readings.create({
          sensorId,
          ts,
          temperature: [{ value: 20 + i / 10, timestamp: ts }],
          humidity: 40 + (i % 7),
          system: i % 12 === 0 ? 'hourly self-test ok' : undefined,
        });
      }),
    );
    await readings.saveMany(rows);

    const keys = rows
      .filter((r) => r.sensorId === 'sensor123')
      .slice(12, 14)
      .map((r) => readings.compileSave(r).rowKeyText);
    out.show(`keys: ${keys.join(', ')} (sensor first, so one sensor's readings are one contiguous range)`);
    out.check('row keys are sensorId#ISO-timestamp', keys[0] === 'sensor123#2023-05-01T12:00:00.000Z');

    const hour: Reading[] = [];
    for await (const r of readings.iterate({ where: { sensorId: 'sensor123', ts: range(HOUR) } })) hour.push(r);
    const hourExpected = rows.filter((r) => r.sensorId === 'sensor123' && r.ts >= HOUR.gte && r.ts < HOUR.lt).length;
    const hourOk =
      hour.length === hourExpected &&
      hour.every((r) => r.sensorId === 'sensor123') &&
      isAscending(hour.map((r) => r.ts.toISOString()));
    out.check(
      `range scan of sensor123, 12:00–13:00: exactly ${hourExpected} readings in time order`,
      hourOk,
      `${hour.length} rows, ${hour[0]?.ts.toISOString().slice(11, 16)}..${hour.at(-1)?.ts.toISOString().slice(11, 16)}`,
    );

    const all: Reading[] = [];
    for await (const r of readings.iterate()) all.push(r);
    const locationsCopied = all.filter((r) => r.location === LOCATIONS[r.sensorId]).length;
    out.check(
      "the sensor's location was copied into every reading on save",
      locationsCopied === rows.length && all.length === rows.length,
      `${locationsCopied}/${rows.length} readings`,
    );

    const key = { sensorId: 'sensor123', ts: HOUR.gte };
    for (let k = 1; k < VERSIONS_WRITTEN; k++) {
      await readings.save(
        readings.create({
          ...key,
          temperature: [{ value: 26 + k / 10, timestamp: new Date(HOUR.gte.getTime() + k * 1000) }],
        }),
      );
    }
    const versions = (await readings.findOneOrFail(key, { versions: 10 })).temperature ?? [];
    const versionValues = versions.map((v) => v.value);
    const versionTimes = versions.map((v) => v.timestamp.toISOString());
    out.show(
      `temperature of ${readings.compileSave(readings.create({ ...key, humidity: 0 })).rowKeyText} after ${VERSIONS_WRITTEN} writes, asked for 10 versions: ${versionValues.join(', ')}`,
    );
    const newestFirst = isAscending([...versionTimes].reverse());
    out.check(
      `versions come back newest first, capped at ${MEASUREMENT_VERSIONS} after writing ${VERSIONS_WRITTEN}`,
      versions.length === MEASUREMENT_VERSIONS && newestFirst && versionValues[0] === 26.6,
      `${versions.length} versions, newest ${versionValues[0]}`,
    );

    const moved = sensors.create({ id: 'sensor12', location: 'lab-2' });
    await sensors.save(moved);
    const strategy = readings
      .planPropagation(moved)
      .groups.map((g) => g.strategy.kind)
      .join();
    const progress = await readings.propagate(moved);
    const after: Reading[] = [];
    for await (const r of readings.iterate()) after.push(r);
    const locationsAfterMove = [
      ...new Set(after.filter((r) => r.sensorId === moved.id).map((r) => r.location ?? '(none)')),
    ];
    const othersKept = after.filter((r) => r.sensorId !== moved.id).every((r) => r.location === LOCATIONS[r.sensorId]);
    out.show(
      `sensor12 moved to lab-2: propagate() strategy "${strategy}" (reads the sensor12# key prefix only), scanned ${progress.scanned}, updated ${progress.updated}`,
    );
    const propagated = locationsAfterMove.join() === 'lab-2' && othersKept && progress.updated === PER_SENSOR;
    out.check(
      "after sensor12 moved, propagate() rewrote the copy in its readings only (not sensor123's)",
      propagated,
      `${progress.updated} readings updated, now at ${locationsAfterMove.join(', ')}`,
    );

    return {
      keys,
      readings: all.length,
      hourRows: hour.length,
      hourExpected,
      versionsWritten: VERSIONS_WRITTEN,
      versionValues,
      versionTimes,
      locationsCopied,
      locationsAfterMove,
      propagated: progress,
    };
  });
}
