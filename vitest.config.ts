import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from 'vitest/config';

/** Entities use legacy (experimental) decorators, in every project. */
const legacyDecorators = { decorator: { legacy: true } } as const;

/** The global setup that starts one Bigtable emulator per run for the projects that need one. */
export const emulatorSetup = 'test/setup/emulator.global.ts';

/** Rows of the re-salt test's big table (test/integration/resalt/resalt.test.ts) in `npm test`; 100k in test:soak. */
const RESALT_ROWS_DEFAULT = '5000';

/**
 * The settings of every tier: forked workers, one more than the machine has
 * cores (Vitest's default is one fewer: a single worker on 2 cores, and the
 * emulator tests spend much of their time waiting on the emulator, deadlines
 * and child processes), the timeouts, and an environment in which Google's
 * auth library never probes the GCE metadata server (a non-loopback address)
 * from a test.
 */
const sharedTestOptions = {
  pool: 'forks',
  maxWorkers: availableParallelism() + 1,
  env: { METADATA_SERVER_DETECTION: 'none' },
  testTimeout: 30_000,
  hookTimeout: 30_000,
  teardownTimeout: 15_000,
} satisfies NonNullable<ViteUserConfig['test']>;

/**
 * One configuration per test tier, with its projects. Each tier's projects
 * share {@link sharedTestOptions}.
 *
 * @example
 * ```ts
 * export default defineConfig(tierConfig([{ name: 'soak', include: ['test/soak/*.test.ts'], globalSetup: [emulatorSetup] }]));
 * ```
 */
export function tierConfig(
  projects: NonNullable<TestProjectInlineConfiguration['test']>[],
  extra: Omit<ViteUserConfig, 'test'> = {},
): ViteUserConfig {
  return {
    oxc: legacyDecorators,
    ...extra,
    test: {
      ...sharedTestOptions,
      projects: projects.map((test) => ({ extends: true, oxc: legacyDecorators, test })),
    },
  };
}

/**
 * Vitest configuration of `npm test` (`npm run test:vitest`, or plain
 * `npx vitest run`): two projects, forked workers.
 *
 * - `unit`: everything that runs without a Bigtable emulator (`test/unit`,
 *   Google's conformance data, type tests). No global setup: it passes on a
 *   machine without the emulator. Property tests run a tenth of their full
 *   counts (`test/support/property-runs.ts`).
 * - `integration`: `test/integration`, against one Bigtable emulator per run
 *   (started by the global setup, only when an integration test is selected).
 *   The re-salt test's big table has 5,000 rows (`RESALT_ROWS` overrides).
 *
 * The heavier tiers have their own configurations, run once per CI run:
 * `scripts/vitest.package.config.ts` (`npm run test:package`: the packed
 * package's consumers and decorator modes, `test/package`) and
 * `scripts/vitest.soak.config.ts` (`npm run test:soak`: `test/soak`, the
 * 100k-row re-salt, property tests at full counts).
 *
 * @example
 * ```ts
 * // npx vitest run --project unit
 * // npx vitest run --project integration test/integration/driver
 * ```
 */
export default defineConfig(
  tierConfig([
    {
      name: 'unit',
      include: ['test/unit/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/types/**/*.test.ts'],
    },
    {
      name: 'integration',
      include: ['test/integration/**/*.test.ts'],
      globalSetup: [emulatorSetup],
      env: { RESALT_ROWS: process.env['RESALT_ROWS'] ?? RESALT_ROWS_DEFAULT },
    },
  ]),
);
