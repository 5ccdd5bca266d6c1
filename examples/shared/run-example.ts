/**
 * The `main.ts` of every example: start (or reuse) a loopback emulator, run
 * the scenario, print its report, stop the emulator. The exit code is 1 when
 * a fact fails or the run throws.
 */
import { useEmulator } from '../../src/testing/index.js';
import { formatReport } from './format-report.js';
import { allPassed, type ScenarioReport } from './scenario-report.js';
import type { ScenarioOptions } from './scenario-options.js';

/** Instance id the examples use on the emulator (any id works there). */
export const EXAMPLES_INSTANCE = 'examples';

/**
 * Runs one example end to end on an emulator and prints its report.
 *
 * @example
 * ```ts
 * await runExample(run); // in examples/latest-events/main.ts
 * ```
 */
export async function runExample(run: (options: ScenarioOptions) => Promise<ScenarioReport>): Promise<void> {
  try {
    const emulator = await useEmulator();
    try {
      const report = await run({ emulatorHost: emulator.host, instance: EXAMPLES_INSTANCE });
      console.log(formatReport(report).join('\n'));
      if (!allPassed([report])) process.exitCode = 1;
    } finally {
      await emulator.stop();
    }
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
