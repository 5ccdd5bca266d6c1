import { EmulatorError } from '../errors/errors.js';
import { createServer, connect } from 'node:net';
import type { BigtableOptions } from '@google-cloud/bigtable';
import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { probeEndpoint } from '../driver/endpoint-probe.js';

function isLoopbackName(name: string): boolean {
  if (name.toLowerCase() === 'localhost' || name === '[::1]') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * Checks that an emulator host (`name:port`) is on this machine: `127.x.x.x`,
 * `localhost` or `[::1]`, with a port in 1–65535. Throws an
 * {@link EmulatorError} otherwise.
 *
 * @example
 * ```ts
 * assertLoopbackHost('127.0.0.1:8086'); // ok
 * assertLoopbackHost('10.0.0.5:8086');  // throws
 * ```
 * @internal
 */
function assertLoopbackHost(host: string): void {
  const match = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(host.trim());
  const name = match?.[1];
  const port = Number(match?.[2]);
  if (name === undefined || !isLoopbackName(name) || port < 1 || port > 65_535) {
    throw new EmulatorError(
      `refusing non-loopback emulator host "${host}": expected 127.x.x.x:PORT, localhost:PORT or [::1]:PORT.`,
    );
  }
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (listen on port 0, read
 * the port, close). Another process may still grab it before you bind it.
 *
 * @example
 * ```ts
 * const port = await freePort(); // e.g. 41873
 * ```
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close((closeError) => {
        if (closeError) reject(closeError);
        else if (port === 0) reject(new Error('could not read the port of a listening socket'));
        else resolve(port);
      });
    });
  });
}

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

/**
 * `sh -c` program that runs the emulator (`$1 -host 127.0.0.1 -port $2`) and
 * guards it. It reports the emulator pid on fd 3, then waits for it. A
 * background reader blocks on the watchdog's stdin, a pipe whose only writer
 * is the Node process: when that process dies (even by SIGKILL) the pipe hits
 * EOF and the reader SIGKILLs the emulator. When the emulator exits on its own,
 * the watchdog stops the reader and exits with the emulator's status.
 *
 * @example
 * ```ts
 * spawn('sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, binary, String(port)], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
 * ```
 * @internal
 */
const WATCHDOG_SCRIPT = [
  'exec 4<&0',
  '"$1" -host 127.0.0.1 -port "$2" </dev/null 3>&- 4<&- &',
  'emu=$!',
  'echo "$emu" >&3',
  'exec 3>&-',
  '{ read -r line; kill -KILL "$emu" 2>/dev/null; } <&4 >/dev/null 2>&1 &',
  'reader=$!',
  'exec 4<&- 0</dev/null',
  'wait "$emu"',
  'status=$?',
  'kill "$reader" 2>/dev/null',
  'exit "$status"',
].join('\n');

/**
 * `$0` of the watchdog shell, so it is recognisable in `ps` output.
 *
 * @internal
 */
export const WATCHDOG_NAME = 'bigtable-emulator-watchdog';

const POLL_INTERVAL_MS = 10;
const CONNECT_TIMEOUT_MS = 1_000;

/**
 * How a start attempt ended.
 *
 * @example
 * ```ts
 * const outcome: ReadyOutcome = 'port-taken';
 * ```
 * @internal
 */
type ReadyOutcome = 'ready' | 'port-taken' | 'exited' | 'timeout';

/**
 * True when a TCP connection to 127.0.0.1:port is accepted.
 *
 * @internal
 */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** How long the port must answer while the emulator stays alive without its banner before it counts as ready. */
const NO_BANNER_GRACE_MS = 3_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until the emulator accepts TCP connections on its port, exits, or the
 * deadline (epoch ms) passes. A connection only counts once the emulator has
 * printed its "running on" banner or is still alive 3 s after the port first
 * answered, so a foreign listener that holds the port is not mistaken for
 * the emulator on a loaded machine, where the emulator can take more than a
 * poll to fail with "address already in use".
 *
 * @example
 * ```ts
 * const outcome = await waitUntilReady(proc, 8086, Date.now() + 15_000);
 * ```
 * @internal
 */
async function waitUntilReady(proc: EmulatorProcess, port: number, deadline: number): Promise<ReadyOutcome> {
  let connectedSince: number | undefined;
  for (;;) {
    if (proc.hasExited()) return /address already in use/i.test(proc.output().tail) ? 'port-taken' : 'exited';
    if (Date.now() > deadline) return 'timeout';
    if (await acceptsConnections(port)) {
      const banner = proc.output().head.includes(`running on 127.0.0.1:${port}`);
      connectedSince ??= Date.now();
      if (!proc.hasExited() && (banner || Date.now() - connectedSince >= NO_BANNER_GRACE_MS)) return 'ready';
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

const TAIL_CHARS = 4_000;
const HEAD_CHARS = 2_000;
const KILL_AFTER_MS = 5_000;

/**
 * A launched emulator and its watchdog shell.
 *
 * @example
 * ```ts
 * const proc = await launchEmulator(binary, 8086); console.log(proc.pid, proc.output());
 * ```
 * @internal
 */
interface EmulatorProcess {
  /** Pid of `cbtemulator` itself (not of the watchdog). */
  readonly pid: number;
  /** True once the watchdog (and therefore the emulator) has exited. */
  hasExited(): boolean;
  /** The first and the last output of the emulator (stdout and stderr). */
  output(): { head: string; tail: string };
  /** SIGTERM, then SIGKILL after a timeout; resolves once everything has exited. Idempotent. */
  stop(): Promise<void>;
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function unrefAll(child: ChildProcess): void {
  child.unref();
  for (const stream of child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
}

function readPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const fail = (cause?: unknown): void =>
      reject(new EmulatorError('The Bigtable emulator watchdog (sh) failed to start the emulator.', cause));
    child.once('error', fail);
    child.once('exit', () => fail());
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /^(\d+)\n/.exec(text);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
  });
}

/**
 * Starts `binary -host 127.0.0.1 -port PORT` under the `sh` watchdog (see
 * {@link WATCHDOG_SCRIPT}) and also kills it on `process.on('exit')`.
 *
 * @example
 * ```ts
 * const proc = await launchEmulator('/usr/bin/cbtemulator', 8086);
 * await proc.stop();
 * ```
 * @internal
 */
async function launchEmulator(binary: string, port: number): Promise<EmulatorProcess> {
  const child = spawn('sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, binary, String(port)], {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let head = '';
  let tail = '';
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    if (head.length < HEAD_CHARS) head = (head + text).slice(0, HEAD_CHARS);
    tail = (tail + text).slice(-TAIL_CHARS);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited = child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const pid = await readPid(child);
  const killOnExit = (): void => signal(pid, 'SIGKILL');
  process.on('exit', killOnExit);
  void exit.then(() => process.off('exit', killOnExit));
  unrefAll(child);

  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    child.ref();
    if (!exited) {
      signal(pid, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), KILL_AFTER_MS);
      });
      if (await Promise.race([exit.then(() => false), timedOut])) {
        signal(pid, 'SIGKILL');
        signal(child.pid, 'SIGKILL');
        await exit;
      }
      clearTimeout(timer);
    }
    for (const stream of child.stdio) stream?.destroy();
    child.unref();
  };

  return {
    pid,
    hasExited: () => exited,
    output: () => ({ head, tail }),
    stop: () => (stopping ??= stop()),
  };
}

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

const BINARY_NAME = 'cbtemulator';
const GCLOUD_TIMEOUT_MS = 5_000;
let sdkRoot: Promise<string | undefined> | undefined;

/** How to get the emulator, appended to "not found" errors. @internal */
const INSTALL_HINT =
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
async function isExecutableFile(path: string): Promise<boolean> {
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
function gcloudSdkRoot(): Promise<string | undefined> {
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
