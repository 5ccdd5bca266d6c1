import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { KeyRange, ReadRowsRequest, RowData } from '../../../src/model/driver.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { DriverError, TableNotFoundError, ValidationError } from '../../../src/errors/index.js';
import { GrpcCode, InMemoryBigtable } from '../../../src/testing/index.js';
import { MemoryTable, toId } from '../../../src/testing/in-memory-table.js';
import { rowsOf } from '../../support/rows-of.js';

const T = 1_700_000_000_000_000;
const set = (family: string, qualifier: string, value: string, timestampMicros = T): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros,
  value: Buffer.from(value),
});
const m = (table: string, key: string, ...mutations: CellMutation[]): CompiledMutation => ({
  table,
  rowKey: Buffer.from(key),
  rowKeyText: key,
  mutations,
  idempotent: true,
});
const versions = (row: RowData | undefined, family: string, qualifier: string): string[] =>
  (row?.cells[family]?.[qualifier] ?? []).map((c) => c.value.toString());

async function readAll(bigtable: InMemoryBigtable, request: ReadRowsRequest): Promise<RowData[]> {
  const rows: RowData[] = [];
  for await (const batch of bigtable.readRows(request)) rows.push(...batch);
  return rows;
}

describe('InMemoryBigtable', () => {
  it('records nothing by default, and says how to turn recording on', async () => {
    const bigtable = new InMemoryBigtable();
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    expect(() => bigtable.calls).toThrow(ValidationError);
    expect(() => bigtable.callsOf('mutateRow')).toThrow(/recordCalls: true/);
    expect(() => bigtable.reads).toThrow(ValidationError);
  });

  it('with recordCalls, records calls and the progress of reads until clearCalls()', async () => {
    const bigtable = new InMemoryBigtable({ recordCalls: true });
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    await bigtable.mutateRows({ table: 't', mutations: ['a', 'b', 'c'].map((k) => m('t', k, set('f', 'q', k))) });
    const source = bigtable.readRows({ table: 't' });
    for await (const _ of source) break;
    await readAll(bigtable, { table: 't', limit: 2 });
    expect(bigtable.calls.map((c) => c.method)).toEqual(['createTable', 'mutateRows', 'readRows', 'readRows']);
    expect(bigtable.callsOf('mutateRows')[0]?.mutations).toHaveLength(3);
    expect(bigtable.reads).toMatchObject([
      { yielded: 1, cancelled: true, ended: false },
      { yielded: 2, cancelled: false, ended: true },
    ]);
    bigtable.clearCalls();
    expect(bigtable.calls).toEqual([]);
    expect(bigtable.reads).toEqual([]);
    expect(bigtable.rows('t')).toHaveLength(3);
  });

  it('needs created tables unless implicitTables is set', async () => {
    const strict = new InMemoryBigtable();
    await expect(strict.mutateRow(m('t', 'k', set('f', 'q', 'v')))).rejects.toBeInstanceOf(TableNotFoundError);
    await expect(readAll(strict, { table: 't' })).rejects.toBeInstanceOf(TableNotFoundError);
    const loose = new InMemoryBigtable({ implicitTables: true });
    expect(await readAll(loose, { table: 't' })).toEqual([]);
    await loose.mutateRow(m('t', 'k', set('any', 'q', 'v')));
    expect(await loose.getFamilies({ table: 't' })).toEqual([{ name: 'any', gc: undefined }]);
  });

  it('failNext: a gRPC code fails the next call with that DriverError, before it changes anything; calls queue', async () => {
    const bigtable = new InMemoryBigtable();
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    bigtable.failNext('mutateRow', GrpcCode.Unavailable);
    bigtable.failNext('mutateRow', new Error('second'));
    const first = await bigtable.mutateRow(m('t', 'k', set('f', 'q', 'v'))).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DriverError);
    expect((first as DriverError).grpcCode).toBe(14);
    await expect(bigtable.mutateRow(m('t', 'k', set('f', 'q', 'v')))).rejects.toThrow('second');
    expect(bigtable.rows('t')).toEqual([]);
    await bigtable.mutateRow(m('t', 'k', set('f', 'q', 'v')));
    bigtable.failNext('readRows', GrpcCode.Internal);
    await expect(readAll(bigtable, { table: 't' })).rejects.toMatchObject({ grpcCode: 13 });
    expect(await readAll(bigtable, { table: 't' })).toHaveLength(1);
  });

  it('reject: every write of the row fails with the code; other rows are written', async () => {
    const bigtable = new InMemoryBigtable();
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    bigtable.reject('bad', GrpcCode.PermissionDenied);
    await expect(bigtable.mutateRow(m('t', 'bad', set('f', 'q', 'v')))).rejects.toMatchObject({ grpcCode: 7 });
    await expect(
      bigtable.increment({
        table: 't',
        rowKey: Buffer.from('bad'),
        rules: [{ family: 'f', qualifier: 'n', amount: 1n }],
      }),
    ).rejects.toMatchObject({ grpcCode: 7 });
    const failures = await bigtable.mutateRows({
      table: 't',
      mutations: [m('t', 'ok', set('f', 'q', 'v')), m('t', 'bad', set('f', 'q', 'v'))],
    });
    expect(failures).toEqual([{ index: 1, grpcCode: 7, message: expect.stringContaining('gRPC 7') }]);
    expect(bigtable.rows('t').map((r) => r.key.toString())).toEqual(['ok']);
  });

  it('seed writes fixtures without checks or recording, creating the table', () => {
    const bigtable = new InMemoryBigtable({ recordCalls: true });
    bigtable.seed(m('t', 'b', set('f', 'q', 'b')), m('t', 'a', set('g', 'q', 'a', 1)));
    expect(bigtable.rows('t').map((r) => r.key.toString())).toEqual(['a', 'b']);
    expect(bigtable.row('t', 'a')?.cells.g?.q).toEqual([{ value: Buffer.from('a'), timestampMicros: 1 }]);
    expect(bigtable.calls).toEqual([]);
  });

  it('collectGarbage applies maxVersions, maxAge, unions and intersections at its clock, per table', async () => {
    let now = T / 1000;
    const bigtable = new InMemoryBigtable({ nowMs: () => now });
    const hour = 3_600_000_000;
    await bigtable.createTable({
      table: 't',
      families: [
        { name: 'v', gc: { kind: 'maxVersions', count: 2 } },
        { name: 'a', gc: { kind: 'maxAge', seconds: 3_600 } },
        {
          name: 'u',
          gc: {
            kind: 'union',
            rules: [
              { kind: 'maxVersions', count: 2 },
              { kind: 'maxAge', seconds: 3_600 },
            ],
          },
        },
        {
          name: 'i',
          gc: {
            kind: 'intersection',
            rules: [
              { kind: 'maxVersions', count: 1 },
              { kind: 'maxAge', seconds: 3_600 },
            ],
          },
        },
        { name: 'n', gc: undefined },
      ],
    });
    await bigtable.createTable({ table: 'other', families: [{ name: 'v', gc: { kind: 'maxVersions', count: 1 } }] });
    const stamps = [T, T - 1_000, T - 2 * hour, T - 3 * hour];
    const cells = ['v', 'a', 'u', 'i', 'n'].flatMap((family) =>
      stamps.map((ts, i) => set(family, 'q', `${family}${i}`, ts)),
    );
    await bigtable.mutateRow(m('t', 'k', ...cells));
    await bigtable.mutateRow(m('t', 'gone', set('a', 'q', 'old', T - 2 * hour)));
    await bigtable.mutateRow(m('other', 'k', set('v', 'q', 'new', T), set('v', 'q', 'old', T - 1_000)));

    expect(bigtable.collectGarbage('t')).toBe(2 + 2 + 2 + 2 + 1);
    const row = bigtable.row('t', 'k');
    expect(versions(row, 'v', 'q')).toEqual(['v0', 'v1']);
    expect(versions(row, 'a', 'q')).toEqual(['a0', 'a1']);
    expect(versions(row, 'u', 'q')).toEqual(['u0', 'u1']);
    expect(versions(row, 'i', 'q')).toEqual(['i0', 'i1']);
    expect(versions(row, 'n', 'q')).toEqual(['n0', 'n1', 'n2', 'n3']);
    expect(bigtable.row('t', 'gone')).toBeUndefined();
    expect(versions(bigtable.row('other', 'k'), 'v', 'q')).toEqual(['new', 'old']);

    now += 2 * 3_600_000;
    expect(bigtable.collectGarbage()).toBe(2 + 2 + 1 + 1);
    expect(versions(bigtable.row('t', 'k'), 'a', 'q')).toEqual([]);
    expect(versions(bigtable.row('t', 'k'), 'u', 'q')).toEqual([]);
    expect(versions(bigtable.row('t', 'k'), 'v', 'q')).toEqual(['v0', 'v1']);
    expect(versions(bigtable.row('t', 'k'), 'i', 'q')).toEqual(['i0']);
    expect(versions(bigtable.row('other', 'k'), 'v', 'q')).toEqual(['new']);
  });

  it('collectGarbage leaves tables born of writes alone: they have no GC rules', () => {
    const bigtable = new InMemoryBigtable({ implicitTables: true });
    bigtable.seed(m('t', 'k', set('f', 'q', 'a', T), set('f', 'q', 'b', T - 1_000)));
    expect(bigtable.collectGarbage()).toBe(0);
  });

  it('completes calls under fake timers, and stamps server time with the mocked Date', async () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const bigtable = new InMemoryBigtable();
      await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
      await bigtable.mutateRow(m('t', 'k', set('f', 'q', 'v', -1)));
      const [row] = await readAll(bigtable, { table: 't' });
      expect(row?.cells.f?.q?.[0]?.timestampMicros).toBe(Date.UTC(2030, 0, 1) * 1000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with yieldInCalls false, calls finish in the order they were made', async () => {
    const bigtable = new InMemoryBigtable({ yieldInCalls: false, recordCalls: true });
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((k) => bigtable.mutateRow(m('t', k, set('f', 'q', k))).then(() => order.push(k))),
    );
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('a read keeps the rows it selected when others are written meanwhile, and shows their current cells', async () => {
    const bigtable = new InMemoryBigtable();
    await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
    await bigtable.mutateRows({ table: 't', mutations: ['a', 'c'].map((k) => m('t', k, set('f', 'q', k))) });
    const seen: string[] = [];
    for await (const row of rowsOf(bigtable.readRows({ table: 't' }))) {
      seen.push(`${row.key.toString()}=${row.cells.f?.q?.[0]?.value.toString() ?? ''}`);
      if (seen.length === 1) {
        await bigtable.mutateRow(m('t', 'b', set('f', 'q', 'b')));
        await bigtable.mutateRow(m('t', 'c', set('f', 'q', 'c2', T + 1_000)));
      }
    }
    expect(seen).toEqual(['a=a', 'c=c2']);
    expect(bigtable.rows('t').map((r) => r.key.toString())).toEqual(['a', 'b', 'c']);
  });
});

describe('MemoryTable.select', () => {
  const byte = fc.constantFrom(0x00, 0x23, 0x61, 0x62, 0x7f, 0x80, 0xc3, 0xff);
  const key = fc.array(byte, { minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes));
  const range: fc.Arbitrary<KeyRange> = fc.record({
    start: fc.record({ key: fc.oneof(key, fc.constant(Buffer.alloc(0))), inclusive: fc.boolean() }),
    end: fc.option(fc.record({ key, inclusive: fc.boolean() }), { nil: undefined }),
  });
  const op = fc.oneof(
    fc.record({ put: key }),
    fc.record({ remove: key }),
    fc.record({
      read: fc.record({
        keys: fc.option(fc.array(key, { maxLength: 3 }), { nil: undefined }),
        ranges: fc.option(fc.array(range, { maxLength: 3 }), { nil: undefined }),
        reversed: fc.boolean(),
      }),
    }),
  );

  it('selects what a scan of every row would, in key order, each row once, across writes and deletes', () => {
    const cell = { family: 'f', qualifier: 'q', timestampMicros: 0, value: Buffer.from('v') };
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const table = new MemoryTable(undefined);
        const model = new Map<string, Buffer>();
        for (const step of ops) {
          if ('put' in step) {
            table.put(toId(step.put), step.put, [cell]);
            model.set(toId(step.put), step.put);
          } else if ('remove' in step) {
            table.put(toId(step.remove), step.remove, []);
            model.delete(toId(step.remove));
          } else {
            const request: ReadRowsRequest = { table: 't', ...step.read };
            const all = [...model.values()].sort(Buffer.compare);
            const inRange = (k: Buffer, r: KeyRange): boolean => {
              const s = Buffer.compare(k, r.start.key);
              if (s < 0 || (s === 0 && !r.start.inclusive)) return false;
              if (r.end === undefined) return true;
              const e = Buffer.compare(k, r.end.key);
              return e < 0 || (e === 0 && r.end.inclusive);
            };
            const wanted =
              request.keys === undefined && request.ranges === undefined
                ? all
                : all.filter(
                    (k) =>
                      (request.keys ?? []).some((x) => x.equals(k)) ||
                      (request.ranges ?? []).some((r) => inRange(k, r)),
                  );
            const expected = wanted.map(toId);
            expect(table.select(request)).toEqual(request.reversed === true ? expected.reverse() : expected);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
