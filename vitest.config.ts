import { defineConfig } from 'vitest/config';

/**
 * Vitest configuration: legacy decorators, one Bigtable emulator per run
 * (global setup), forked workers.
 *
 * @example
 * ```ts
 * // npx vitest run test/unit
 * ```
 */
export default defineConfig({
  oxc: { decorator: { legacy: true } },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/setup/emulator.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 15_000,
  },
});
