import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError, freePort, useEmulator } from '../../../src/testing/index.js';

describe('useEmulator with BIGTABLE_EMULATOR_HOST set', () => {
  const saved = process.env['BIGTABLE_EMULATOR_HOST'];
  let server: Server | undefined;
  afterEach(async () => {
    if (saved === undefined) delete process.env['BIGTABLE_EMULATOR_HOST'];
    else process.env['BIGTABLE_EMULATOR_HOST'] = saved;
    if (server !== undefined) await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
  });

  it("returns the user's emulator and never stops it", async () => {
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as { port: number }).port}`;
    process.env['BIGTABLE_EMULATOR_HOST'] = host;
    const emulator = await useEmulator();
    expect(emulator.host).toBe(host);
    await expect(emulator.stop()).resolves.toBeUndefined();
  });

  it('refuses a non-loopback BIGTABLE_EMULATOR_HOST', async () => {
    process.env['BIGTABLE_EMULATOR_HOST'] = '192.0.2.1:8086';
    await expect(useEmulator()).rejects.toBeInstanceOf(EmulatorError);
  });

  it('throws EmulatorError naming the host and the fix when nothing listens there', async () => {
    const host = `127.0.0.1:${await freePort()}`;
    process.env['BIGTABLE_EMULATOR_HOST'] = host;
    const error = await useEmulator().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as EmulatorError).message).toContain(`BIGTABLE_EMULATOR_HOST=${host}`);
    expect((error as EmulatorError).message).toContain('Fix:');
  });
});
