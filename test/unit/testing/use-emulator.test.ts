import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError, useEmulator } from '../../../src/testing/index.js';

describe('useEmulator with BIGTABLE_EMULATOR_HOST set', () => {
  const saved = process.env['BIGTABLE_EMULATOR_HOST'];
  afterEach(() => {
    if (saved === undefined) delete process.env['BIGTABLE_EMULATOR_HOST'];
    else process.env['BIGTABLE_EMULATOR_HOST'] = saved;
  });

  it("returns the user's emulator and never stops it", async () => {
    process.env['BIGTABLE_EMULATOR_HOST'] = '127.0.0.1:1';
    const emulator = await useEmulator();
    expect(emulator.host).toBe('127.0.0.1:1');
    await expect(emulator.stop()).resolves.toBeUndefined();
  });

  it('refuses a non-loopback BIGTABLE_EMULATOR_HOST', async () => {
    process.env['BIGTABLE_EMULATOR_HOST'] = '192.0.2.1:8086';
    await expect(useEmulator()).rejects.toBeInstanceOf(EmulatorError);
  });
});
