import { assertLoopbackHost } from './loopback-host.js';
import { startEmulator } from './start-emulator.js';

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
 * loopback and is never stopped by us), otherwise a fresh one from
 * {@link startEmulator}. Tests, examples and benchmarks call this.
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
    return { host: configured, stop: () => Promise.resolve() };
  }
  const emulator = await startEmulator();
  return { host: emulator.host, stop: () => emulator.stop() };
}
