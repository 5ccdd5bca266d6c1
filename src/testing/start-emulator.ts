import { EmulatorError } from '../errors/emulator-error.js';
import { launchEmulator } from './emulator-process.js';
import type { EmulatorProcess } from './emulator-process.js';
import { findEmulatorBinary } from './find-emulator.js';
import { freePort } from './free-port.js';
import { waitUntilReady } from './wait-until-ready.js';
import type { ReadyOutcome } from './wait-until-ready.js';

const DEFAULT_START_TIMEOUT_MS = 15_000;
const MAX_ATTEMPTS = 5;

/**
 * Options of {@link startEmulator}.
 *
 * @example
 * ```ts
 * const options: StartEmulatorOptions = { port: 8086, startTimeoutMs: 5_000 };
 * ```
 */
export interface StartEmulatorOptions {
  /** Port to bind on 127.0.0.1; default: a free port (retried if another process grabs it first). */
  port?: number;
  /** Path of `cbtemulator`; default: {@link findEmulatorBinary}. */
  binary?: string;
  /** How long to wait for the port to accept connections; default 15 000 ms. */
  startTimeoutMs?: number;
}

/**
 * A running emulator started by {@link startEmulator}.
 *
 * @example
 * ```ts
 * const emulator: EmulatorHandle = await startEmulator();
 * console.log(emulator.host); // '127.0.0.1:41873'
 * ```
 */
export interface EmulatorHandle {
  /** `'127.0.0.1:PORT'`, for `apiEndpoint` or `BIGTABLE_EMULATOR_HOST`. */
  readonly host: string;
  /** The TCP port the emulator listens on (127.0.0.1). */
  readonly port: number;
  /** Pid of the `cbtemulator` process. */
  readonly pid: number;
  /** SIGTERM, then SIGKILL after a timeout; resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

function failure(
  outcome: ReadyOutcome,
  proc: EmulatorProcess,
  binary: string,
  port: number,
  timeoutMs: number,
): EmulatorError {
  const what =
    outcome === 'timeout'
      ? `did not accept connections on 127.0.0.1:${port} within ${timeoutMs} ms`
      : outcome === 'port-taken'
        ? `could not bind 127.0.0.1:${port}: the port is in use`
        : 'exited before accepting connections';
  const tail = proc.output().tail.trim();
  return new EmulatorError(
    `The Bigtable emulator (${binary}) ${what}.${tail === '' ? ' It printed nothing.' : `\nEmulator output:\n${tail}`}`,
  );
}

/**
 * Starts `cbtemulator -host 127.0.0.1 -port PORT` and resolves once the port
 * accepts connections. A small `sh` watchdog kills the emulator when the
 * calling process dies, even by SIGKILL, so it never outlives its parent.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator();
 * try { const bt = new Bigtable(emulatorClientOptions(emulator.host)); } finally { await emulator.stop(); }
 * ```
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  const binary = options.binary ?? (await findEmulatorBinary());
  const timeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const proc = await launchEmulator(binary, port);
    const outcome = await waitUntilReady(proc, port, deadline);
    if (outcome === 'ready') {
      return { host: `127.0.0.1:${port}`, port, pid: proc.pid, stop: () => proc.stop() };
    }
    await proc.stop();
    const retry = outcome === 'port-taken' && options.port === undefined && attempt < MAX_ATTEMPTS;
    if (!retry) throw failure(outcome, proc, binary, port, timeoutMs);
  }
}
