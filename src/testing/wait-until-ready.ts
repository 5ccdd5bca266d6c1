import { connect } from 'node:net';
import type { EmulatorProcess } from './emulator-process.js';

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
export type ReadyOutcome = 'ready' | 'port-taken' | 'exited' | 'timeout';

/**
 * True when a TCP connection to 127.0.0.1:port is accepted.
 *
 * @example
 * ```ts
 * if (await acceptsConnections(8086)) { ... }
 * ```
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
export async function waitUntilReady(proc: EmulatorProcess, port: number, deadline: number): Promise<ReadyOutcome> {
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
