import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsConnections, WATCHDOG_NAME } from '../../../src/testing/emulator.js';
import { isProcessAlive, livePidsWithArgs, waitFor } from '../../support/process-liveness.js';

const childScript = join('test', 'support', 'orphan-emulator-child.ts');
const children: ChildProcess[] = [];

async function startChild(
  mode: 'hang' | 'exit' | 'return',
): Promise<{ child: ChildProcess; pid: number; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, mode], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const info = JSON.parse(line) as { pid: number; port: number };
    lines.close();
    return { child, ...info };
  }
  throw new Error('the child exited before reporting its emulator');
}

async function expectEmulatorGone(pid: number, port: number): Promise<void> {
  await waitFor(() => !isProcessAlive(pid), 10_000, `emulator pid ${pid} to exit`);
  await waitFor(() => livePidsWithArgs([WATCHDOG_NAME, String(port)]).length === 0, 10_000, 'the watchdog to exit');
  expect(await acceptsConnections(port)).toBe(false);
}

describe('emulator orphan protection', () => {
  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('kills the emulator when its parent is SIGKILLed', async () => {
    const { child, pid, port } = await startChild('hang');
    expect(isProcessAlive(pid)).toBe(true);
    expect(await acceptsConnections(port)).toBe(true);
    expect(livePidsWithArgs([WATCHDOG_NAME, String(port)]).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await expectEmulatorGone(pid, port);
  });

  it('kills the emulator when its parent calls process.exit()', async () => {
    const { pid, port } = await startChild('exit');
    await expectEmulatorGone(pid, port);
  });

  it('does not keep its parent alive, and dies with it', async () => {
    const { child, pid, port } = await startChild('return');
    await waitFor(() => child.exitCode !== null, 10_000, 'the parent to exit on its own');
    await expectEmulatorGone(pid, port);
  });
});
