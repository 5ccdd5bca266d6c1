import { existsSync, readdirSync, readFileSync } from 'node:fs';

const hasProc = existsSync('/proc/self/stat');

/**
 * True while `pid` is a live process (zombies count as gone; they have exited).
 *
 * @example
 * ```ts
 * expect(isProcessAlive(emulator.pid)).toBe(true);
 * ```
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!hasProc) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Pids of live processes whose command line contains every given argument
 * (Linux `/proc` only; elsewhere always empty).
 *
 * @example
 * ```ts
 * livePidsWithArgs(['bigtable-emulator-watchdog', '41873']); // [] once the watchdog is gone
 * ```
 */
export function livePidsWithArgs(args: readonly string[]): number[] {
  if (!hasProc) return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.every((arg) => argv.includes(arg)) && isProcessAlive(Number(entry))) pids.push(Number(entry));
  }
  return pids;
}

/**
 * Polls `condition` every 50 ms until it holds; rejects after `timeoutMs`.
 * A liveness check, not a speed assertion.
 *
 * @example
 * ```ts
 * await waitFor(() => !isProcessAlive(pid), 10_000, 'emulator to exit');
 * ```
 */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
