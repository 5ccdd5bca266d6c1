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
  /**
   * Arms a stall of the HTTP/2 streams only (see {@link DataStallOptions}): a
   * window during which DATA frames going one way are dropped while every
   * other frame passes and the TCP connections stay open.
   */
  stallData(options: DataStallOptions): void;
  /** HTTP/2 DATA frames dropped by {@link stallData} windows so far. */
  readonly droppedDataFrames: number;
  /** What each connection accepted so far carried, in the order they were accepted. */
  connectionStats(): ConnectionStats[];
}

/**
 * A stall of the HTTP/2 streams while the connection keeps working: once
 * `afterBytes` more bytes went `direction` on a connection, every DATA frame
 * going `direction` on every connection (open or opened meanwhile) is dropped
 * whole for `forMs` milliseconds. Every other frame (HEADERS, SETTINGS, PING
 * and its ack, WINDOW_UPDATE, RST_STREAM, GOAWAY) passes, so the framing stays
 * intact, keepalive pings are answered and no side sees an error.
 *
 * The dropped bytes are never delivered, so the receiver never returns their
 * flow-control credit: a connection that lost a window's worth of DATA (64 KiB
 * by default) can send no DATA on any stream ever again, although its pings
 * still pass. That is the shape of an HTTP/2 flow-control wedge; only a new
 * connection works after the window. `pass()` ends a pending or running
 * window and, since the framing is intact, resets no connection for it.
 */
export interface DataStallOptions {
  /** Bytes that pass first (counted per connection from this call, as in {@link FaultAfterOptions}). */
  afterBytes: number;
  /** How long DATA frames are dropped, from the first frame that starts past `afterBytes`. */
  forMs: number;
  direction: FaultDirection;
}

/** What one connection through the proxy carried. */
export interface ConnectionStats {
  /** HTTP/2 requests the client sent on it (HEADERS frames going to the server). */
  readonly requests: number;
  /** Of those, the requests sent after the connection lost its first DATA frame to {@link FaultProxy.stallData}. */
  readonly requestsAfterDrop: number;
  /** DATA frames {@link FaultProxy.stallData} dropped on it. */
  readonly droppedDataFrames: number;
  /** Whether the connection is still open (neither side closed it). */
  readonly open: boolean;
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
  /** Where each direction is in its HTTP/2 frames. */
  readonly frames: Record<FaultDirection, FrameCursor>;
  readonly stats: { requests: number; requestsAfterDrop: number; droppedDataFrames: number; open: boolean };
  stalled: boolean;
  droppedBytes: boolean;
  ended: boolean;
}

/** The HTTP/2 client connection preface, sent once before the client's first frame. */
const CLIENT_PREFACE_BYTES = 24;
const FRAME_HEADER_BYTES = 9;
const DATA_FRAME = 0;
const HEADERS_FRAME = 1;

/**
 * Follows the HTTP/2 frames of one direction of a connection (length and type
 * from each 9-byte frame header) so that whole DATA frames can be dropped.
 * While nothing may be dropped every byte passes at once; while something may
 * be, a frame header is held back until it is complete, then its frame passes
 * or is dropped whole.
 */
class FrameCursor {
  #preface: number;
  #header: Buffer = Buffer.alloc(0);
  #headerPassed = false;
  #payloadLeft = 0;
  #dropping = false;

  constructor(preface: number) {
    this.#preface = preface;
  }

  /**
   * The bytes of `chunk` to forward. `mayDrop(offset)` is asked at each frame
   * start (its offset in `chunk`); `drop(type)` decides for a complete header
   * when it may; `seen(type)` hears every frame that passes.
   */
  filter(
    chunk: Buffer,
    mayDrop: (offset: number) => boolean,
    drop: (type: number) => boolean,
    seen: (type: number) => void,
  ): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.#preface > 0) {
        const n = Math.min(this.#preface, chunk.length - at);
        out.push(chunk.subarray(at, at + n));
        this.#preface -= n;
        at += n;
        continue;
      }
      if (this.#payloadLeft > 0) {
        const n = Math.min(this.#payloadLeft, chunk.length - at);
        if (!this.#dropping) out.push(chunk.subarray(at, at + n));
        this.#payloadLeft -= n;
        at += n;
        continue;
      }
      if (this.#header.length === 0) this.#headerPassed = !mayDrop(at);
      const n = Math.min(FRAME_HEADER_BYTES - this.#header.length, chunk.length - at);
      const part = chunk.subarray(at, at + n);
      if (this.#headerPassed) out.push(part);
      this.#header = Buffer.concat([this.#header, part]);
      at += n;
      if (this.#header.length < FRAME_HEADER_BYTES) continue;
      const type = this.#header[3] as number;
      this.#dropping = !this.#headerPassed && drop(type);
      if (!this.#dropping) {
        if (!this.#headerPassed) out.push(this.#header);
        seen(type);
      }
      this.#payloadLeft = this.#header.readUIntBE(0, 3);
      this.#header = Buffer.alloc(0);
    }
    return out;
  }
}

/** A {@link DataStallOptions} window: armed per connection, then running until `endsAt`. */
interface DataStall {
  readonly options: DataStallOptions;
  readonly firesAt: Map<Connection, number>;
  endsAt: number | undefined;
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
  let dataStall: DataStall | undefined;
  let droppedDataFrames = 0;
  const accepted: Connection[] = [];

  /** Whether a DATA frame going `direction` on `conn` now is dropped (starts an armed window once its byte count is reached). */
  const dropsData = (conn: Connection, direction: FaultDirection, at: number): boolean => {
    const stall = dataStall;
    if (stall === undefined || stall.options.direction !== direction || conn.droppedBytes) return false;
    if (stall.endsAt === undefined) {
      const firesAt = stall.firesAt.get(conn);
      if (firesAt === undefined || at < firesAt) return false;
      stall.endsAt = Date.now() + stall.options.forMs;
    }
    if (Date.now() < stall.endsAt) return true;
    dataStall = undefined;
    return false;
  };

  const dropConnection = (conn: Connection): void => {
    connections.delete(conn);
    conn.stats.open = false;
    for (const rule of rules) rule.firesAt.delete(conn);
    dataStall?.firesAt.delete(conn);
  };

  /** `part` as it goes `direction`: whole DATA frames dropped during a data stall, requests counted. */
  const framed = (conn: Connection, direction: FaultDirection, part: Buffer): Buffer[] => {
    const start = conn.sent[direction] - part.length;
    return conn.frames[direction].filter(
      part,
      (offset) => dropsData(conn, direction, start + offset),
      (type) => {
        if (type !== DATA_FRAME) return false;
        droppedDataFrames += 1;
        conn.stats.droppedDataFrames += 1;
        return true;
      },
      (type) => {
        if (direction !== 'toServer' || type !== HEADERS_FRAME) return;
        conn.stats.requests += 1;
        if (conn.stats.droppedDataFrames > 0) conn.stats.requestsAfterDrop += 1;
      },
    );
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
        let full = false;
        for (const piece of framed(conn, direction, part)) if (!to.write(piece)) full = true;
        if (full && !from.isPaused()) {
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
      frames: { toClient: new FrameCursor(0), toServer: new FrameCursor(CLIENT_PREFACE_BYTES) },
      stats: { requests: 0, requestsAfterDrop: 0, droppedDataFrames: 0, open: true },
      stalled: false,
      droppedBytes: false,
      ended: false,
    };
    connections.add(conn);
    accepted.push(conn);
    for (const rule of rules) arm(rule, conn);
    dataStall?.firesAt.set(conn, dataStall.options.afterBytes);
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
    get droppedDataFrames() {
      return droppedDataFrames;
    },
    connectionStats() {
      return accepted.map((conn) => ({ ...conn.stats }));
    },
    stallData(options) {
      if (!Number.isSafeInteger(options.afterBytes) || options.afterBytes < 0)
        throw new Error(`fault proxy: afterBytes must be a non-negative integer, got ${options.afterBytes}`);
      if (!Number.isSafeInteger(options.forMs) || options.forMs <= 0)
        throw new Error(`fault proxy: forMs must be a positive integer, got ${options.forMs}`);
      const stall: DataStall = { options: { ...options }, firesAt: new Map(), endsAt: undefined };
      for (const conn of connections) stall.firesAt.set(conn, conn.sent[options.direction] + options.afterBytes);
      dataStall = stall;
    },
    pass() {
      stallAll = false;
      refusing = false;
      rules = [];
      dataStall = undefined;
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
