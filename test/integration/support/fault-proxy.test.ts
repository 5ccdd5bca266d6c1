import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';

/** A loopback echo server: the simplest peer on which byte-exact faults can be checked. */
async function startEcho(): Promise<{ host: string; server: Server }> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { host: `127.0.0.1:${address.port}`, server };
}

interface ClientEnd {
  socket: Socket;
  received: () => number;
  /** Resolves with how the socket ended: 'end' (FIN), 'reset' or 'close'. */
  ended: Promise<'end' | 'reset' | 'close'>;
}

/** Connects to `host`; writes before the connection is up are queued by the socket. */
function connectTo(host: string): ClientEnd {
  const [hostname, port] = host.split(':') as [string, string];
  const socket = connect({ host: hostname, port: Number(port) });
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  const ended = new Promise<'end' | 'reset' | 'close'>((done) => {
    socket.on('end', () => done('end'));
    socket.on('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNRESET' ? 'reset' : 'close'));
    socket.on('close', () => done('close'));
  });
  return { socket, received: () => received, ended };
}

const until = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('fault proxy over a TCP echo server', () => {
  let echo: { host: string; server: Server };
  let proxy: FaultProxy;
  const clients: Socket[] = [];
  let opened = 0;
  const open = async (): Promise<ClientEnd> => {
    const end = connectTo(proxy.host);
    await until(() => proxy.connectionsOpened > opened);
    opened = proxy.connectionsOpened;
    clients.push(end.socket);
    return end;
  };

  beforeAll(async () => {
    echo = await startEcho();
  });
  afterEach(async () => {
    for (const socket of clients.splice(0)) socket.destroy();
    await proxy.close();
    opened = 0;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => echo.server.close(() => resolve()));
  });

  it('passes bytes both ways and counts connections', async () => {
    proxy = await startFaultProxy(echo.host);
    const a = await open();
    a.socket.write(Buffer.alloc(10_000, 1));
    await until(() => a.received() === 10_000);
    await open();
    expect(proxy.connectionsOpened).toBe(2);
  });

  it('resets (RST) the next connection to reach the byte count, once', async () => {
    proxy = await startFaultProxy(echo.host);
    proxy.faultAfter({ bytes: 0, fault: 'reset', direction: 'toServer' });
    const a = await open();
    a.socket.write(Buffer.alloc(5_000, 1));
    expect(await a.ended).toBe('reset');
    expect(a.received()).toBe(0);
    const b = await open();
    b.socket.write(Buffer.alloc(5_000, 1));
    await until(() => b.received() === 5_000);
  });

  it('cuts inside a chunk: no byte past the count reaches the client', async () => {
    proxy = await startFaultProxy(echo.host);
    proxy.faultAfter({ bytes: 1_234, fault: 'reset', direction: 'toClient' });
    const a = await open();
    a.socket.write(Buffer.alloc(5_000, 1));
    // The reset arrives right behind the data: the receiving socket may report it as an end.
    expect(['reset', 'end']).toContain(await a.ended);
    expect(a.received()).toBeLessThanOrEqual(1_234);
  });

  it('closes (FIN) after exactly the byte count on every connection', async () => {
    proxy = await startFaultProxy(echo.host);
    proxy.faultAfter({ bytes: 100, fault: 'close', direction: 'toClient', every: true });
    for (let i = 0; i < 2; i++) {
      const c = await open();
      c.socket.write(Buffer.alloc(300, 1));
      expect(await c.ended).toBe('end');
      expect(c.received()).toBe(100);
    }
  });

  it('stalls silently, and pass() resets the connections that lost bytes', async () => {
    proxy = await startFaultProxy(echo.host);
    const a = await open();
    proxy.stall();
    a.socket.write(Buffer.alloc(1_000, 1));
    const b = await open();
    b.socket.write('x');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.received() + b.received()).toBe(0);
    expect(a.socket.destroyed || b.socket.destroyed).toBe(false);
    proxy.pass();
    expect(await a.ended).toBe('reset');
    const c = await open();
    c.socket.write(Buffer.alloc(500, 1));
    await until(() => c.received() === 500);
  });

  it('resetAll, closeAll and refuseNew', async () => {
    proxy = await startFaultProxy(echo.host);
    const a = await open();
    proxy.resetAll();
    expect(await a.ended).toBe('reset');
    const b = await open();
    proxy.closeAll();
    expect(await b.ended).toBe('end');
    proxy.refuseNew(true);
    const c = await open();
    expect(await c.ended).toBe('reset');
    proxy.refuseNew(false);
    const d = await open();
    d.socket.write('ok');
    await until(() => d.received() === 2);
    expect(proxy.connectionsOpened).toBe(4);
  });
});

describe('fault proxy between the real client and the emulator', () => {
  const ROWS = 200;
  const VALUE = Buffer.alloc(1_000, 0x61);
  const table = uniqueTableId('fault-proxy');
  let proxy: FaultProxy;
  let driver: GoogleCloudDriver;

  const readAll = async (): Promise<string[]> => {
    const keys: string[] = [];
    for await (const row of rowsOf(driver.readRows({ table }))) keys.push(row.key.toString());
    return keys;
  };

  beforeAll(async () => {
    proxy = await startFaultProxy(emulatorHost());
    driver = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: testInstanceId });
    await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
    const batch: CompiledMutation[] = Array.from({ length: ROWS }, (_, i) => {
      const key = `k${String(i).padStart(4, '0')}`;
      return {
        table,
        rowKey: Buffer.from(key),
        rowKeyText: key,
        mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: VALUE }],
        idempotent: true,
      };
    });
    expect(await driver.mutateRows({ table, mutations: batch })).toEqual([]);
  });
  afterEach(() => proxy.pass());
  afterAll(async () => {
    await driver.deleteTable({ table }).catch(() => undefined);
    await driver.close();
    await proxy.close();
  });

  it('passes RPCs through unchanged', async () => {
    expect(await readAll()).toHaveLength(ROWS);
    expect(proxy.connectionsOpened).toBeGreaterThan(0);
  });

  it('a reset mid-read breaks the connection; the read retries on a new one', async () => {
    const before = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 50_000, fault: 'reset', direction: 'toClient' });
    const keys = await readAll();
    expect(keys).toHaveLength(ROWS);
    expect(new Set(keys).size).toBe(ROWS);
    expect(proxy.connectionsOpened).toBeGreaterThan(before);
  });

  it('a stall makes an RPC hang until it is cancelled', async () => {
    await readAll();
    proxy.stall();
    const source = driver.readRows({ table });
    let settled = false;
    const first = source[Symbol.asyncIterator]()
      .next()
      .then(
        () => (settled = true),
        () => (settled = true),
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    source.cancel();
    await first;
    expect(driver.activeReads).toBe(0);
  });
});
