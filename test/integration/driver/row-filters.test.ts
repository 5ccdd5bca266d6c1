import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { toRowFilterMessage } from '../../../src/driver/row-filter-message.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

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
  for await (const row of rowsOf(driver.readRows({ table, filter }))) rows.push(row);
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
  await driver.createTable({ table, families: ['f', 'g.x', 'gax'].map((name) => ({ name, gc: undefined })) });
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
  expect(await driver.mutateRows({ table, mutations: rows })).toEqual([]);
  expect(await view({ kind: 'passAll' })).toEqual(ALL);
});

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('RowFilter → RowFilter message, against the emulator', () => {
  it('family: matches the exact name only (regex metacharacters escaped)', async () => {
    expect(toRowFilterMessage(family('g.x'))).toEqual({ familyNameRegexFilter: 'g\\.x' });
    expect(await view(family('g.x'))).toEqual(only('r1 g.x:q'));
    expect(await view(family('gax'))).toEqual(only('r1 gax:q'));
  });

  it('qualifiers: exact names, one or several; none blocks everything', async () => {
    expect(toRowFilterMessage(qualifiers('a.b'))).toEqual({ columnQualifierRegexFilter: Buffer.from('a\\.b') });
    expect(await view(qualifiers('a.b'))).toEqual(only('r1 f:a.b'));
    expect(await view(qualifiers('a-b', 'e'))).toEqual(only('r1 f:a-b', 'r1 f:e'));
    expect(await view(qualifiers())).toEqual({});
  });

  it('cellsPerColumn: the newest versions only', async () => {
    expect(toRowFilterMessage({ kind: 'cellsPerColumn', limit: 1 })).toEqual({ cellsPerColumnLimitFilter: 1 });
    expect((await view({ kind: 'cellsPerColumn', limit: 1 }))['r1 f:a']).toEqual(['v2@T2']);
    expect((await view({ kind: 'cellsPerColumn', limit: 2 }))['r1 f:a']).toEqual(['v2@T2', 'v1@T1']);
  });

  it('timestampRange: [start, end) sent in whole milliseconds; either bound may be open', async () => {
    expect(toRowFilterMessage({ kind: 'timestampRange', startMicros: T1, endMicros: T2 })).toEqual({
      timestampRangeFilter: { startTimestampMicros: T1, endTimestampMicros: T2 },
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
    expect(toRowFilterMessage({ kind: 'valueEquals', value: Buffer.from('x.y') })).toEqual({
      valueRegexFilter: Buffer.from('x\\.y'),
    });
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
    expect(toRowFilterMessage(chain)).toEqual({
      chain: {
        filters: [
          { familyNameRegexFilter: 'f' },
          { columnQualifierRegexFilter: Buffer.from('a') },
          { cellsPerColumnLimitFilter: 1 },
        ],
      },
    });
    expect(await view(chain)).toEqual({ 'r1 f:a': ['v2@T2'], 'r2 f:a': ['x.y@T1'] });
    const nested: RowFilter = {
      kind: 'chain',
      filters: [
        { kind: 'chain', filters: [family('f'), qualifiers('a')] },
        { kind: 'cellsPerColumn', limit: 1 },
      ],
    };
    expect(toRowFilterMessage(nested)).toEqual(toRowFilterMessage(chain));
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

describe('hostile names and values match exactly themselves', () => {
  const hostile = uniqueTableId('drv-filter-hostile');
  const QUALIFIERS = [
    '.',
    '*',
    '\\',
    'a-b',
    'x|y',
    '(a)',
    '[a-z]',
    '^a$',
    '{1}',
    '+?',
    'é',
    'ñ.ü',
    '😀',
    'a\nb',
    'plain',
  ];
  const VALUES: Record<string, Buffer> = {
    'not-utf8': Buffer.from([0xc3, 0x2a, 0xff, 0x5c]),
    meta: Buffer.from('(.*)|[^-]'),
    backslash: Buffer.from('\\'),
    utf8: Buffer.from('é*'),
  };

  /** `{ 'f:q': ['value (hex)'] }` of the one row, under `filter`. */
  async function cells(filter: RowFilter): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for await (const row of rowsOf(driver.readRows({ table: hostile, filter }))) {
      for (const [fam, columns] of Object.entries(row.cells))
        for (const [qualifier, versions] of Object.entries(columns))
          out[`${fam}:${qualifier}`] = versions.map((c) => c.value.toString('hex'));
    }
    return out;
  }

  beforeAll(async () => {
    await driver.createTable({
      table: hostile,
      families: [
        { name: 'f', gc: undefined },
        { name: 'v', gc: undefined },
      ],
    });
    const mutations: CellMutation[] = [
      ...QUALIFIERS.map((q) => set('f', q, `q:${q}`)),
      ...Object.entries(VALUES).map(([q, value]) => set('v', q, value)),
    ];
    const row = { table: hostile, rowKey: Buffer.from('h'), rowKeyText: 'h', mutations, idempotent: true };
    expect(await driver.mutateRows({ table: hostile, mutations: [row] })).toEqual([]);
  });

  afterAll(async () => {
    await driver.deleteTable({ table: hostile }).catch(() => undefined);
  });

  it('a qualifier filter matches only that qualifier, alone or among several', async () => {
    for (const q of QUALIFIERS) {
      expect(await cells(qualifiers(q)), JSON.stringify(q)).toEqual({
        [`f:${q}`]: [Buffer.from(`q:${q}`).toString('hex')],
      });
    }
    expect(Object.keys(await cells(qualifiers('*', '\\', 'é')))).toEqual(['f:*', 'f:\\', 'f:é']);
  });

  it('a value filter matches only those bytes, UTF-8 or not', async () => {
    for (const [q, value] of Object.entries(VALUES)) {
      expect(await cells({ kind: 'valueEquals', value }), q).toEqual({ [`v:${q}`]: [value.toString('hex')] });
    }
  });
});
