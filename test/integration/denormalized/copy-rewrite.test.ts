import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRewrite, rowExists } from '../../../src/denormalize/settle-copies.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { denormalizedEntities } from './entities.js';
import { rowsOf } from '../../support/rows-of.js';

/**
 * The conditional write behind propagate() and a save's check of its
 * sources, sent by the real client to the emulator: it applies only to an
 * existing row, and leaves the copy holding exactly the new value, whatever
 * the timestamps of the copy cells it replaces.
 */
const E = denormalizedEntities('copy-rewrite');
const schema = compileEntity(E.Reading);
const table = schema.table;
const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const NOW = 1_700_000_000_000_000;
const MS = 1000;

const set = (family: string, qualifier: string, value: string, ts: number): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros: ts,
  value: Buffer.from(value),
});

async function seed(key: string, cells: CellMutation[]): Promise<void> {
  await driver.mutateRow({ table, rowKey: Buffer.from(key), rowKeyText: key, mutations: cells, idempotent: true });
}

/** Rewrites the location copy of `key`; resolves whether it applied and the row's location and kind versions after. */
async function rewriteCopy(key: string, location: string | null): Promise<{ applied: boolean; cells: string[] }> {
  const applied = await driver.checkAndMutate({
    table,
    rowKey: Buffer.from(key),
    predicate: rowExists(schema),
    onMatch: copyRewrite(schema, new Map([['location', location]]), NOW),
    onNoMatch: [],
  });
  const cells: string[] = [];
  for await (const row of rowsOf(driver.readRows({ table, keys: [Buffer.from(key)] })))
    for (const q of ['location', 'kind'])
      for (const cell of row.cells.meta?.[q] ?? [])
        cells.push(`${q}=${cell.value.toString()}@${(cell.timestampMicros - NOW) / MS}`);
  return { applied, cells };
}

beforeAll(async () => {
  await driver.createTable({
    table,
    families: [
      { name: 'm', gc: undefined },
      { name: 'meta', gc: undefined },
    ],
  });
});

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('copy rewrite in CheckAndMutateRow (emulator)', () => {
  it('does not apply to a missing row, so nothing is created', async () => {
    expect(await rewriteCopy('missing', 'new')).toEqual({ applied: false, cells: [] });
  });

  it('writes the copy of a row that had none', async () => {
    await seed('no-copy', [set('m', 'temperature', '1', NOW - 5 * MS)]);
    expect(await rewriteCopy('no-copy', 'new')).toEqual({ applied: true, cells: ['location=new@0'] });
  });

  it('replaces every version of the copy, older and newer-stamped alike, and leaves the other copies', async () => {
    await seed('mixed', [
      set('meta', 'location', 'a', NOW - 2 * MS),
      set('meta', 'location', 'from a clock ahead', NOW + 60_000 * MS),
      set('meta', 'kind', 'k', NOW + MS),
    ]);
    expect(await rewriteCopy('mixed', 'new')).toEqual({ applied: true, cells: ['location=new@0', 'kind=k@1'] });
  });

  it('clears the copy for a source without the value', async () => {
    await seed('cleared', [set('meta', 'location', 'a', NOW + MS), set('m', 'temperature', '1', NOW)]);
    expect(await rewriteCopy('cleared', null)).toEqual({ applied: true, cells: [] });
  });
});
