import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EmulatorError } from '../errors/emulator-error.js';
import { WATCHDOG_NAME, WATCHDOG_SCRIPT } from './watchdog-script.js';

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
export interface EmulatorProcess {
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
export async function launchEmulator(binary: string, port: number): Promise<EmulatorProcess> {
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
