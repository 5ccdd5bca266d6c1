import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { emulatorHost } from '../../support/emulator.js';
import { cli } from './run-cli.js';

const instance = `cli-agg-${randomUUID().slice(0, 8)}`;
const connect = [
  '-e',
  'test/integration/cli/aggregate.entities.ts',
  '--emulator-host',
  emulatorHost(),
  '--instance',
  instance,
];
const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance });

afterAll(async () => {
  await driver.deleteTable({ table: 'cli-page-hits' }).catch(() => undefined);
  await driver.close();
});

describe('bigtable-mapper sync with aggregate families', () => {
  it('sync creates the sum family; --check then passes', async () => {
    const created = await cli([...connect, 'sync']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/create-table\s+cli-page-hits/);
    expect(await driver.getFamilies({ table: 'cli-page-hits' })).toEqual([
      { name: 'hits', gc: undefined, aggregate: 'sum' },
    ]);
    expect((await cli([...connect, 'sync', '--check'])).code).toBe(0);
  });

  it('--check reports a plain family where a sum family is declared as drift (exit 1); sync refuses it', async () => {
    await driver.deleteFamily({ table: 'cli-page-hits', family: 'hits' });
    await driver.createFamily({ table: 'cli-page-hits', family: { name: 'hits', gc: undefined } });
    const check = await cli([...connect, '--json', 'sync', '--check']);
    expect(check.code).toBe(1);
    expect(check.json()).toMatchObject({
      drift: true,
      applied: false,
      changes: [{ kind: 'aggregate-mismatch', table: 'cli-page-hits', family: 'hits', to: 'sum' }],
    });
    const text = await cli([...connect, 'sync', '--check']);
    expect(text.stdout).toMatch(/aggregate-mismatch\s+cli-page-hits/);
    const applied = await cli([...connect, 'sync']);
    expect(applied.code).not.toBe(0);
    expect(applied.stderr).toMatch(/value type is fixed when it is created/);
    expect(await driver.getFamilies({ table: 'cli-page-hits' })).toEqual([{ name: 'hits', gc: undefined }]);
  });
});
