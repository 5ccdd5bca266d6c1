import { defineConfig } from 'vitest/config';

/** Entities use legacy (experimental) decorators, in every project. */
const legacyDecorators = { decorator: { legacy: true } } as const;

/**
 * Vitest configuration: two projects, forked workers.
 *
 * - `unit`: everything that runs without a Bigtable emulator (`test/unit`,
 *   Google's conformance data, type tests). No global setup: it passes on a
 *   machine without the emulator.
 * - `integration`: `test/integration`, against one Bigtable emulator per run
 *   (started by the global setup, only when an integration test is selected).
 *
 * @example
 * ```ts
 * // npx vitest run --project unit
 * // npx vitest run --project integration test/integration/driver
 * ```
 */
export default defineConfig({
  oxc: legacyDecorators,
  test: {
    pool: 'forks',
    // Google's auth library must never probe the GCE metadata server (a non-loopback address) from a test.
    env: { METADATA_SERVER_DETECTION: 'none' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 15_000,
    projects: [
      {
        extends: true,
        oxc: legacyDecorators,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/types/**/*.test.ts'],
        },
      },
      {
        extends: true,
        oxc: legacyDecorators,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/emulator.global.ts'],
        },
      },
    ],
  },
});
