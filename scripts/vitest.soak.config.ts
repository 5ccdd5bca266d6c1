import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { quickPropertyRuns } from '../test/support/property-runs.js';
import { emulatorSetup, tierConfig } from '../vitest.config.js';

/** Rows of the re-salt test's big table in this tier (`RESALT_ROWS` overrides). */
const RESALT_ROWS = '100000';

/**
 * The test files under `folders` with a property test that `npm test` runs at
 * fewer cases than its full count: those calling `propertyRuns(N)` with
 * `quickPropertyRuns(N) < N` (test/support/property-runs.ts). Found by reading
 * the sources, so a new property test is run at its full count here without
 * being listed.
 */
function reducedPropertyTests(folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(folder, file).split('\\').join('/'))
      .filter((file) =>
        [...readFileSync(file, 'utf8').matchAll(/propertyRuns\(\s*([\d_]+)\s*\)/g)].some(([, count]) => {
          const full = Number((count as string).replaceAll('_', ''));
          return quickPropertyRuns(full) < full;
        }),
      )
      .sort(),
  );
}

/** The unit test files that enumerate only some of their interleaving cases in `npm test` (`interleavingCases`). */
function reducedInterleavingTests(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(folder, file).split('\\').join('/'))
    .filter((file) => readFileSync(file, 'utf8').includes('interleavingCases('))
    .sort();
}

const fullCounts = { PROPERTY_RUNS: 'full', INTERLEAVINGS: 'full' };

/**
 * The `soak` tier (`npm run test:soak`, run once per CI run): the work too
 * big for `npm test`, on one emulator.
 *
 * - `soak`: `test/soak` (the 200,000-row memory test), the re-salt test on its
 *   100k-row table (`RESALT_ROWS=100000`; `npm test` runs it on 5,000), and
 *   any emulator test with a property test reduced in `npm test`, at full
 *   count.
 * - `properties`: every unit test file with a property test that `npm test`
 *   runs at a tenth of its count, here at its full count (`PROPERTY_RUNS=full`),
 *   and every one that enumerates only its cheapest interleavings in `npm test`,
 *   here every case (`INTERLEAVINGS=full`).
 *
 * @example
 * ```ts
 * // npx vitest run --config scripts/vitest.soak.config.ts --project properties
 * ```
 */
export default defineConfig(
  tierConfig([
    {
      name: 'soak',
      include: [
        'test/soak/**/*.test.ts',
        'test/integration/resalt/resalt.test.ts',
        ...reducedPropertyTests(['test/integration']),
      ],
      globalSetup: [emulatorSetup],
      env: { ...fullCounts, RESALT_ROWS: process.env['RESALT_ROWS'] ?? RESALT_ROWS },
    },
    {
      name: 'properties',
      include: [
        ...new Set([
          ...reducedPropertyTests(['test/unit', 'test/conformance', 'test/types']),
          ...reducedInterleavingTests('test/unit'),
        ]),
      ],
      env: fullCounts,
    },
  ]),
);
