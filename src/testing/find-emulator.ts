import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { EmulatorError } from '../errors/errors.js';
import { probeEndpoint } from '../driver/endpoint-probe.js';
import { assertLoopbackHost, startEmulator } from './start-emulator.js';

const BINARY_NAME = 'cbtemulator';
const GCLOUD_TIMEOUT_MS = 5_000;
let sdkRoot: Promise<string | undefined> | undefined;

/** How to get the emulator, appended to "not found" errors. @internal */
export const INSTALL_HINT =
  'Install it with `apt-get install google-cloud-cli-bigtable-emulator` (Debian/Ubuntu package of the Google Cloud CLI) ' +
  'or `gcloud components install bigtable`, or set BIGTABLE_EMULATOR_BIN to the path of the cbtemulator binary.';

/**
 * True when `path` is an existing regular file we may execute.
 *
 * @example
 * ```ts
 * if (await isExecutableFile('/opt/cbtemulator')) { ... }
 * ```
 * @internal
 */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Google Cloud CLI install root reported by `gcloud info`, or `undefined`
 * when gcloud is missing, fails or is too slow. Asked once per process
 * (gcloud takes about half a second to answer).
 *
 * @example
 * ```ts
 * const root = await gcloudSdkRoot(); // the Cloud SDK root, or undefined
 * ```
 * @internal
 */
export function gcloudSdkRoot(): Promise<string | undefined> {
  sdkRoot ??= new Promise((resolve) => {
    execFile(
      'gcloud',
      ['info', '--format=value(installation.sdk_root)'],
      { timeout: GCLOUD_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => {
        const root = String(stdout ?? '').trim();
        resolve(error || root === '' ? undefined : root);
      },
    );
  });
  return sdkRoot;
}

async function fromGcloud(): Promise<string | undefined> {
  const root = await gcloudSdkRoot();
  if (root === undefined) return undefined;
  const candidate = join(root, 'platform', 'bigtable-emulator', BINARY_NAME);
  return (await isExecutableFile(candidate)) ? candidate : undefined;
}

async function fromPath(): Promise<string | undefined> {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, BINARY_NAME);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Locates the `cbtemulator` binary: `BIGTABLE_EMULATOR_BIN`, then the Google
 * Cloud CLI install (`gcloud info`), then `PATH`. Throws an
 * {@link EmulatorError} with install instructions when none is found.
 *
 * @example
 * ```ts
 * const binary = await findEmulatorBinary();
 * ```
 */
export async function findEmulatorBinary(): Promise<string> {
  const configured = process.env['BIGTABLE_EMULATOR_BIN'];
  if (configured !== undefined && configured !== '') {
    if (await isExecutableFile(configured)) return configured;
    throw new EmulatorError(
      `BIGTABLE_EMULATOR_BIN points nowhere: "${configured}" is not an executable file. ` +
        'Fix or unset the variable. ' +
        INSTALL_HINT,
    );
  }
  const found = (await fromGcloud()) ?? (await fromPath());
  if (found !== undefined) return found;
  throw new EmulatorError(`Cannot find the Bigtable emulator (${BINARY_NAME}). ${INSTALL_HINT}`);
}

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
