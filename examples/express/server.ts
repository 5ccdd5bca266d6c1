import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';

/**
 * A listening HTTP server.
 *
 * @example
 * ```ts
 * const server: RunningServer = await listen(app);
 * ```
 */
export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /**
   * Stops accepting connections, lets responses in flight finish, closes
   * every other connection (keep-alive ones, and ones a client opened but
   * never used, which Node's `closeIdleConnections` leaves open) and resolves
   * once all are gone.
   */
  close(): Promise<void>;
}

/**
 * Serves `app` on 127.0.0.1 (port 0 picks a free port).
 *
 * @example
 * ```ts
 * const server = await listen(createReadingsApp(readings));
 * await fetch(`${server.url}/readings`);
 * await server.close();
 * ```
 */
export async function listen(app: Express, port = 0): Promise<RunningServer> {
  const server = createServer(app);
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();
  let closing = false;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    busy.add(req.socket);
    res.once('close', () => {
      busy.delete(req.socket);
      if (closing) req.socket.end();
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
      }),
  };
}
