import { ValidationError } from '../errors/errors.js';

/**
 * Validates an emulator address: `localhost:PORT` or `127.x.y.z:PORT` only, so
 * an insecure emulator channel can never point at another machine. IPv6
 * literals are refused because the client splits the endpoint on `:`.
 *
 */
export function checkEmulatorHost(emulatorHost: string): string {
  const fail = (why: string): ValidationError =>
    new ValidationError(
      `emulatorHost ${JSON.stringify(emulatorHost)} ${why}. Fix: pass "127.0.0.1:PORT" or "localhost:PORT".`,
      {
        emulatorHost,
      },
    );
  if (typeof emulatorHost !== 'string') throw fail('is not a string');
  const match = /^([^:]+):(\d{1,5})$/.exec(emulatorHost);
  if (!match) throw fail('is not HOST:PORT (IPv6 literals are not supported by the client)');
  const host = (match[1] as string).toLowerCase();
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) throw fail('has a port outside 1-65535');
  if (host !== 'localhost' && !isLoopbackV4(host)) throw fail('is not a loopback address');
  return `${host}:${port}`;
}

function isLoopbackV4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}
