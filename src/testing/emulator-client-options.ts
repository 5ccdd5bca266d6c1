import type { BigtableOptions } from '@google-cloud/bigtable';
import { EmulatorError } from '../errors/emulator-error.js';
import { assertLoopbackHost } from './loopback-host.js';

/**
 * `@google-cloud/bigtable` constructor options for an emulator at `host`
 * (`'127.0.0.1:PORT'`). Metrics are off, and `universeDomain` is set so the
 * client skips the credentials / metadata-server probe (no
 * `MetadataLookupWarning`). Throws an {@link EmulatorError} for hosts that are
 * not loopback, and for `[::1]`, which the 7.x client cannot parse (it splits
 * the endpoint on `:`).
 *
 * @example
 * ```ts
 * const bigtable = new Bigtable(emulatorClientOptions('127.0.0.1:8086'));
 * ```
 */
export function emulatorClientOptions(host: string, projectId = 'test-project'): BigtableOptions {
  assertLoopbackHost(host);
  const apiEndpoint = host.trim();
  if (apiEndpoint.startsWith('[')) {
    throw new EmulatorError(
      `emulator host "${host}" is an IPv6 literal, which @google-cloud/bigtable cannot parse; use 127.0.0.1:PORT or localhost:PORT.`,
    );
  }
  return { projectId, apiEndpoint, metricsEnabled: false, universeDomain: 'googleapis.com' };
}
