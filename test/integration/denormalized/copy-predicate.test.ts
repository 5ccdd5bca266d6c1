import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPredicate } from '../../../src/denormalize/propagate.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { denormalizedEntities } from './entities.js';

/**
 * The conditional write behind propagate(), sent by the real client to the
 * emulator: a Condition filter in a CheckAndMutateRow predicate matches only
 * an existing row without a copy at or after the version.
 */
const E = denormalizedEntities('copy-pred');
const schema = compileEntity(E.Reading);
const table = schema.table;
const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const copies = ['location', 'kind'].map((p) => schema.columnsByProperty[p]).filter((c) => c !== undefined);
const VERSION = 1_700_000_000_000_000;
const MS = 1000;

const set = (family: string, qualifier: string, value: string, ts: number): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros: ts,
  value: Buffer.from(value),
});
const rewrite: CellMutation[] = [
  { kind: 'deleteFromColumn', family: 'meta', qualifier: 'location' },
  set('meta', 'location', 'new', VERSION),
];

async function seed(key: string, cells: CellMutation[]): Promise<void> {
  await driver.mutateRow({ table, rowKey: Buffer.from(key), rowKeyText: key, mutations: cells, idempotent: true });
}

/** Sends the propagation's conditional rewrite to `key`; resolves whether it applied and the row's location versions after. */
async function propagateTo(key: string): Promise<{ applied: boolean; location: string[] }> {
  const applied = await driver.checkAndMutate({
    table,
    rowKey: Buffer.from(key),
    predicate: copyPredicate(copies, VERSION),
    onMatch: rewrite,
    onNoMatch: [],
  });
  const location: string[] = [];
  for await (const row of driver.readRows({ table, keys: [Buffer.from(key)] })) {
    for (const cell of row.cells.meta?.location ?? [])
      location.push(`${cell.value.toString()}@${(cell.timestampMicros - VERSION) / MS}`);
  }
  return { applied, location };
}

beforeAll(async () => {
  await driver.createTable(table, [
    { name: 'm', gc: undefined },
    { name: 'meta', gc: undefined },
  ]);
});

afterAll(async () => {
  await driver.deleteTable(table).catch(() => undefined);
  await driver.close();
});

describe('copyPredicate in CheckAndMutateRow (emulator)', () => {
  it('does not match a missing row, so nothing is created', async () => {
    expect(await propagateTo('missing')).toEqual({ applied: false, location: [] });
  });

  it('matches a row without a copy, and one whose copies are all older; the older versions are replaced', async () => {
    await seed('no-copy', [set('m', 'temperature', '1', VERSION - 5 * MS)]);
    expect(await propagateTo('no-copy')).toEqual({ applied: true, location: ['new@0'] });
    await seed('older', [
      set('meta', 'location', 'a', VERSION - 2 * MS),
      set('meta', 'location', 'b', VERSION - MS),
      set('meta', 'kind', 'k', VERSION - MS),
    ]);
    expect(await propagateTo('older')).toEqual({ applied: true, location: ['new@0'] });
  });

  it('does not match a row holding a copy at the version or later, in any copied column', async () => {
    await seed('same', [set('meta', 'location', 'tie', VERSION)]);
    expect(await propagateTo('same')).toEqual({ applied: false, location: ['tie@0'] });
    await seed('newer', [set('meta', 'location', 'old', VERSION - MS), set('meta', 'location', 'newer', VERSION + MS)]);
    expect(await propagateTo('newer')).toEqual({ applied: false, location: ['newer@1', 'old@-1'] });
    await seed('newer-kind', [
      set('meta', 'location', 'old', VERSION - MS),
      set('meta', 'kind', 'k', VERSION + 3 * MS),
    ]);
    expect(await propagateTo('newer-kind')).toEqual({ applied: false, location: ['old@-1'] });
  });

  it('ignores newer cells outside the copied columns', async () => {
    await seed('other-newer', [
      set('meta', 'location', 'old', VERSION - MS),
      set('m', 'temperature', '9', VERSION + 10 * MS),
    ]);
    expect(await propagateTo('other-newer')).toEqual({ applied: true, location: ['new@0'] });
  });
});
