import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { toClientFilter } from '../../../src/driver/client-filter.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const table = uniqueTableId('drv-filter');
const T1 = 1_700_000_000_000_000;
const T2 = T1 + 1_000;
const T3 = T1 + 2_000;
const BIN = Buffer.from([0xff, 0x2e, 0x00, 0x2d, 0x80]);

const set = (family: string, qualifier: string, value: string | Buffer, ts = T1): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros: ts,
  value: Buffer.isBuffer(value) ? value : Buffer.from(value),
});

/** `{ 'r1 f:a': ['v2@T2', 'v1@T1'] }`: row, column, value (latin1) and timestamp label per cell. */
async function view(filter: RowFilter): Promise<Record<string, string[]>> {
  const label = (ts: number): string => ({ [T1]: 'T1', [T2]: 'T2', [T3]: 'T3' })[ts] ?? String(ts);
  const out: Record<string, string[]> = {};
  const rows: RowData[] = [];
  for await (const row of driver.readRows({ table, filter })) rows.push(row);
  for (const row of rows) {
    for (const [family, columns] of Object.entries(row.cells)) {
      for (const [qualifier, cells] of Object.entries(columns)) {
        out[`${row.key.toString()} ${family}:${qualifier}`] = cells.map(
          (c) => `${c.value.toString('latin1')}@${label(c.timestampMicros)}`,
        );
      }
    }
  }
  return out;
}

const ALL = {
  'r1 f:a': ['v2@T2', 'v1@T1'],
  'r1 f:a.b': ['x.y@T1'],
  'r1 f:axb': ['xzy@T1'],
  'r1 f:a-b': [`${BIN.toString('latin1')}@T1`],
  'r1 f:e': ['@T1'],
  'r1 g.x:q': ['gx@T3'],
  'r1 gax:q': ['gax@T3'],
  'r2 f:a': ['x.y@T1'],
};
const only = (...keys: (keyof typeof ALL)[]): Record<string, string[]> =>
  Object.fromEntries(keys.map((k) => [k, ALL[k]]));
const family = (name: string): RowFilter => ({ kind: 'family', name });
const qualifiers = (...names: string[]): RowFilter => ({ kind: 'qualifiers', names });

beforeAll(async () => {
  await driver.createTable(
    table,
    ['f', 'g.x', 'gax'].map((name) => ({ name, gc: undefined })),
  );
  const r1: CellMutation[] = [
    set('f', 'a', 'v1', T1),
    set('f', 'a', 'v2', T2),
    set('f', 'a.b', 'x.y'),
    set('f', 'axb', 'xzy'),
    set('f', 'a-b', BIN),
    set('f', 'e', ''),
    set('g.x', 'q', 'gx', T3),
    set('gax', 'q', 'gax', T3),
  ];
  const rows = [
    { table, rowKey: Buffer.from('r1'), rowKeyText: 'r1', mutations: r1, idempotent: true },
    { table, rowKey: Buffer.from('r2'), rowKeyText: 'r2', mutations: [set('f', 'a', 'x.y')], idempotent: true },
  ];
  expect(await driver.mutateRows(table, rows)).toEqual([]);
  expect(await view({ kind: 'passAll' })).toEqual(ALL);
});

afterAll(async () => {
  await driver.deleteTable(table).catch(() => undefined);
  await driver.close();
});

describe('RowFilter → client filter, against the emulator', () => {
  it('family: matches the exact name only (regex metacharacters escaped)', async () => {
    expect(toClientFilter(family('g.x'))).toEqual({ family: 'g\\.x' });
    expect(await view(family('g.x'))).toEqual(only('r1 g.x:q'));
    expect(await view(family('gax'))).toEqual(only('r1 gax:q'));
  });

  it('qualifiers: exact names, one or several; none blocks everything', async () => {
    expect(toClientFilter(qualifiers('a.b'))).toEqual({ column: Buffer.from('a.b') });
    expect(await view(qualifiers('a.b'))).toEqual(only('r1 f:a.b'));
    expect(await view(qualifiers('a-b', 'e'))).toEqual(only('r1 f:a-b', 'r1 f:e'));
    expect(await view(qualifiers())).toEqual({});
  });

  it('cellsPerColumn: the newest versions only', async () => {
    expect(toClientFilter({ kind: 'cellsPerColumn', limit: 1 })).toEqual({ column: { cellLimit: 1 } });
    expect((await view({ kind: 'cellsPerColumn', limit: 1 }))['r1 f:a']).toEqual(['v2@T2']);
    expect((await view({ kind: 'cellsPerColumn', limit: 2 }))['r1 f:a']).toEqual(['v2@T2', 'v1@T1']);
  });

  it('timestampRange: [start, end) sent as Dates; either bound may be open', async () => {
    expect(toClientFilter({ kind: 'timestampRange', startMicros: T1, endMicros: T2 })).toEqual({
      time: { start: new Date(T1 / 1000), end: new Date(T2 / 1000) },
    });
    const atT1 = only('r1 f:a.b', 'r1 f:axb', 'r1 f:a-b', 'r1 f:e', 'r2 f:a');
    expect(await view({ kind: 'timestampRange', startMicros: T1, endMicros: T2 })).toEqual({
      ...atT1,
      'r1 f:a': ['v1@T1'],
    });
    expect(await view({ kind: 'timestampRange', startMicros: T2, endMicros: undefined })).toEqual({
      'r1 f:a': ['v2@T2'],
      ...only('r1 g.x:q', 'r1 gax:q'),
    });
    expect(await view({ kind: 'timestampRange', startMicros: undefined, endMicros: T1 + 1 })).toEqual({
      ...atT1,
      'r1 f:a': ['v1@T1'],
    });
    expect(await view({ kind: 'timestampRange', startMicros: T1 + 1, endMicros: T3 })).toEqual({ 'r1 f:a': ['v2@T2'] });
    expect(await view({ kind: 'timestampRange', startMicros: undefined, endMicros: undefined })).toEqual(ALL);
  });

  it('valueEquals: the exact bytes, including metacharacters, binary and empty values', async () => {
    expect(toClientFilter({ kind: 'valueEquals', value: Buffer.from('x.y') })).toEqual({ value: Buffer.from('x.y') });
    expect(await view({ kind: 'valueEquals', value: Buffer.from('x.y') })).toEqual(only('r1 f:a.b', 'r2 f:a'));
    expect(await view({ kind: 'valueEquals', value: BIN })).toEqual(only('r1 f:a-b'));
    expect(await view({ kind: 'valueEquals', value: Buffer.alloc(0) })).toEqual(only('r1 f:e'));
    expect(await view({ kind: 'valueEquals', value: Buffer.from('x') })).toEqual({});
  });

  it('stripValue: empty values, timestamps kept', async () => {
    const stripped = await view({ kind: 'stripValue' });
    expect(stripped).toEqual(
      Object.fromEntries(Object.entries(ALL).map(([k, cells]) => [k, cells.map((c) => c.slice(c.lastIndexOf('@')))])),
    );
  });

  it('passAll and blockAll', async () => {
    expect(await view({ kind: 'passAll' })).toEqual(ALL);
    expect(await view({ kind: 'blockAll' })).toEqual({});
  });

  it('chain: filters in order, nested chains flattened, an empty chain passes all', async () => {
    const chain: RowFilter = {
      kind: 'chain',
      filters: [family('f'), qualifiers('a'), { kind: 'cellsPerColumn', limit: 1 }],
    };
    expect(toClientFilter(chain)).toEqual([
      { family: 'f' },
      { column: Buffer.from('a') },
      { column: { cellLimit: 1 } },
    ]);
    expect(await view(chain)).toEqual({ 'r1 f:a': ['v2@T2'], 'r2 f:a': ['x.y@T1'] });
    const nested: RowFilter = {
      kind: 'chain',
      filters: [
        { kind: 'chain', filters: [family('f'), qualifiers('a')] },
        { kind: 'cellsPerColumn', limit: 1 },
      ],
    };
    expect(toClientFilter(nested)).toEqual(toClientFilter(chain));
    expect(await view({ kind: 'chain', filters: [] })).toEqual(ALL);
    expect(
      await view({ kind: 'chain', filters: [family('f'), { kind: 'valueEquals', value: Buffer.from('x.y') }] }),
    ).toEqual(only('r1 f:a.b', 'r2 f:a'));
  });

  it('interleave: the union of its filters; empty blocks all, one is that filter', async () => {
    const union: RowFilter = {
      kind: 'interleave',
      filters: [family('g.x'), { kind: 'chain', filters: [family('f'), qualifiers('axb')] }],
    };
    expect(await view(union)).toEqual(only('r1 g.x:q', 'r1 f:axb'));
    expect(await view({ kind: 'interleave', filters: [] })).toEqual({});
    expect(await view({ kind: 'interleave', filters: [family('gax')] })).toEqual(only('r1 gax:q'));
  });
});
