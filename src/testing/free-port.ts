import { createServer } from 'node:net';

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
