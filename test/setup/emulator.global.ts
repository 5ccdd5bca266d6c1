import type { TestProject } from 'vitest/node';
import { useEmulator } from '../../src/testing/index.js';

declare module 'vitest' {
  /**
   * Values the global setup hands to test workers.
   *
   * @example
   * ```ts
   * const host = inject('emulatorHost');
   * ```
   */
  export interface ProvidedContext {
    /** `'HOST:PORT'` of the run's Bigtable emulator. */
    emulatorHost: string;
  }
}

/**
 * Global setup of the `integration` project: starts one Bigtable emulator per run, unless
 * `BIGTABLE_EMULATOR_HOST` already names a (loopback) one, and shares its host
 * with the workers through the environment and `inject('emulatorHost')`. The
 * returned teardown stops the emulator it started, whether tests passed or not.
 *
 * @example
 * ```ts
 * projects: [{ test: { name: 'integration', globalSetup: ['test/setup/emulator.global.ts'] } }]
 * ```
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env['METADATA_SERVER_DETECTION'] ??= 'none';
  const preset = process.env['BIGTABLE_EMULATOR_HOST'];
  const emulator = await useEmulator();
  process.env['BIGTABLE_EMULATOR_HOST'] = emulator.host;
  project.provide('emulatorHost', emulator.host);
  return async () => {
    if (preset === undefined) delete process.env['BIGTABLE_EMULATOR_HOST'];
    await emulator.stop();
  };
}
