import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { RowData } from '../../../src/model/driver.js';
import { READ_BUFFER_LIMITS } from '../../../src/driver/read-stream.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const table = uniqueTableId('drv-cancel');
const ROWS = 3_000;
const VALUE = Buffer.alloc(1_000, 0x61);

/** Counts ReadRows response messages received from the server while `run` is active. */
async function countReadResponses(run: () => Promise<void>): Promise<number> {
  let messages = 0;
  const data = driver.data;
  const original = data.readRows.bind(data);
  const readRows = vi.spyOn(data, 'readRows').mockImplementation((message, attempt) => {
    const stream = original(message, attempt);
    stream.on('data', () => (messages += 1));
    return stream;
  });
  try {
    await run();
  } finally {
    readRows.mockRestore();
  }
  return messages;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  for (let start = 0; start < ROWS; start += 500) {
    const batch: CompiledMutation[] = Array.from({ length: 500 }, (_, i) => {
      const key = `k${String(start + i).padStart(6, '0')}`;
      return {
        table,
        rowKey: Buffer.from(key),
        rowKeyText: key,
        mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: VALUE }],
        idempotent: true,
      };
    });
    expect(await driver.mutateRows({ table, mutations: batch })).toEqual([]);
  }
}, 60_000);

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('readRows cancellation', () => {
  it('counts the open stream while reading and none after a full read', async () => {
    let count = 0;
    let activeWhileReading = -1;
    for await (const row of rowsOf(driver.readRows({ table }))) {
      if (count === 0) activeWhileReading = driver.activeReads;
      count += row.key.length > 0 ? 1 : 0;
    }
    expect(count).toBe(ROWS);
    expect(activeWhileReading).toBe(1);
    expect(driver.activeReads).toBe(0);
  });

  it('cancel() after the first row closes the stream and stops the server', async () => {
    const messages = await countReadResponses(async () => {
      const source = driver.readRows({ table });
      const iterator = source[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      expect(driver.activeReads).toBe(1);
      source.cancel();
      source.cancel();
      expect(driver.activeReads).toBe(0);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
      await settle(300);
    });
    expect(messages).toBeLessThan(ROWS / 2);
  });

  it('breaking out of for-await cancels through return()', async () => {
    const messages = await countReadResponses(async () => {
      for await (const row of rowsOf(driver.readRows({ table }))) if (row.key.length > 0) break;
      expect(driver.activeReads).toBe(0);
      await settle(300);
    });
    expect(messages).toBeLessThan(ROWS / 2);
  });

  it('cancel() while the first pull is pending ends it and still stops the server', async () => {
    const messages = await countReadResponses(async () => {
      const source = driver.readRows({ table });
      const pending = source[Symbol.asyncIterator]().next();
      source.cancel();
      expect(driver.activeReads).toBe(0);
      expect(await pending).toEqual({ done: true, value: undefined });
      await settle(300);
    });
    expect(messages).toBeLessThan(ROWS / 2);
  });

  it('a source cancelled before its first pull never opens a stream', async () => {
    const messages = await countReadResponses(async () => {
      const source = driver.readRows({ table });
      source.cancel();
      expect(await source[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
    });
    expect(messages).toBe(0);
    expect(driver.activeReads).toBe(0);
  });
});

describe('readRows read-ahead', () => {
  it('hands over rows in batches, and a consumer that stops pulling holds the server back', async () => {
    const source = driver.readRows({ table });
    const nextBatch = async (): Promise<readonly RowData[] | undefined> => (await source.next()).value;
    let firstBatch = 0;
    let waitingBatch = 0;
    let seen = 0;
    const messages = await countReadResponses(async () => {
      firstBatch = (await nextBatch())?.length ?? 0;
      await settle(500);
      const batch = await nextBatch();
      waitingBatch = batch?.length ?? 0;
      seen = firstBatch + waitingBatch;
      source.cancel();
      await settle(300);
    });
    expect(firstBatch).toBeGreaterThanOrEqual(1);
    expect(waitingBatch).toBeGreaterThan(1);
    expect(waitingBatch * (VALUE.length + 7)).toBeLessThanOrEqual(READ_BUFFER_LIMITS.bytes + VALUE.length + 7);
    expect(seen).toBeLessThan(ROWS);
    expect(messages).toBeLessThan(ROWS);
    expect(driver.activeReads).toBe(0);
  });
});

describe('readRows cancellation in a separate process', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const driverUrl = new URL('../../../src/driver/google-cloud-driver.ts', import.meta.url).href;
  const script = `
    const [driverUrl, host, instance, table, mode] = process.argv.slice(1);
    const { createGoogleCloudDriver } = await import(driverUrl);
    const driver = createGoogleCloudDriver({ emulatorHost: host, instance });
    const source = driver.readRows({ table });
    const first = await source[Symbol.asyncIterator]().next();
    if (mode === 'cancel') source.cancel();
    await driver.close();
    process.stdout.write(JSON.stringify({ row: !first.done, activeReads: driver.activeReads }) + '\\n');
  `;

  function runChild(
    mode: 'cancel' | 'abandon',
    aliveForMs: number,
  ): Promise<{ exited: boolean; code: number | null; stdout: string }> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, driverUrl, emulatorHost(), testInstanceId, table, mode],
      {
        cwd: root,
        env: { ...process.env, METADATA_SERVER_DETECTION: 'none' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ exited: false, code: null, stdout });
      }, aliveForMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ exited: true, code, stdout });
      });
    });
  }

  it('exits on its own after cancel(), and after close() with a read abandoned open: close() cancels it', async () => {
    const cancelled = await runChild('cancel', 20_000);
    expect(cancelled).toEqual({ exited: true, code: 0, stdout: `${JSON.stringify({ row: true, activeReads: 0 })}\n` });
    const abandoned = await runChild('abandon', 20_000);
    expect(abandoned).toEqual({ exited: true, code: 0, stdout: `${JSON.stringify({ row: true, activeReads: 0 })}\n` });
  }, 60_000);
});
