import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { EmulatorError } from '../errors/emulator-error.js';

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
