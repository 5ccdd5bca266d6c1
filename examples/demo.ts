/**
 * `npm run demo`: the four scenarios of the seeds, end to end, with a short
 * report of checked facts. Runs on an auto-started Bigtable emulator (or the
 * one in BIGTABLE_EMULATOR_HOST), or on a real instance with
 * `--project <id> --instance <id>` (tables are created with unique names and
 * deleted at the end unless `--keep`). `--help` prints usage.
 */
import { pathToFileURL } from 'node:url';
import { uniqueTableId, useEmulator } from '../src/testing/index.js';
import { run as runHotUsers } from './hot-users/run.js';
import { run as runLatestEvents } from './latest-events/run.js';
import { run as runSaltedEvents } from './salted-events/run.js';
import { run as runSensorReadings } from './sensor-readings/run.js';
import { DEMO_USAGE, parseDemoArgs } from './shared/demo-args.js';
import { formatSummary } from './shared/format-report.js';
import { allPassed, type ScenarioReport } from './shared/scenario-report.js';
import { describeConnection, type ScenarioConnection, type ScenarioOptions } from './shared/scenario-options.js';

/** Options of {@link runDemo}. @example `{ connection: { emulatorHost: '127.0.0.1:8086', instance: 'demo' }, size: 'small' }` */
export interface DemoOptions {
  readonly connection: ScenarioConnection;
  /** Keep the tables. Default: delete them. */
  readonly keep?: boolean;
  /** `full` (default) or `small` (for tests). */
  readonly size?: 'full' | 'small';
  /** Receives each report line as it is produced. Default: nothing is printed. */
  readonly log?: (line: string) => void;
}

/** Result of {@link runDemo}. @example `{ reports, passed: true, elapsedMs: 9120 }` */
export interface DemoResult {
  readonly reports: readonly ScenarioReport[];
  readonly passed: boolean;
  readonly elapsedMs: number;
}

type Scenario = (base: ScenarioOptions, small: boolean) => Promise<ScenarioReport>;

const SCENARIOS: readonly Scenario[] = [
  (o) => runSensorReadings({ ...o, table: uniqueTableId('demo-sensor-readings') }),
  (o, small) => runSaltedEvents({ ...o, table: uniqueTableId('demo-salted-events'), events: small ? 2_000 : 10_000 }),
  (o, small) =>
    runHotUsers({
      ...o,
      table: uniqueTableId('demo-hot-users'),
      ...(small ? { rowsPerUserSite: 12, hotFactor: 4 } : {}),
    }),
  (o, small) =>
    runLatestEvents({ ...o, table: uniqueTableId('demo-latest-events'), ...(small ? { perCustomer: 50 } : {}) }),
];

/**
 * Runs the four scenarios one after the other and reports whether every fact holds.
 *
 * @example
 * ```ts
 * const { passed } = await runDemo({ connection: { emulatorHost: emulator.host, instance: 'demo' }, log: console.log });
 * ```
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const base: ScenarioOptions = { ...options.connection, keep: options.keep ?? false };
  const reports: ScenarioReport[] = [];
  for (const scenario of SCENARIOS) {
    const report = await scenario(base, options.size === 'small');
    reports.push(report);
    for (const line of formatSummary(report)) log(line);
    if (options.keep === true) log(`  kept table(s): ${report.tables.join(', ')}`);
  }
  const facts = reports.flatMap((r) => r.facts);
  const passed = allPassed(reports);
  const elapsedMs = Math.round(performance.now() - started);
  log(
    passed
      ? `All ${facts.length} facts hold (${(elapsedMs / 1000).toFixed(1)} s).`
      : `${facts.filter((f) => !f.ok).length} of ${facts.length} facts FAILED.`,
  );
  return { reports, passed, elapsedMs };
}

async function main(): Promise<void> {
  const args = parseDemoArgs(process.argv.slice(2), process.env);
  if (args.kind === 'help') return void console.log(DEMO_USAGE);
  if (args.kind === 'error') {
    console.error(`${args.message}\n\n${DEMO_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { target } = args;
  const emulator = target.kind === 'emulator' ? await useEmulator() : undefined;
  try {
    const connection: ScenarioConnection =
      target.kind === 'instance'
        ? { projectId: target.projectId, instance: target.instance }
        : { emulatorHost: emulator!.host, instance: 'demo' };
    console.log(`bigtable-mapper demo on ${describeConnection(connection)}\n`);
    const { passed } = await runDemo({ connection, keep: args.keep, log: (line) => console.log(line) });
    if (!passed) process.exitCode = 1;
  } finally {
    await emulator?.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
