import { describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import { DriverError } from '../../../src/errors/index.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

const set = (family: string, qualifier: string, value: string, timestampMicros: number): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros,
  value: Buffer.from(value),
});
const m = (key: string, ...mutations: CellMutation[]): CompiledMutation => ({
  table: 't',
  rowKey: Buffer.from(key),
  rowKeyText: key,
  mutations,
  idempotent: true,
});

async function read(
  driver: FakeDriver,
  request: Partial<Parameters<FakeDriver['readRows']>[0]> = {},
): Promise<RowData[]> {
  const rows: RowData[] = [];
  for await (const batch of driver.readRows({ table: 't', ...request })) rows.push(...batch);
  return rows;
}
const keys = (rows: readonly RowData[]): string[] => rows.map((r) => r.key.toString());
const simplify = (row: RowData | undefined): Record<string, Record<string, [string, number][]>> | undefined =>
  row === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(row.cells).map(([f, qs]) => [
          f,
          Object.fromEntries(
            Object.entries(qs).map(([q, cs]) => [
              q,
              cs.map((c) => [c.value.toString(), c.timestampMicros] as [string, number]),
            ]),
          ),
        ]),
      );

describe('FakeDriver', () => {
  it('keeps rows in byte order and versions newest first; same timestamp overwrites', async () => {
    const driver = new FakeDriver();
    driver.seed(
      m('b', set('f', 'q', 'v1', 1000), set('f', 'q', 'v3', 3000), set('f', 'q', 'v2', 2000)),
      m('a', set('f', 'q', 'x', 1000)),
      m('\u00e9', set('f', 'q', 'x', 1000)),
      m('B', set('f', 'q', 'x', 1000)),
    );
    driver.seed(m('b', set('f', 'q', 'v2b', 2000)));
    expect(keys(driver.rows('t'))).toEqual(['B', 'a', 'b', '\u00e9']);
    expect(simplify(driver.row('t', 'b'))).toEqual({
      f: {
        q: [
          ['v3', 3000],
          ['v2b', 2000],
          ['v1', 1000],
        ],
      },
    });
  });

  it('applies deletes and drops rows left without cells', async () => {
    const driver = new FakeDriver();
    driver.seed(m('r', set('f', 'a', '1', 1000), set('f', 'b', '2', 1000), set('g', 'c', '3', 1000)));
    driver.seed(m('r', { kind: 'deleteFromColumn', family: 'f', qualifier: 'a' }));
    expect(simplify(driver.row('t', 'r'))).toEqual({ f: { b: [['2', 1000]] }, g: { c: [['3', 1000]] } });
    driver.seed(m('r', { kind: 'deleteFromFamily', family: 'g' }));
    expect(simplify(driver.row('t', 'r'))).toEqual({ f: { b: [['2', 1000]] } });
    driver.seed(m('r', { kind: 'deleteFromRow' }, set('f', 'z', 'new', 5000)));
    expect(simplify(driver.row('t', 'r'))).toEqual({ f: { z: [['new', 5000]] } });
    driver.seed(m('r', { kind: 'deleteFromRow' }));
    expect(driver.row('t', 'r')).toBeUndefined();
    expect(driver.rows('t')).toEqual([]);
  });

  it('reads ranges, keys and limits', async () => {
    const driver = new FakeDriver();
    for (const k of ['a', 'b', 'c', 'd', 'e']) driver.seed(m(k, set('f', 'q', k, 1000)));
    const b = (s: string) => Buffer.from(s);
    expect(keys(await read(driver))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(
      keys(
        await read(driver, {
          ranges: [{ start: { key: b('b'), inclusive: false }, end: { key: b('d'), inclusive: true } }],
        }),
      ),
    ).toEqual(['c', 'd']);
    expect(
      keys(await read(driver, { ranges: [{ start: { key: b('b'), inclusive: true }, end: undefined }], limit: 2 })),
    ).toEqual(['b', 'c']);
    expect(keys(await read(driver, { keys: [b('e'), b('a'), b('zz')] }))).toEqual(['a', 'e']);
    expect(
      keys(
        await read(driver, { ranges: [{ start: { key: b('d'), inclusive: true }, end: undefined }], keys: [b('a')] }),
      ),
    ).toEqual(['a', 'd', 'e']);
    expect(keys(await read(driver, { table: 'missing' }))).toEqual([]);
  });

  it('applies row filters', async () => {
    const driver = new FakeDriver();
    driver.seed(
      m(
        'r',
        set('f', 'a', 'a3', 3000),
        set('f', 'a', 'a2', 2000),
        set('f', 'a', 'a1', 1000),
        set('f', 'b', 'b1', 1000),
        set('g', 'a', 'g1', 1000),
      ),
    );
    driver.seed(m('s', set('g', 'a', 'only-g', 1000)));
    const run = async (filter: RowFilter) =>
      (await read(driver, { filter })).map((r) => [r.key.toString(), simplify(r)]);
    expect(
      await run({
        kind: 'chain',
        filters: [
          { kind: 'family', name: 'f' },
          { kind: 'cellsPerColumn', limit: 2 },
        ],
      }),
    ).toEqual([
      [
        'r',
        {
          f: {
            a: [
              ['a3', 3000],
              ['a2', 2000],
            ],
            b: [['b1', 1000]],
          },
        },
      ],
    ]);
    expect(
      await run({
        kind: 'chain',
        filters: [
          { kind: 'qualifiers', names: ['a'] },
          { kind: 'timestampRange', startMicros: 2000, endMicros: 3000 },
        ],
      }),
    ).toEqual([['r', { f: { a: [['a2', 2000]] } }]]);
    expect(
      await run({
        kind: 'interleave',
        filters: [
          { kind: 'chain', filters: [{ kind: 'family', name: 'g' }] },
          {
            kind: 'chain',
            filters: [
              { kind: 'family', name: 'f' },
              { kind: 'qualifiers', names: ['b'] },
            ],
          },
        ],
      }),
    ).toEqual([
      ['r', { f: { b: [['b1', 1000]] }, g: { a: [['g1', 1000]] } }],
      ['s', { g: { a: [['only-g', 1000]] } }],
    ]);
    expect(
      await run({ kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] }),
    ).toEqual([
      ['r', { f: { a: [['', 3000]], b: [['', 1000]] }, g: { a: [['', 1000]] } }],
      ['s', { g: { a: [['', 1000]] } }],
    ]);
    expect(await run({ kind: 'valueEquals', value: Buffer.from('b1') })).toEqual([['r', { f: { b: [['b1', 1000]] } }]]);
    expect(await run({ kind: 'blockAll' })).toEqual([]);
    expect((await run({ kind: 'passAll' })).map(([k]) => k)).toEqual(['r', 's']);
  });

  it('records every call and tracks cancellation', async () => {
    const driver = new FakeDriver();
    for (const k of ['a', 'b', 'c']) driver.seed(m(k, set('f', 'q', k, 1000)));
    const source = driver.readRows({ table: 't' });
    for await (const _ of source) {
      source.cancel();
    }
    expect(driver.reads[0]).toMatchObject({ yielded: 1, cancelled: true, ended: false });
    await driver.mutateRow(m('d', set('f', 'q', 'd', 1000)));
    expect(driver.calls.map((c) => c.method)).toEqual(['readRows', 'mutateRow']);
    expect(driver.callsOf('mutateRow')[0]?.mutation.rowKeyText).toBe('d');
  });

  it('rejects chosen row keys: mutateRow throws, mutateRows reports the entry', async () => {
    const driver = new FakeDriver();
    driver.reject('bad', GrpcCode.Internal, 'boom');
    await expect(driver.mutateRow(m('bad', set('f', 'q', 'x', 1000)))).rejects.toMatchObject({
      name: 'DriverError',
      grpcCode: 13,
    });
    const failures = await driver.mutateRows({
      table: 't',
      mutations: [m('ok', set('f', 'q', 'x', 1000)), m('bad', set('f', 'q', 'x', 1000))],
    });
    expect(failures).toEqual([{ index: 1, grpcCode: 13, message: 'boom' }]);
    expect(keys(driver.rows('t'))).toEqual(['ok']);
  });

  it('enforces the 100,000-mutation cap and millisecond timestamps like the service', async () => {
    const driver = new FakeDriver();
    const big = m('k', ...new Array<CellMutation>(100_001).fill(set('f', 'q', 'x', 1000)));
    await expect(driver.mutateRows({ table: 't', mutations: [big] })).rejects.toMatchObject({
      grpcCode: GrpcCode.InvalidArgument,
    });
    expect(await driver.mutateRows({ table: 't', mutations: [m('k', set('f', 'q', 'x', 1001))] })).toEqual([
      expect.objectContaining({ index: 0, grpcCode: GrpcCode.InvalidArgument }),
    ]);
  });

  it('fails the next call on demand', async () => {
    const driver = new FakeDriver();
    driver.failNext('mutateRows', Object.assign(new Error('unavailable'), { code: GrpcCode.Unavailable }));
    await expect(driver.mutateRows({ table: 't', mutations: [m('a', set('f', 'q', 'x', 1000))] })).rejects.toThrow(
      'unavailable',
    );
    expect(await driver.mutateRows({ table: 't', mutations: [m('a', set('f', 'q', 'x', 1000))] })).toEqual([]);
  });

  it('checkAndMutate applies the branch of the predicate outcome', async () => {
    const driver = new FakeDriver();
    const predicate: RowFilter = {
      kind: 'chain',
      filters: [
        { kind: 'qualifiers', names: ['st'] },
        { kind: 'cellsPerColumn', limit: 1 },
        { kind: 'valueEquals', value: Buffer.from('pending') },
      ],
    };
    driver.seed(m('j', set('f', 'st', 'pending', 1000)));
    const request = {
      table: 't',
      rowKey: Buffer.from('j'),
      predicate,
      onMatch: [set('f', 'st', 'running', 2000)],
      onNoMatch: [set('f', 'other', 'x', 2000)],
    };
    expect(await driver.checkAndMutate(request)).toBe(true);
    expect(simplify(driver.row('t', 'j'))?.f?.st?.[0]).toEqual(['running', 2000]);
    expect(await driver.checkAndMutate(request)).toBe(false);
    expect(simplify(driver.row('t', 'j'))?.f?.other).toEqual([['x', 2000]]);
    expect(await driver.checkAndMutate({ ...request, rowKey: Buffer.from('missing'), predicate: undefined })).toBe(
      false,
    );
  });

  it('increments int64 cells, a missing cell counting as 0', async () => {
    const driver = new FakeDriver({ nowMs: () => 5 });
    const one = await driver.increment({
      table: 't',
      rowKey: Buffer.from('c'),
      rules: [{ family: 'f', qualifier: 'n', amount: 2n }],
    });
    expect(one.cells.f?.n?.[0]?.value.readBigInt64BE()).toBe(2n);
    const two = await driver.increment({
      table: 't',
      rowKey: Buffer.from('c'),
      rules: [{ family: 'f', qualifier: 'n', amount: -5n }],
    });
    expect(two.cells.f?.n?.[0]).toEqual({ value: Buffer.from('fffffffffffffffd', 'hex'), timestampMicros: 5000 });
    driver.seed(m('s', set('f', 'n', 'abc', 1000)));
    await expect(
      driver.increment({ table: 't', rowKey: Buffer.from('s'), rules: [{ family: 'f', qualifier: 'n', amount: 1n }] }),
    ).rejects.toBeInstanceOf(DriverError);
  });

  it('implements the admin methods; declared tables reject unknown families', async () => {
    const driver = new FakeDriver();
    expect(await driver.getFamilies({ table: 'x' })).toBeUndefined();
    await driver.createTable({ table: 'x', families: [{ name: 'f', gc: { kind: 'maxVersions', count: 1 } }] });
    await expect(driver.createTable({ table: 'x', families: [] })).rejects.toMatchObject({
      grpcCode: GrpcCode.AlreadyExists,
    });
    await driver.createFamily({ table: 'x', family: { name: 'g', gc: undefined } });
    await driver.setFamilyGc({ table: 'x', family: 'g', gc: { kind: 'maxAge', seconds: 60 } });
    expect(await driver.getFamilies({ table: 'x' })).toEqual([
      { name: 'f', gc: { kind: 'maxVersions', count: 1 } },
      { name: 'g', gc: { kind: 'maxAge', seconds: 60 } },
    ]);
    expect(
      await driver.mutateRows({ table: 'x', mutations: [{ ...m('k', set('h', 'q', 'v', 1000)), table: 'x' }] }),
    ).toEqual([expect.objectContaining({ index: 0, grpcCode: GrpcCode.NotFound })]);
    await driver.deleteFamily({ table: 'x', family: 'g' });
    expect(await driver.listTables()).toEqual(['x']);
    await driver.deleteTable({ table: 'x' });
    expect(await driver.listTables()).toEqual([]);
    await driver.close();
    expect(driver.closed).toBe(true);
  });
});
