/**
 * `npm run bench`: the mapper against the raw `@google-cloud/bigtable` client,
 * side by side in one process, on an emulator it starts itself (or the one in
 * BIGTABLE_EMULATOR_HOST). Prints the tables and writes bench/results/latest.*.
 */
import { fileURLToPath } from 'node:url';
import { useEmulator } from '../src/testing/index.js';
import { runBench } from './bench.js';
import { parseBenchArgs, USAGE } from './cli-args.js';
import { describeEmulator } from './machine.js';
import { textReport } from './report.js';
import { writeResults } from './write-results.js';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args === undefined) {
    console.log(USAGE);
    return;
  }
  process.env['METADATA_SERVER_DETECTION'] ??= 'none';
  const external = (process.env['BIGTABLE_EMULATOR_HOST'] ?? '').trim() !== '';
  const emulator = await useEmulator();
  try {
    const emulatorLabel = await describeEmulator(
      external ? 'external (BIGTABLE_EMULATOR_HOST)' : 'started by the bench',
    );
    const results = await runBench({
      ...args,
      emulatorHost: emulator.host,
      emulatorLabel,
      log: (line) => console.log(line),
    });
    console.log(`\n${textReport(results)}`);
    const dir = fileURLToPath(new URL('./results/', import.meta.url));
    const files = await writeResults(results, dir);
    console.log(`\nwrote ${files.map((f) => `bench/results/${f}`).join(' and ')}`);
  } finally {
    await emulator.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
