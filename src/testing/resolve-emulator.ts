import { probeEndpoint } from '../driver/endpoint-probe.js';
import { EmulatorError } from '../errors/emulator-error.js';
import { assertLoopbackHost } from './loopback-host.js';
import { startEmulator } from './start-emulator.js';

/** How long a preset `BIGTABLE_EMULATOR_HOST` has to accept a TCP connection. */
const PRESET_CONNECT_TIMEOUT_MS = 3_000;

/**
 * An emulator to talk to, from {@link useEmulator}.
 *
 * @example
 * ```ts
 * const emulator: UsedEmulator = await useEmulator();
 * ```
 */
export interface UsedEmulator {
  /** `'HOST:PORT'` of the emulator. */
  readonly host: string;
  /** Stops the emulator if {@link useEmulator} started it; a no-op for the user's own emulator. */
  stop(): Promise<void>;
}

/**
 * The emulator named by `BIGTABLE_EMULATOR_HOST` when set (it must be
 * loopback, must accept a TCP connection within 3 s, and is never stopped by
 * us), otherwise a fresh one from {@link startEmulator}. Tests, examples and
 * benchmarks call this. Throws {@link EmulatorError} naming the host when the
 * preset emulator is not there, instead of letting the first RPC retry for
 * minutes.
 *
 * @example
 * ```ts
 * const emulator = await useEmulator();
 * try { const bigtable = new Bigtable(emulatorClientOptions(emulator.host)); } finally { await emulator.stop(); }
 * ```
 */
export async function useEmulator(): Promise<UsedEmulator> {
  const configured = process.env['BIGTABLE_EMULATOR_HOST']?.trim();
  if (configured !== undefined && configured !== '') {
    assertLoopbackHost(configured);
    try {
      await probeEndpoint(configured, PRESET_CONNECT_TIMEOUT_MS);
    } catch (err) {
      throw new EmulatorError(
        `BIGTABLE_EMULATOR_HOST=${configured} but nothing accepts connections there (${connectFailure(err)}). ` +
          'Fix: start the emulator on that host and port, or unset BIGTABLE_EMULATOR_HOST to let useEmulator() start one.',
        err,
      );
    }
    return { host: configured, stop: () => Promise.resolve() };
  }
  const emulator = await startEmulator();
  return { host: emulator.host, stop: () => emulator.stop() };
}

function connectFailure(err: unknown): string {
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : `no answer within ${PRESET_CONNECT_TIMEOUT_MS} ms`;
}
