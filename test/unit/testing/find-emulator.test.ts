import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorError, findEmulatorBinary } from '../../../src/testing/index.js';

const run = promisify(execFile);
const childScript = join('test', 'support', 'find-emulator-child.ts');

async function findInChild(env: NodeJS.ProcessEnv): Promise<{ binary?: string; error?: string; name?: string }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', childScript], { env, cwd: process.cwd() });
  return JSON.parse(stdout.trim()) as { binary?: string; error?: string; name?: string };
}

describe('findEmulatorBinary', () => {
  let dir: string;
  const saved = process.env['BIGTABLE_EMULATOR_BIN'];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'find-emulator-'));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['BIGTABLE_EMULATOR_BIN'];
    else process.env['BIGTABLE_EMULATOR_BIN'] = saved;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects a BIGTABLE_EMULATOR_BIN that points at a missing file', async () => {
    process.env['BIGTABLE_EMULATOR_BIN'] = join(dir, 'does-not-exist');
    const error = await findEmulatorBinary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as EmulatorError).message).toContain('BIGTABLE_EMULATOR_BIN points nowhere');
  });

  it('rejects a BIGTABLE_EMULATOR_BIN that is not executable', async () => {
    const file = join(dir, 'not-executable');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o644);
    process.env['BIGTABLE_EMULATOR_BIN'] = file;
    await expect(findEmulatorBinary()).rejects.toBeInstanceOf(EmulatorError);
  });

  it('returns an executable BIGTABLE_EMULATOR_BIN as is', async () => {
    const file = join(dir, 'my-emulator');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    process.env['BIGTABLE_EMULATOR_BIN'] = file;
    await expect(findEmulatorBinary()).resolves.toBe(file);
  });

  it('falls back to cbtemulator on PATH when gcloud is unavailable', async () => {
    const pathDir = await mkdtemp(join(dir, 'path-'));
    const fake = join(pathDir, 'cbtemulator');
    await writeFile(fake, '#!/bin/sh\n');
    await chmod(fake, 0o755);
    const result = await findInChild({ PATH: pathDir, HOME: dir });
    expect(result).toEqual({ binary: fake });
  });

  it('explains how to install the emulator when nothing is found', async () => {
    const emptyDir = await mkdtemp(join(dir, 'empty-'));
    const result = await findInChild({ PATH: emptyDir, HOME: dir });
    expect(result.name).toBe('EmulatorError');
    expect(result.error).toContain('apt-get install google-cloud-cli-bigtable-emulator');
    expect(result.error).toContain('gcloud components install bigtable');
    expect(result.error).toContain('BIGTABLE_EMULATOR_BIN');
  });
});
