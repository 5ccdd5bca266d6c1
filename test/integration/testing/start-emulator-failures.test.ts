import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorError, startEmulator } from '../../../src/testing/index.js';
import { livePidsWithArgs, waitFor } from '../../support/process-liveness.js';

async function fakeBinary(dir: string, name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('startEmulator failures', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'start-emulator-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a port that another process holds, without mistaking that process for the emulator', async () => {
    const server: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const error = await startEmulator({ port }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmulatorError);
      expect((error as Error).message).toMatch(/in use/);
      expect((error as Error).message).toContain('address already in use');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('times out with the output tail and kills a binary that never listens', async () => {
    const binary = await fakeBinary(
      dir,
      'silent-emulator',
      'echo "hello from the fake emulator"\nwhile :; do sleep 1; done',
    );
    const error = await startEmulator({ binary, startTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as Error).message).toContain('did not accept connections');
    expect((error as Error).message).toContain('hello from the fake emulator');
    await waitFor(() => livePidsWithArgs([binary]).length === 0, 10_000, 'the fake emulator to die');
  });

  it('reports an emulator that exits at once, with its output', async () => {
    const binary = await fakeBinary(dir, 'crashing-emulator', 'echo "boom: bad flag $1" >&2\nexit 3');
    const error = await startEmulator({ binary }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as Error).message).toContain('exited before accepting connections');
    expect((error as Error).message).toContain('boom: bad flag -host');
  });
});
