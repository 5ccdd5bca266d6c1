import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';

/** Which way bytes travel through the proxy: to the client (responses) or to the server (requests). */
export type FaultDirection = 'toClient' | 'toServer';

/**
 * What happens to a connection: `reset` sends an RST on both sides, `close` a
 * FIN on both sides, `stall` silently drops everything from then on in both
 * directions while the sockets stay open.
 */
export type FaultKind = 'reset' | 'close' | 'stall';

/** A fault that fires once `bytes` more bytes went `direction` on a connection. */
export interface FaultAfterOptions {
  /** Bytes that pass unharmed before the fault (the fault cuts inside a chunk at exactly this count). */
  bytes: number;
  fault: FaultKind;
  direction: FaultDirection;
  /**
   * `true`: on every connection, open or opened later, each time. Default
   * `false`: once, on the first connection to reach the count.
   */
  every?: boolean;
}

/**
 * A loopback TCP proxy in front of the emulator that injects network faults
 * the way a real network shows them: silent stalls, resets and closes.
 *
 * Bytes dropped during a stall are gone, so a connection that lost bytes can
 * no longer carry HTTP/2: `pass()` resets such connections (the client sees a
 * broken connection and reconnects, as it would after a real long outage).
 */
export interface FaultProxy {
  /** `'127.0.0.1:PORT'`: give it as the emulator host to the client under test. */
  readonly host: string;
  /** Connections accepted so far (refused ones included). */
  readonly connectionsOpened: number;
  /** Back to the default: forward everything, no pending faults, accept new connections. */
  pass(): void;
  /** From now on forward nothing in either direction on any connection, silently. */
  stall(): void;
  /** RST every open connection now. */
  resetAll(): void;
  /** FIN every open connection now. */
  closeAll(): void;
  /** Arms a fault after a byte count (see {@link FaultAfterOptions}). */
  faultAfter(options: FaultAfterOptions): void;
  /** `true`: reset new connections at once, as a dead backend would. */
  refuseNew(refuse: boolean): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

interface FaultRule {
  readonly options: FaultAfterOptions;
  /** Per connection: the byte count (in the rule's direction) at which it fires. */
  readonly firesAt: Map<Connection, number>;
  spent: boolean;
}

interface Connection {
  readonly client: Socket;
  readonly server: Socket;
  readonly sent: Record<FaultDirection, number>;
  stalled: boolean;
  droppedBytes: boolean;
  ended: boolean;
}

/**
 * Starts a {@link FaultProxy} on a free loopback port forwarding to `target`
 * (`host:port`).
 *
 * @example
 * ```ts
 * const proxy = await startFaultProxy(emulatorHost());
 * const driver = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: 'test' });
 * proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
 * // ... read through the driver ...
 * await driver.close();
 * await proxy.close();
 * ```
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const { hostname, port } = splitHost(target);
  const connections = new Set<Connection>();
  let rules: FaultRule[] = [];
  let stallAll = false;
  let refusing = false;
  let opened = 0;

  const dropConnection = (conn: Connection): void => {
    connections.delete(conn);
    for (const rule of rules) rule.firesAt.delete(conn);
  };

  const reset = (conn: Connection): void => {
    dropConnection(conn);
    conn.client.resetAndDestroy();
    conn.server.resetAndDestroy();
  };

  const finish = (conn: Connection): void => {
    conn.ended = true;
    conn.client.end();
    conn.server.end();
  };

  const arm = (rule: FaultRule, conn: Connection): void => {
    rule.firesAt.set(conn, conn.sent[rule.options.direction] + rule.options.bytes);
  };

  const applyFault = (conn: Connection, fault: FaultKind): void => {
    if (fault === 'reset') reset(conn);
    else if (fault === 'close') finish(conn);
    else conn.stalled = true;
  };

  /** Bytes of a chunk that may pass before the earliest armed fault on this connection and direction. */
  const nextFault = (conn: Connection, direction: FaultDirection): { rule: FaultRule; at: number } | undefined => {
    let next: { rule: FaultRule; at: number } | undefined;
    for (const rule of rules) {
      if (rule.spent || rule.options.direction !== direction) continue;
      const at = rule.firesAt.get(conn);
      if (at !== undefined && (next === undefined || at < next.at)) next = { rule, at };
    }
    return next;
  };

  const forward = (conn: Connection, direction: FaultDirection, chunk: Buffer): void => {
    const from = direction === 'toServer' ? conn.client : conn.server;
    const to = direction === 'toServer' ? conn.server : conn.client;
    let rest = chunk;
    while (rest.length > 0) {
      if (conn.stalled || stallAll || conn.ended) {
        conn.droppedBytes = true;
        return;
      }
      const fault = nextFault(conn, direction);
      const room = fault === undefined ? rest.length : Math.max(0, fault.at - conn.sent[direction]);
      const part = rest.subarray(0, Math.min(room, rest.length));
      if (part.length > 0) {
        conn.sent[direction] += part.length;
        if (!to.write(part) && !from.isPaused()) {
          from.pause();
          to.once('drain', () => from.resume());
        }
        rest = rest.subarray(part.length);
      }
      if (fault !== undefined && conn.sent[direction] >= fault.at) {
        fault.rule.firesAt.delete(conn);
        if (!fault.rule.options.every) {
          fault.rule.spent = true;
          rules = rules.filter((r) => r !== fault.rule);
        }
        applyFault(conn, fault.rule.options.fault);
        if (!connections.has(conn)) return;
      }
    }
  };

  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    opened += 1;
    client.on('error', () => undefined);
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect({ host: hostname, port, allowHalfOpen: true });
    upstream.on('error', () => undefined);
    const conn: Connection = {
      client,
      server: upstream,
      sent: { toClient: 0, toServer: 0 },
      stalled: false,
      droppedBytes: false,
      ended: false,
    };
    connections.add(conn);
    for (const rule of rules) arm(rule, conn);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk: Buffer) => forward(conn, 'toServer', chunk));
    upstream.on('data', (chunk: Buffer) => forward(conn, 'toClient', chunk));
    // A half-close passes through unless the connection is stalled (a stalled network carries no FIN either).
    client.on('end', () => {
      if (!conn.stalled && !stallAll) upstream.end();
    });
    upstream.on('end', () => {
      if (!conn.stalled && !stallAll) client.end();
    });
    // A reset or error on one side resets the other; a clean close of both sides forgets the connection.
    const onClose = (hadError: boolean, other: Socket): void => {
      if (hadError && connections.has(conn)) reset(conn);
      else if (client.destroyed && upstream.destroyed) dropConnection(conn);
      else if (hadError) other.resetAndDestroy();
    };
    client.on('close', (hadError) => onClose(hadError, upstream));
    upstream.on('close', (hadError) => onClose(hadError, client));
  });
  server.on('error', () => undefined);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fault proxy: no TCP address after listen');

  return {
    host: `127.0.0.1:${address.port}`,
    get connectionsOpened() {
      return opened;
    },
    pass() {
      stallAll = false;
      refusing = false;
      rules = [];
      for (const conn of [...connections]) {
        if (conn.droppedBytes) reset(conn);
        conn.stalled = false;
      }
    },
    stall() {
      stallAll = true;
    },
    resetAll() {
      for (const conn of [...connections]) reset(conn);
    },
    closeAll() {
      for (const conn of [...connections]) finish(conn);
    },
    faultAfter(options) {
      if (!Number.isSafeInteger(options.bytes) || options.bytes < 0)
        throw new Error(`fault proxy: bytes must be a non-negative integer, got ${options.bytes}`);
      const rule: FaultRule = { options: { ...options }, firesAt: new Map(), spent: false };
      rules.push(rule);
      for (const conn of connections) arm(rule, conn);
    },
    refuseNew(refuse) {
      refusing = refuse;
    },
    async close() {
      rules = [];
      for (const conn of [...connections]) {
        dropConnection(conn);
        conn.client.destroy();
        conn.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function splitHost(target: string): { hostname: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(target.trim());
  if (!match) throw new Error(`fault proxy: target ${JSON.stringify(target)} is not HOST:PORT`);
  return { hostname: (match[1] as string).replace(/^\[(.*)\]$/, '$1'), port: Number(match[2]) };
}
