import { EmulatorError } from '../errors/emulator-error.js';

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
export function assertLoopbackHost(host: string): void {
  const match = /^(\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(host.trim());
  const name = match?.[1];
  const port = Number(match?.[2]);
  if (name === undefined || !isLoopbackName(name) || port < 1 || port > 65_535) {
    throw new EmulatorError(
      `refusing non-loopback emulator host "${host}": expected 127.x.x.x:PORT, localhost:PORT or [::1]:PORT.`,
    );
  }
}
