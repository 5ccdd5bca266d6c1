import { Bigtable } from '@google-cloud/bigtable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorClientOptions, startEmulator, uniqueTableId } from '../../../src/testing/index.js';
import type { EmulatorHandle } from '../../../src/testing/index.js';
import { acceptsConnections } from '../../../src/testing/emulator.js';
import { isProcessAlive } from '../../support/process-liveness.js';
import { testInstanceId } from '../../support/emulator.js';

describe('startEmulator', () => {
  let emulator: EmulatorHandle;
  let bigtable: Bigtable;

  beforeAll(async () => {
    emulator = await startEmulator();
    bigtable = new Bigtable(emulatorClientOptions(emulator.host));
  });
  afterAll(async () => {
    await bigtable.close();
    await emulator.stop();
  });

  it('runs on a loopback port of its own', async () => {
    expect(emulator.host).toBe(`127.0.0.1:${emulator.port}`);
    expect(emulator.host).not.toBe(process.env['BIGTABLE_EMULATOR_HOST']);
    expect(isProcessAlive(emulator.pid)).toBe(true);
    expect(await acceptsConnections(emulator.port)).toBe(true);
  });

  it('serves a real client: create a table, write a row and read it back', async () => {
    const table = bigtable.instance(testInstanceId).table(uniqueTableId('start-emulator'));
    await table.create({ families: ['f'] });
    await table.insert([{ key: 'row#1', data: { f: { name: 'Ann' } } }]);
    const [row] = await table.row('row#1').get();
    expect(row.data).toMatchObject({ f: { name: [{ value: 'Ann' }] } });
    await table.delete();
  });

  it('stop() kills the emulator, closes the port and can be called twice', async () => {
    const other = await startEmulator();
    expect(isProcessAlive(other.pid)).toBe(true);
    await other.stop();
    expect(isProcessAlive(other.pid)).toBe(false);
    expect(await acceptsConnections(other.port)).toBe(false);
    await expect(other.stop()).resolves.toBeUndefined();
  });

  it('two concurrent emulators get different ports', async () => {
    const [a, b] = await Promise.all([startEmulator(), startEmulator()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(await acceptsConnections(a.port)).toBe(true);
      expect(await acceptsConnections(b.port)).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
