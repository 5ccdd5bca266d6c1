import { Bigtable } from '@google-cloud/bigtable';
import { inject } from 'vitest';
import { emulatorClientOptions } from '../../src/testing/index.js';

export { uniqueTableId } from '../../src/testing/index.js';

/**
 * Instance id used by integration tests (any id works on the emulator).
 *
 * @example
 * ```ts
 * const instance = createTestBigtable().instance(testInstanceId);
 * ```
 */
export const testInstanceId = 'test-instance';

/**
 * The run's emulator host, from the global setup (`inject`) or
 * `BIGTABLE_EMULATOR_HOST`. Throws when neither is available.
 *
 * @example
 * ```ts
 * const host = emulatorHost(); // '127.0.0.1:41873'
 * ```
 */
export function emulatorHost(): string {
  const host = inject('emulatorHost') ?? process.env['BIGTABLE_EMULATOR_HOST'];
  if (host === undefined || host.trim() === '') {
    throw new Error(
      'No Bigtable emulator for this test run: put the test under test/integration (the integration project, whose ' +
        'global setup test/setup/emulator.global.ts starts one; see vitest.config.ts; test/soak and test/package ' +
        'have it too), or set BIGTABLE_EMULATOR_HOST to a local emulator.',
    );
  }
  return host;
}

/**
 * A `Bigtable` client for the run's emulator. Close it in `afterAll`.
 *
 * @example
 * ```ts
 * const bigtable = createTestBigtable();
 * afterAll(() => bigtable.close());
 * const table = bigtable.instance(testInstanceId).table(uniqueTableId('readings'));
 * ```
 */
export function createTestBigtable(): Bigtable {
  return new Bigtable(emulatorClientOptions(emulatorHost()));
}
