import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableDriver, CallOptions, ReadRowsRequest, RowData } from '../../src/model/driver.js';
import type { CellMutation, CompiledMutation, PreparedMutation } from '../../src/model/mutation.js';
import type { GcRule } from '../../src/model/gc-rule.js';
import type { RowFilter } from '../../src/model/row-filter.js';
import type { BatchStream } from '../../src/stream/batch-stream.js';
import { gcRuleKey } from '../../src/metadata/gc-rule.js';
import { isTransientStatus } from '../../src/driver/retry-rules.js';
import {
  DeadlineExceededError,
  DriverError,
  OperationAbortedError,
  TableNotFoundError,
  ValidationError,
} from '../../src/errors/index.js';
import { rowsOf } from '../support/rows-of.js';
import { deadlineSignal } from '../../src/util/operation-signal.js';

/**
 * What the driver contract runs against: the public in-memory Bigtable
 * (`InMemoryBigtable`, `bigtable-mapper/testing`) in the unit project, the
 * real driver on the emulator in the integration project.
 *
 * @example
 * ```ts
 * describeDriverContract('InMemoryBigtable', { open: () => new InMemoryBigtable(), tableId: uniqueTableId });
 * ```
 */
export interface DriverContractSubject {
  /** A new driver on the instance the suite's tables live in; the suite closes every driver it opens. */
  open(): BigtableDriver;
  /** A table id no other test of the run uses. */
  tableId(label: string): string;
}

const T1 = 1_700_000_000_000_000;
const T2 = T1 + 1_000;
const T3 = T1 + 2_000;
const LABELS: Record<number, string> = { [T1]: 'T1', [T2]: 'T2', [T3]: 'T3' };
/** Bytes that are RE2 metacharacters or not UTF-8, for exact-match filters. */
const BIN = Buffer.from([0xff, 0x2e, 0x00, 0x2d, 0x80]);

const set = (family: string, qualifier: string, value: string | Buffer, timestampMicros = T1): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros,
  value: Buffer.isBuffer(value) ? value : Buffer.from(value),
});

const int64 = (n: bigint): Buffer => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(n);
  return bytes;
};

function mutation(table: string, key: string | Buffer, ...mutations: CellMutation[]): CompiledMutation {
  const rowKey = Buffer.isBuffer(key) ? key : Buffer.from(key);
  return { table, rowKey, rowKeyText: rowKey.toString('latin1'), mutations, idempotent: true };
}

/** Every row of a read, collected (rejects with the read's error). */
async function readAll(driver: BigtableDriver, request: ReadRowsRequest, call?: CallOptions): Promise<RowData[]> {
  const rows: RowData[] = [];
  for await (const batch of driver.readRows(request, call)) rows.push(...batch);
  return rows;
}

/** `{ 'row family:qualifier': ['value@T1', ...] }`: keys and values as latin1, known timestamps by name. */
function view(rows: readonly RowData[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const row of rows) {
    for (const [family, columns] of Object.entries(row.cells)) {
      for (const [qualifier, cells] of Object.entries(columns)) {
        out[`${row.key.toString('latin1')} ${family}:${qualifier}`] = cells.map(
          (c) => `${c.value.toString('latin1')}@${LABELS[c.timestampMicros] ?? String(c.timestampMicros)}`,
        );
      }
    }
  }
  return out;
}

const keysOf = (rows: readonly RowData[]): string[] => rows.map((r) => r.key.toString('latin1'));

/** The error a call rejects with; fails the test when it resolves. */
function failure(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => {
      throw new Error('expected the call to reject, but it resolved');
    },
    (error: unknown) => error,
  );
}

/** A DriverError the mapper would not retry (the request itself is wrong), whatever code the server picked. */
function expectPermanentDriverError(error: unknown, mentions?: string): void {
  expect(error).toBeInstanceOf(DriverError);
  const { grpcCode, message } = error as DriverError;
  expect(grpcCode).toBeTypeOf('number');
  expect(isTransientStatus(grpcCode, message)).toBe(false);
  if (mentions !== undefined) expect(message).toContain(mentions);
}

function expectGrpcCode(error: unknown, code: number): void {
  expect(error).toBeInstanceOf(DriverError);
  expect((error as DriverError).grpcCode).toBe(code);
}

/** A data call on a missing table: `TableNotFoundError` (a DriverError with gRPC 5) naming it. */
function expectTableMissing(error: unknown, table: string): void {
  expectGrpcCode(error, 5);
  expect(error).toBeInstanceOf(TableNotFoundError);
  expect((error as TableNotFoundError).table).toBe(table);
  expect((error as TableNotFoundError).message).toContain(`table ${JSON.stringify(table)} does not exist`);
}

/** Families as `name gcRuleKey` (the canonical rule: union and intersection members in any order). */
const familySummary = (
  families: readonly { name: string; gc: GcRule | undefined }[] | undefined,
): string[] | undefined => families?.map((f) => `${f.name} ${gcRuleKey(f.gc)}`);

const maxVersions = (count: number): GcRule => ({ kind: 'maxVersions', count });
const maxAge = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });
const family = (name: string): RowFilter => ({ kind: 'family', name });
const qualifiers = (...names: string[]): RowFilter => ({ kind: 'qualifiers', names });
const chain = (...filters: RowFilter[]): RowFilter => ({ kind: 'chain', filters });
const interleave = (...filters: RowFilter[]): RowFilter => ({ kind: 'interleave', filters });
const timestampRange = (startMicros: number | undefined, endMicros: number | undefined): RowFilter => ({
  kind: 'timestampRange',
  startMicros,
  endMicros,
});
const valueEquals = (value: string | Buffer): RowFilter => ({
  kind: 'valueEquals',
  value: Buffer.isBuffer(value) ? value : Buffer.from(value),
});

/**
 * The behaviour every {@link BigtableDriver} must share with Bigtable, as one
 * suite: admin calls, mutations, reads with every row set and filter kind,
 * check-and-mutate, increments, call options, cancel and close. Where the
 * emulator and the service pick different status codes for a bad request,
 * it asserts that the call fails with a code the mapper does not retry.
 *
 * @example
 * ```ts
 * describeDriverContract('GoogleCloudDriver on the emulator', { open: () => createGoogleCloudDriver(...), tableId: uniqueTableId });
 * ```
 */
export function describeDriverContract(name: string, subject: DriverContractSubject): void {
  describe(`BigtableDriver contract: ${name}`, () => {
    let driver: BigtableDriver;
    const tables: string[] = [];
    const opened: BigtableDriver[] = [];

    async function newTable(families: readonly string[] = ['f', 'g'], label = 'contract'): Promise<string> {
      const table = subject.tableId(label);
      tables.push(table);
      await driver.createTable({ table, families: families.map((name) => ({ name, gc: undefined })) });
      return table;
    }

    const readKey = async (table: string, key: string | Buffer): Promise<Record<string, string[]>> =>
      view(await readAll(driver, { table, keys: [Buffer.isBuffer(key) ? key : Buffer.from(key)] }));

    beforeAll(() => {
      driver = subject.open();
      opened.push(driver);
    });

    afterAll(async () => {
      for (const table of tables) await driver.deleteTable({ table }).catch(() => undefined);
      for (const each of opened) await each.close();
    });

    describe('admin calls', () => {
      it('createTable creates the families with their GC rules; getFamilies lists them by name; listTables lists the table', async () => {
        const table = subject.tableId('contract-admin');
        tables.push(table);
        await driver.createTable({
          table,
          families: [
            { name: 'g', gc: undefined },
            { name: 'f', gc: { kind: 'union', rules: [maxVersions(2), maxAge(3_600)] } },
            { name: 'h', gc: { kind: 'intersection', rules: [maxVersions(1), maxAge(86_400)] } },
            { name: 'a', gc: maxVersions(1) },
          ],
        });
        expect(familySummary(await driver.getFamilies({ table }))).toEqual([
          'a v1',
          'f union(a3600,v2)',
          'g none',
          'h intersection(a86400,v1)',
        ]);
        const listed = await driver.listTables();
        expect(listed).toContain(table);
        expect(listed).toEqual([...listed].sort());
      });

      it('createTable rejects an existing table with gRPC 6 and leaves it as it was', async () => {
        const table = await newTable(['f']);
        expectGrpcCode(await failure(driver.createTable({ table, families: [{ name: 'other', gc: undefined }] })), 6);
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['f none']);
      });

      it('createFamily adds a family with its GC rule; an existing family rejects with gRPC 6', async () => {
        const table = await newTable(['f']);
        await driver.createFamily({ table, family: { name: 'k', gc: maxAge(60) } });
        await driver.createFamily({ table, family: { name: 'b', gc: undefined } });
        expectGrpcCode(await failure(driver.createFamily({ table, family: { name: 'f', gc: maxVersions(1) } })), 6);
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['b none', 'f none', 'k a60']);
      });

      it('setFamilyGc replaces the rule and undefined removes it; an unknown family rejects', async () => {
        const table = subject.tableId('contract-gc');
        tables.push(table);
        await driver.createTable({
          table,
          families: [
            { name: 'f', gc: maxVersions(2) },
            { name: 'g', gc: undefined },
          ],
        });
        await driver.setFamilyGc({ table, family: 'g', gc: { kind: 'union', rules: [maxAge(10), maxVersions(3)] } });
        await driver.setFamilyGc({ table, family: 'f', gc: undefined });
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['f none', 'g union(a10,v3)']);
        expect(await failure(driver.setFamilyGc({ table, family: 'nope', gc: maxVersions(1) }))).toBeInstanceOf(
          DriverError,
        );
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['f none', 'g union(a10,v3)']);
      });

      it('deleteFamily drops the family and its cells, and rows left without cells; an unknown family rejects', async () => {
        const table = await newTable(['f', 'g']);
        expect(
          await driver.mutateRows({
            table,
            mutations: [
              mutation(table, 'both', set('f', 'a', 'x'), set('g', 'b', 'y')),
              mutation(table, 'g-only', set('g', 'b', 'z')),
            ],
          }),
        ).toEqual([]);
        await driver.deleteFamily({ table, family: 'g' });
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['f none']);
        expect(view(await readAll(driver, { table }))).toEqual({ 'both f:a': ['x@T1'] });
        expect(await failure(driver.deleteFamily({ table, family: 'nope' }))).toBeInstanceOf(DriverError);
      });

      it('deleteTable drops the table and its rows: it is no longer listed, and a new table of that name is empty', async () => {
        const table = await newTable(['f']);
        await driver.mutateRow(mutation(table, 'k', set('f', 'a', 'x')));
        await driver.deleteTable({ table });
        expect(await driver.getFamilies({ table })).toBeUndefined();
        expect(await driver.listTables()).not.toContain(table);
        await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('admin calls on a missing table reject with gRPC 5; getFamilies resolves undefined', async () => {
        const table = subject.tableId('contract-missing');
        expect(await driver.getFamilies({ table })).toBeUndefined();
        expectGrpcCode(await failure(driver.deleteTable({ table })), 5);
        expectGrpcCode(await failure(driver.createFamily({ table, family: { name: 'f', gc: undefined } })), 5);
        expectGrpcCode(await failure(driver.setFamilyGc({ table, family: 'f', gc: maxVersions(1) })), 5);
        expectGrpcCode(await failure(driver.deleteFamily({ table, family: 'f' })), 5);
        expect(await driver.listTables()).not.toContain(table);
      });
    });

    describe('aggregate families', () => {
      const add = (family: string, qualifier: string, input: bigint): CellMutation => ({
        kind: 'addToCell',
        family,
        qualifier,
        timestampMicros: 0,
        input,
      });
      const merge = (family: string, qualifier: string, state: bigint): CellMutation => ({
        kind: 'mergeToCell',
        family,
        qualifier,
        timestampMicros: 0,
        state: int64(state),
      });
      const total = (row: RowData | undefined, family: string, qualifier: string): bigint[] =>
        (row?.cells[family]?.[qualifier] ?? []).map((c) => c.value.readBigInt64BE());

      async function sumTable(): Promise<string> {
        const table = subject.tableId('contract-sum');
        tables.push(table);
        await driver.createTable({
          table,
          families: [
            { name: 's', gc: undefined, aggregate: 'sum' },
            { name: 'p', gc: undefined },
          ],
        });
        return table;
      }

      it('createTable and createFamily give a family its aggregate, which getFamilies reports; plain families have none', async () => {
        const table = await sumTable();
        await driver.createFamily({ table, family: { name: 't', gc: undefined, aggregate: 'sum' } });
        expect((await driver.getFamilies({ table }))?.map((f) => [f.name, f.aggregate])).toEqual([
          ['p', undefined],
          ['s', 'sum'],
          ['t', 'sum'],
        ]);
      });

      it('addToCell and mergeToCell fold into one sum cell per column, in one atomic write with the setCells of a plain family', async () => {
        const table = await sumTable();
        await driver.mutateRow({ ...mutation(table, 'k', add('s', 'n', 5n), set('p', 'q', 'v')), idempotent: false });
        await driver.mutateRow({ ...mutation(table, 'k', add('s', 'n', 7n), add('s', 'n', -3n)), idempotent: false });
        await driver.mutateRow({ ...mutation(table, 'k', merge('s', 'n', 100n)), idempotent: false });
        const failures = await driver.mutateRows({
          table,
          mutations: [
            { ...mutation(table, 'k', add('s', 'big', 2n ** 62n)), idempotent: false },
            { ...mutation(table, 'k', add('s', 'big', 2n ** 62n - 1n)), idempotent: false },
          ],
        });
        expect(failures).toEqual([]);
        const [row] = await readAll(driver, { table, keys: [Buffer.from('k')] });
        expect(total(row, 's', 'n')).toEqual([109n]);
        expect(total(row, 's', 'big')).toEqual([2n ** 63n - 1n]);
        expect(row?.cells['s']?.['n']?.[0]?.timestampMicros).toBe(0);
        expect(row?.cells['p']?.['q']?.[0]?.value.toString()).toBe('v');
      });

      it('rejects addToCell on a plain family', async () => {
        const table = await sumTable();
        const error = await failure(
          driver.mutateRow({ ...mutation(table, 'k', add('p', 'n', 1n)), idempotent: false }),
        );
        expect(error).toBeInstanceOf(DriverError);
      });
    });

    describe('mutateRow', () => {
      it('writes versions newest first per column; the same timestamp overwrites; timestamp 0 is kept', async () => {
        const table = await newTable();
        await driver.mutateRow(
          mutation(
            table,
            'k',
            set('f', 'q', 'b', T2),
            set('f', 'q', 'a', T1),
            set('f', 'q', 'c', T3),
            set('f', 'q', 'z', 0),
          ),
        );
        await driver.mutateRow(mutation(table, 'k', set('f', 'q', 'B', T2), set('g', 'q', 'other', T1)));
        expect(await readKey(table, 'k')).toEqual({ 'k f:q': ['c@T3', 'B@T2', 'a@T1', 'z@0'], 'k g:q': ['other@T1'] });
      });

      it('applies deleteFromColumn, deleteFromFamily and deleteFromRow in order with the setCells around them', async () => {
        const table = await newTable();
        await driver.mutateRow(
          mutation(
            table,
            'k',
            set('f', 'a', 'a1', T1),
            set('f', 'a', 'a0', T1 - 1_000),
            set('f', 'b', 'b'),
            set('g', 'c', 'c'),
          ),
        );
        await driver.mutateRow(
          mutation(table, 'k', { kind: 'deleteFromColumn', family: 'f', qualifier: 'a' }, set('f', 'a', 'a2', T2)),
        );
        expect(await readKey(table, 'k')).toEqual({ 'k f:a': ['a2@T2'], 'k f:b': ['b@T1'], 'k g:c': ['c@T1'] });
        await driver.mutateRow(mutation(table, 'k', set('g', 'd', 'd'), { kind: 'deleteFromFamily', family: 'g' }));
        expect(await readKey(table, 'k')).toEqual({ 'k f:a': ['a2@T2'], 'k f:b': ['b@T1'] });
        await driver.mutateRow(mutation(table, 'k', { kind: 'deleteFromRow' }, set('f', 'new', 'n', T3)));
        expect(await readKey(table, 'k')).toEqual({ 'k f:new': ['n@T3'] });
        await driver.mutateRow(mutation(table, 'k', { kind: 'deleteFromRow' }));
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('deleting a missing row, column or family succeeds without writing; an empty mutation list is a no-op', async () => {
        const table = await newTable();
        await driver.mutateRow(mutation(table, 'absent', { kind: 'deleteFromRow' }));
        await driver.mutateRow(mutation(table, 'absent', { kind: 'deleteFromColumn', family: 'f', qualifier: 'q' }));
        await driver.mutateRow(mutation(table, 'absent', { kind: 'deleteFromFamily', family: 'f' }));
        await driver.mutateRow(mutation(table, 'absent'));
        await driver.mutateRow(mutation(subject.tableId('contract-missing'), 'k'));
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('timestamp -1 asks for the server time, in whole milliseconds', async () => {
        const table = await newTable();
        const before = Date.now();
        await driver.mutateRow(mutation(table, 'k', set('f', 'q', 'now', -1)));
        const after = Date.now();
        const [row] = await readAll(driver, { table });
        const stamp = row?.cells.f?.q?.[0]?.timestampMicros ?? Number.NaN;
        expect(stamp % 1_000).toBe(0);
        expect(stamp).toBeGreaterThanOrEqual((before - 1_000) * 1_000);
        expect(stamp).toBeLessThanOrEqual((after + 1_000) * 1_000);
      });

      it('rejects an unknown family, a timestamp that is not whole milliseconds, a negative one and an empty key, writing nothing', async () => {
        const table = await newTable();
        expectPermanentDriverError(
          await failure(driver.mutateRow(mutation(table, 'k', set('nope', 'a', 'x'), set('f', 'a', 'x')))),
          'nope',
        );
        expectPermanentDriverError(await failure(driver.mutateRow(mutation(table, 'k', set('f', 'a', 'x', T1 + 1)))));
        expectPermanentDriverError(await failure(driver.mutateRow(mutation(table, 'k', set('f', 'a', 'x', -2_000)))));
        expectPermanentDriverError(await failure(driver.mutateRow(mutation(table, '', set('f', 'a', 'x')))));
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('rejects with TableNotFoundError when the table is missing', async () => {
        const table = subject.tableId('contract-missing');
        expectTableMissing(await failure(driver.mutateRow(mutation(table, 'k', set('f', 'a', 'x')))), table);
      });
    });

    describe('mutateRows', () => {
      it('applies every entry in order and resolves [] when all succeeded', async () => {
        const table = await newTable();
        await driver.mutateRow(mutation(table, 'r2', set('f', 'old', 'o'), set('g', 'old', 'o')));
        const batch = [
          mutation(table, 'r1', set('f', 'a', '1'), set('f', 'a', '1b', T2)),
          mutation(table, 'r2', { kind: 'deleteFromFamily', family: 'g' }, set('f', 'a', '2')),
          mutation(
            table,
            'r3',
            set('g', 'b', '3'),
            { kind: 'deleteFromColumn', family: 'g', qualifier: 'b' },
            set('f', 'a', '3'),
          ),
        ];
        expect(await driver.mutateRows({ table, mutations: batch })).toEqual([]);
        expect(view(await readAll(driver, { table }))).toEqual({
          'r1 f:a': ['1b@T2', '1@T1'],
          'r2 f:a': ['2@T1'],
          'r2 f:old': ['o@T1'],
          'r3 f:a': ['3@T1'],
        });
      });

      it('reports the failed entries by input index and writes the others; rows without mutations are skipped', async () => {
        const table = await newTable();
        const batch = [
          mutation(table, 'e0'),
          mutation(table, 'r1', set('nope', 'a', '1'), set('f', 'a', '1')),
          mutation(table, 'r2', { kind: 'deleteFromRow' }, set('f', 'a', '2')),
          mutation(table, 'e3'),
          mutation(table, 'r4', set('f', 'a', '4', T1 + 1)),
          mutation(table, '', set('f', 'a', '5')),
          { ...mutation(table, 'r6', set('f', 'a', '6')), idempotent: false },
        ];
        const failures = await driver.mutateRows({ table, mutations: batch });
        expect(failures.map((f) => f.index)).toEqual([1, 4, 5]);
        for (const f of failures) {
          expect(f.grpcCode).toBeTypeOf('number');
          expect(isTransientStatus(f.grpcCode, f.message)).toBe(false);
        }
        expect(failures[0]?.message).toContain('nope');
        expect(view(await readAll(driver, { table }))).toEqual({ 'r2 f:a': ['2@T1'], 'r6 f:a': ['6@T1'] });
      });

      it('rejects the whole call: gRPC 5 for a missing table, ValidationError for an entry of another table', async () => {
        const missing = subject.tableId('contract-missing');
        expectTableMissing(
          await failure(driver.mutateRows({ table: missing, mutations: [mutation(missing, 'k', set('f', 'a', 'x'))] })),
          missing,
        );
        const table = await newTable();
        expect(
          await failure(
            driver.mutateRows({
              table,
              mutations: [mutation(table, 'a', set('f', 'a', 'x')), mutation('other', 'b', set('f', 'a', 'x'))],
            }),
          ),
        ).toBeInstanceOf(ValidationError);
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('writes the mutations its prepareMutation() made (when it has one) as the compiled ones, mixed with compiled ones', async () => {
        const table = await newTable();
        const prepare = (m: CompiledMutation): CompiledMutation | PreparedMutation => driver.prepareMutation?.(m) ?? m;
        const batch = [
          prepare(mutation(table, 'p1', set('f', 'a', '1'), set('f', 'a', '1b', T2), set('g', 'b', BIN))),
          mutation(table, 'c2', set('f', 'a', '2')),
          prepare(mutation(table, 'p3', set('nope', 'a', '3'))),
          prepare(mutation(table, 'p4')),
          prepare({ ...mutation(table, 'p5', { kind: 'deleteFromRow' }, set('f', 'a', '5')), idempotent: false }),
        ];
        for (const m of batch) expect(m.rowKeyText).toMatch(/^[pc]\d$/);
        const failures = await driver.mutateRows({ table, mutations: batch });
        expect(failures.map((f) => f.index)).toEqual([2]);
        expect(failures[0]?.message).toContain('nope');
        expect(view(await readAll(driver, { table }))).toEqual({
          'p1 f:a': ['1b@T2', '1@T1'],
          'p1 g:b': [`${BIN.toString('latin1')}@T1`],
          'c2 f:a': ['2@T1'],
          'p5 f:a': ['5@T1'],
        });
      });

      it('rejects a prepared mutation it did not make with ValidationError, writing nothing', async () => {
        const table = await newTable();
        const foreign: PreparedMutation = {
          kind: 'prepared',
          table,
          rowKey: Buffer.from('x'),
          rowKeyText: 'x',
          idempotent: true,
          cellCount: 1,
        };
        const error = await failure(
          driver.mutateRows({ table, mutations: [mutation(table, 'a', set('f', 'a', 'x')), foreign] }),
        );
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as Error).message).toContain('mutation #1 was prepared by another kind of driver');
        expect(await readAll(driver, { table })).toEqual([]);
      });

      it('resolves [] for an empty batch or one of rows without mutations, even on a missing table', async () => {
        const missing = subject.tableId('contract-missing');
        expect(await driver.mutateRows({ table: missing, mutations: [] })).toEqual([]);
        expect(await driver.mutateRows({ table: missing, mutations: [mutation(missing, 'k')] })).toEqual([]);
      });
    });

    describe('readRows', () => {
      const TEXT_KEYS = ['a#1', 'a#2', 'a#3', 'a#4', 'a#5', 'b#1', 'c', '\u00e9'];
      const BINARY_KEYS = [
        Buffer.from([0x00]),
        Buffer.from([0x61, 0x80]),
        Buffer.from([0xfe, 0xff]),
        Buffer.from([0xff, 0xff]),
      ];
      const ALL_KEYS = [
        '\x00',
        'a#1',
        'a#2',
        'a#3',
        'a#4',
        'a#5',
        'a\x80',
        'b#1',
        'c',
        '\xc3\xa9',
        '\xfe\xff',
        '\xff\xff',
      ];
      let table: string;
      const bound = (key: string, inclusive = true) => ({ key: Buffer.from(key, 'latin1'), inclusive });
      const keys = async (request: Omit<ReadRowsRequest, 'table'>): Promise<string[]> =>
        keysOf(await readAll(driver, { table, ...request }));

      beforeAll(async () => {
        table = await newTable(['f'], 'contract-read');
        const rows = [
          ...TEXT_KEYS.map((k) => mutation(table, k, set('f', 'v', `value of ${k}`))),
          ...BINARY_KEYS.map((k) => mutation(table, k, set('f', 'bin', Buffer.concat([BIN, k])))),
          mutation(table, 'a#4', set('f', 'w', 'w4')),
          mutation(table, 'c', set('f', 'w', 'wc')),
        ];
        expect(await driver.mutateRows({ table, mutations: rows })).toEqual([]);
      });

      it('reads the whole table in byte order, keys and values as bytes', async () => {
        const rows = await readAll(driver, { table });
        expect(keysOf(rows)).toEqual(ALL_KEYS);
        expect(rows[0]).toEqual({
          key: Buffer.from([0x00]),
          cells: { f: { bin: [{ value: Buffer.concat([BIN, Buffer.from([0x00])]), timestampMicros: T1 }] } },
        });
        expect(rows[9]?.cells).toEqual({ f: { v: [{ value: Buffer.from('value of \u00e9'), timestampMicros: T1 }] } });
      });

      it('reads exact keys in key order, once each, skipping missing ones', async () => {
        expect(
          await keys({ keys: [Buffer.from('c'), Buffer.from('zzz'), Buffer.from('a#3'), Buffer.from('c')] }),
        ).toEqual(['a#3', 'c']);
        expect(await keys({ keys: [Buffer.from([0xff, 0xff]), Buffer.from([0x00])] })).toEqual(['\x00', '\xff\xff']);
      });

      it('honours inclusive and exclusive range bounds', async () => {
        expect(await keys({ ranges: [{ start: bound('a#2'), end: bound('a#4', false) }] })).toEqual(['a#2', 'a#3']);
        expect(await keys({ ranges: [{ start: bound('a#2', false), end: bound('a#4') }] })).toEqual(['a#3', 'a#4']);
        expect(await keys({ ranges: [{ start: bound('a#2'), end: bound('a#2') }] })).toEqual(['a#2']);
        expect(await keys({ ranges: [{ start: bound('a#'), end: bound('a$', false) }] })).toEqual([
          'a#1',
          'a#2',
          'a#3',
          'a#4',
          'a#5',
        ]);
      });

      it('reads to the end of the table without an end bound, and from the first row with an empty start key', async () => {
        expect(await keys({ ranges: [{ start: bound('c'), end: undefined }] })).toEqual([
          'c',
          '\xc3\xa9',
          '\xfe\xff',
          '\xff\xff',
        ]);
        expect(await keys({ ranges: [{ start: bound(''), end: bound('a#2', false) }] })).toEqual(['\x00', 'a#1']);
        expect(await keys({ ranges: [{ start: bound('', false), end: bound('a#1') }] })).toEqual(['\x00', 'a#1']);
        expect(await keys({ ranges: [{ start: bound(''), end: undefined }] })).toEqual(ALL_KEYS);
      });

      it('unions ranges and keys, overlapping ones included, each row once', async () => {
        const ranges = [
          { start: bound('a#1'), end: bound('a#3') },
          { start: bound('a#2'), end: bound('a#4', false) },
          { start: bound('b'), end: bound('c') },
        ];
        expect(await keys({ ranges })).toEqual(['a#1', 'a#2', 'a#3', 'b#1', 'c']);
        expect(
          await keys({ ranges, keys: [Buffer.from('a#2'), Buffer.from('a#5'), Buffer.from([0xff, 0xff])] }),
        ).toEqual(['a#1', 'a#2', 'a#3', 'a#5', 'b#1', 'c', '\xff\xff']);
      });

      it('reads nothing for empty ranges or keys, reversed or empty ranges, and limit 0', async () => {
        expect(await keys({ ranges: [] })).toEqual([]);
        expect(await keys({ keys: [] })).toEqual([]);
        expect(await keys({ ranges: [], keys: [] })).toEqual([]);
        expect(await keys({ limit: 0 })).toEqual([]);
        expect(
          await keys({
            ranges: [
              { start: bound('b'), end: bound('a') },
              { start: bound('a#2'), end: bound('a#2', false) },
              { start: bound('a#2', false), end: bound('a#2') },
              { start: bound('a'), end: bound('') },
            ],
          }),
        ).toEqual([]);
      });

      it('stops after limit rows, counting only the rows the filter leaves', async () => {
        expect(await keys({ limit: 2 })).toEqual(['\x00', 'a#1']);
        expect(await keys({ ranges: [{ start: bound('a#4'), end: undefined }], limit: 3 })).toEqual([
          'a#4',
          'a#5',
          'a\x80',
        ]);
        expect(await keys({ limit: 1, filter: qualifiers('w') })).toEqual(['a#4']);
        expect(await keys({ limit: 5, filter: qualifiers('w') })).toEqual(['a#4', 'c']);
      });

      it('reversed: reads ranges and keys in descending byte order, limit keeping the largest keys', async () => {
        expect(await keys({ reversed: true })).toEqual([...ALL_KEYS].reverse());
        expect(await keys({ reversed: true, ranges: [{ start: bound('a#2'), end: bound('a#4', false) }] })).toEqual([
          'a#3',
          'a#2',
        ]);
        const ranges = [
          { start: bound('a#1'), end: bound('a#3') },
          { start: bound('a#2'), end: bound('a#4', false) },
        ];
        expect(await keys({ reversed: true, ranges, keys: [Buffer.from('c'), Buffer.from('\x00', 'latin1')] })).toEqual(
          ['c', 'a#3', 'a#2', 'a#1', '\x00'],
        );
        expect(await keys({ reversed: true, limit: 3 })).toEqual(['\xff\xff', '\xfe\xff', '\xc3\xa9']);
        expect(await keys({ reversed: true, limit: 1, filter: qualifiers('w') })).toEqual(['c']);
        expect(await keys({ reversed: false, limit: 1 })).toEqual(['\x00']);
      });

      it('rejects a negative or fractional limit with ValidationError', async () => {
        expect(await failure(readAll(driver, { table, limit: -1 }))).toBeInstanceOf(ValidationError);
        expect(await failure(readAll(driver, { table, limit: 1.5 }))).toBeInstanceOf(ValidationError);
      });

      it('rejects with TableNotFoundError when the table is missing', async () => {
        const missing = subject.tableId('contract-missing');
        expectTableMissing(await failure(readAll(driver, { table: missing })), missing);
      });
    });

    describe('readRows filters', () => {
      let table: string;
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
      type Column = keyof typeof ALL;
      const only = (...columns: Column[]): Record<string, string[]> =>
        Object.fromEntries(columns.map((c) => [c, ALL[c]]));
      const filtered = async (filter: RowFilter): Promise<Record<string, string[]>> =>
        view(await readAll(driver, { table, filter }));

      beforeAll(async () => {
        table = await newTable(['f', 'g.x', 'gax'], 'contract-filter');
        const r1 = mutation(
          table,
          'r1',
          set('f', 'a', 'v1', T1),
          set('f', 'a', 'v2', T2),
          set('f', 'a.b', 'x.y'),
          set('f', 'axb', 'xzy'),
          set('f', 'a-b', BIN),
          set('f', 'e', ''),
          set('g.x', 'q', 'gx', T3),
          set('gax', 'q', 'gax', T3),
        );
        expect(
          await driver.mutateRows({ table, mutations: [r1, mutation(table, 'r2', set('f', 'a', 'x.y'))] }),
        ).toEqual([]);
      });

      it('passAll keeps every cell; blockAll keeps none, and rows left without cells are left out', async () => {
        expect(await filtered({ kind: 'passAll' })).toEqual(ALL);
        expect(await readAll(driver, { table, filter: { kind: 'blockAll' } })).toEqual([]);
      });

      it('family matches the exact name, metacharacters included', async () => {
        expect(await filtered(family('g.x'))).toEqual(only('r1 g.x:q'));
        expect(await filtered(family('gax'))).toEqual(only('r1 gax:q'));
        expect(keysOf(await readAll(driver, { table, filter: family('g.x') }))).toEqual(['r1']);
        expect(await filtered(family('g'))).toEqual({});
      });

      it('qualifiers match exact names in any family; none blocks everything', async () => {
        expect(await filtered(qualifiers('a.b'))).toEqual(only('r1 f:a.b'));
        expect(await filtered(qualifiers('a', 'e'))).toEqual(only('r1 f:a', 'r1 f:e', 'r2 f:a'));
        expect(await filtered(qualifiers('q'))).toEqual(only('r1 g.x:q', 'r1 gax:q'));
        expect(await filtered(qualifiers())).toEqual({});
      });

      it('cellsPerColumn keeps the newest versions of each column', async () => {
        expect(await filtered({ kind: 'cellsPerColumn', limit: 1 })).toEqual({ ...ALL, 'r1 f:a': ['v2@T2'] });
        expect(await filtered({ kind: 'cellsPerColumn', limit: 2 })).toEqual(ALL);
      });

      it('timestampRange keeps [start, end), either bound open; bounds inside a millisecond round up', async () => {
        expect(await filtered(timestampRange(T2, T3))).toEqual({ 'r1 f:a': ['v2@T2'] });
        expect(await filtered(timestampRange(T3, undefined))).toEqual(only('r1 g.x:q', 'r1 gax:q'));
        expect(await filtered(timestampRange(undefined, T2))).toEqual({
          ...only('r1 f:a.b', 'r1 f:axb', 'r1 f:a-b', 'r1 f:e', 'r2 f:a'),
          'r1 f:a': ['v1@T1'],
        });
        expect(await filtered(timestampRange(T1 + 1, T2 + 1))).toEqual({ 'r1 f:a': ['v2@T2'] });
        expect(await filtered(timestampRange(undefined, undefined))).toEqual(ALL);
        expect(await filtered(timestampRange(T3, T3))).toEqual({});
      });

      it('valueEquals matches the exact bytes, metacharacters, binary and empty values included', async () => {
        expect(await filtered(valueEquals('x.y'))).toEqual(only('r1 f:a.b', 'r2 f:a'));
        expect(await filtered(valueEquals(BIN))).toEqual(only('r1 f:a-b'));
        expect(await filtered(valueEquals(''))).toEqual(only('r1 f:e'));
        expect(await filtered(valueEquals('v1'))).toEqual({ 'r1 f:a': ['v1@T1'] });
      });

      it('stripValue keeps every cell with an empty value', async () => {
        const stripped = Object.fromEntries(
          Object.entries(ALL).map(([column, cells]) => [column, cells.map((c) => c.slice(c.lastIndexOf('@')))]),
        );
        expect(await filtered({ kind: 'stripValue' })).toEqual(stripped);
      });

      it('chain applies its steps in order; an empty chain passes everything', async () => {
        expect(await filtered(chain({ kind: 'cellsPerColumn', limit: 1 }, valueEquals('v1')))).toEqual({});
        expect(await filtered(chain(valueEquals('v1'), { kind: 'cellsPerColumn', limit: 1 }))).toEqual({
          'r1 f:a': ['v1@T1'],
        });
        expect(await filtered(chain(family('f'), qualifiers('a'), { kind: 'cellsPerColumn', limit: 1 }))).toEqual({
          'r1 f:a': ['v2@T2'],
          'r2 f:a': ['x.y@T1'],
        });
        expect(await filtered(chain(chain(family('f'), qualifiers('e')), { kind: 'stripValue' }))).toEqual(
          only('r1 f:e'),
        );
        expect(await filtered(chain())).toEqual(ALL);
      });

      it('interleave merges the outputs of its branches, a cell output by two branches twice; an empty one blocks everything', async () => {
        expect(await filtered(interleave(family('g.x'), qualifiers('a.b')))).toEqual(only('r1 g.x:q', 'r1 f:a.b'));
        expect(
          await filtered(interleave(qualifiers('a'), chain(family('f'), qualifiers('a'), valueEquals('v1')))),
        ).toEqual({
          'r1 f:a': ['v2@T2', 'v1@T1', 'v1@T1'],
          'r2 f:a': ['x.y@T1'],
        });
        expect(await filtered(interleave(family('gax')))).toEqual(only('r1 gax:q'));
        expect(await filtered(interleave())).toEqual({});
      });

      it('condition applies pass to the whole row when its test yields a cell, fail otherwise', async () => {
        const condition: RowFilter = {
          kind: 'condition',
          test: qualifiers('e'),
          pass: family('gax'),
          fail: { kind: 'stripValue' },
        };
        expect(await filtered(condition)).toEqual({ 'r1 gax:q': ['gax@T3'], 'r2 f:a': ['@T1'] });
        expect(
          await filtered({
            kind: 'condition',
            test: { kind: 'blockAll' },
            pass: { kind: 'passAll' },
            fail: qualifiers('q'),
          }),
        ).toEqual(only('r1 g.x:q', 'r1 gax:q'));
      });
    });

    describe('checkAndMutate', () => {
      let table: string;
      const statusIs = (value: string): RowFilter =>
        chain(family('f'), qualifiers('status'), { kind: 'cellsPerColumn', limit: 1 }, valueEquals(value));
      const request = (
        key: string,
        predicate: RowFilter | undefined,
        onMatch: CellMutation[],
        onNoMatch: CellMutation[],
      ) => ({ table, rowKey: Buffer.from(key), predicate, onMatch, onNoMatch });

      beforeAll(async () => {
        table = await newTable(['f', 'c'], 'contract-check');
      });

      it('applies onMatch and resolves true when the predicate yields a cell; onNoMatch and false otherwise', async () => {
        await driver.mutateRow(mutation(table, 'job', set('f', 'status', 'pending', T1)));
        const claim = request(
          'job',
          statusIs('pending'),
          [set('f', 'status', 'running', T2)],
          [set('f', 'conflict', 'y')],
        );
        expect(await driver.checkAndMutate(claim)).toBe(true);
        expect(await readKey(table, 'job')).toEqual({ 'job f:status': ['running@T2', 'pending@T1'] });
        expect(await driver.checkAndMutate(claim)).toBe(false);
        expect(await readKey(table, 'job')).toEqual({
          'job f:status': ['running@T2', 'pending@T1'],
          'job f:conflict': ['y@T1'],
        });
      });

      it('without a predicate, matches when the row has any cell; onNoMatch creates a missing row', async () => {
        expect(
          await driver.checkAndMutate(request('new', undefined, [set('f', 'm', 'm')], [set('f', 'created', '1')])),
        ).toBe(false);
        expect(await readKey(table, 'new')).toEqual({ 'new f:created': ['1@T1'] });
        expect(await driver.checkAndMutate(request('new', undefined, [set('f', 'm', 'm')], [set('f', 'n', 'n')]))).toBe(
          true,
        );
        expect(await readKey(table, 'new')).toEqual({ 'new f:created': ['1@T1'], 'new f:m': ['m@T1'] });
      });

      it('a predicate never matches a missing row', async () => {
        expect(await driver.checkAndMutate(request('absent', { kind: 'passAll' }, [set('f', 'm', '1')], []))).toBe(
          false,
        );
        expect(await readKey(table, 'absent')).toEqual({});
      });

      it('applies delete mutations in order with the setCells around them', async () => {
        await driver.mutateRow(mutation(table, 'del', set('f', 'tmp', 't'), set('f', 'keep', 'k'), set('c', 'n', 'n')));
        const steps: CellMutation[] = [
          { kind: 'deleteFromColumn', family: 'f', qualifier: 'tmp' },
          set('f', 'tmp', 'u', T2),
        ];
        expect(await driver.checkAndMutate(request('del', qualifiers('keep'), steps, []))).toBe(true);
        expect(await readKey(table, 'del')).toEqual({
          'del f:tmp': ['u@T2'],
          'del f:keep': ['k@T1'],
          'del c:n': ['n@T1'],
        });
        const dropCounters: CellMutation[] = [{ kind: 'deleteFromFamily', family: 'c' }];
        expect(await driver.checkAndMutate(request('del', qualifiers('nothing'), [], dropCounters))).toBe(false);
        expect(await readKey(table, 'del')).toEqual({ 'del f:tmp': ['u@T2'], 'del f:keep': ['k@T1'] });
        const replace: CellMutation[] = [{ kind: 'deleteFromRow' }, set('f', 'only', 'o')];
        expect(await driver.checkAndMutate(request('del', undefined, replace, []))).toBe(true);
        expect(await readKey(table, 'del')).toEqual({ 'del f:only': ['o@T1'] });
      });

      it('with both branches empty, resolves whether the predicate matched and writes nothing', async () => {
        await driver.mutateRow(mutation(table, 'quiet', set('f', 'a', 'x')));
        expect(await driver.checkAndMutate(request('quiet', valueEquals('x'), [], []))).toBe(true);
        expect(await driver.checkAndMutate(request('quiet', valueEquals('y'), [], []))).toBe(false);
        expect(await readKey(table, 'quiet')).toEqual({ 'quiet f:a': ['x@T1'] });
      });

      it('rejects an unknown family in the chosen branch, applying nothing, and a missing table with TableNotFoundError', async () => {
        await driver.mutateRow(mutation(table, 'bad', set('f', 'a', 'x')));
        expectPermanentDriverError(
          await failure(
            driver.checkAndMutate(request('bad', undefined, [set('nope', 'a', 'y'), set('f', 'b', 'y')], [])),
          ),
          'nope',
        );
        expect(await readKey(table, 'bad')).toEqual({ 'bad f:a': ['x@T1'] });
        const missing = subject.tableId('contract-missing');
        expectTableMissing(
          await failure(
            driver.checkAndMutate({ ...request('k', undefined, [set('f', 'a', 'b')], []), table: missing }),
          ),
          missing,
        );
      });
    });

    describe('increment', () => {
      let table: string;
      const rule = (qualifier: string, amount: bigint) => ({ family: 'c', qualifier, amount });
      const valueOf = (row: RowData, qualifier: string): bigint | undefined =>
        row.cells.c?.[qualifier]?.[0]?.value.readBigInt64BE();

      beforeAll(async () => {
        table = await newTable(['c', 'f'], 'contract-increment');
      });

      it('starts a missing cell at 0 and resolves the new values as 8-byte big-endian int64, which it stores', async () => {
        const key = Buffer.from('ctr');
        const first = await driver.increment({
          table,
          rowKey: key,
          rules: [rule('hits.total', 5n), rule('big', 2n ** 53n + 1n), rule('neg', -5n)],
        });
        expect(first.key).toEqual(key);
        expect(first.cells.c?.['hits.total']?.[0]?.value).toEqual(int64(5n));
        expect(first.cells.c?.big?.[0]?.value).toEqual(int64(2n ** 53n + 1n));
        expect(first.cells.c?.neg?.[0]?.value).toEqual(int64(-5n));
        const second = await driver.increment({
          table,
          rowKey: key,
          rules: [rule('big', 2n ** 62n), rule('hits.total', -7n)],
        });
        expect(valueOf(second, 'big')).toBe(2n ** 62n + 2n ** 53n + 1n);
        expect(valueOf(second, 'hits.total')).toBe(-2n);
        expect(Object.keys(second.cells)).toEqual(['c']);
        expect(Object.keys(second.cells.c ?? {}).sort()).toEqual(['big', 'hits.total']);
        const [stored] = await readAll(driver, { table, keys: [key], filter: { kind: 'cellsPerColumn', limit: 1 } });
        expect(stored?.cells.c?.big?.[0]?.value).toEqual(int64(2n ** 62n + 2n ** 53n + 1n));
        expect(stored?.cells.c?.['hits.total']?.[0]?.value).toEqual(int64(-2n));
        expect(stored?.cells.c?.neg?.[0]?.value).toEqual(int64(-5n));
      });

      it('adds to the newest version; wraps around at the int64 bounds', async () => {
        await driver.mutateRow(
          mutation(
            table,
            'versions',
            set('c', 'n', int64(10n), T2),
            set('c', 'n', int64(100n), T1),
            set('c', 'max', int64(2n ** 63n - 1n)),
          ),
        );
        const row = await driver.increment({
          table,
          rowKey: Buffer.from('versions'),
          rules: [rule('n', 1n), rule('max', 1n)],
        });
        expect(valueOf(row, 'n')).toBe(11n);
        expect(valueOf(row, 'max')).toBe(-(2n ** 63n));
      });

      it('adds every rule of the same cell in one call', async () => {
        const row = await driver.increment({
          table,
          rowKey: Buffer.from('twice'),
          rules: [rule('n', 1n), rule('n', 2n)],
        });
        expect(valueOf(row, 'n')).toBe(3n);
        const [stored] = await readAll(driver, {
          table,
          keys: [Buffer.from('twice')],
          filter: { kind: 'cellsPerColumn', limit: 1 },
        });
        expect(stored?.cells.c?.n?.[0]?.value).toEqual(int64(3n));
      });

      it('stamps new cells with the server time in whole milliseconds, or with a newer timestamp the cell already has', async () => {
        const before = Date.now();
        const row = await driver.increment({ table, rowKey: Buffer.from('stamp'), rules: [rule('n', 1n)] });
        const after = Date.now();
        const stamp = row.cells.c?.n?.[0]?.timestampMicros ?? Number.NaN;
        expect(stamp % 1_000).toBe(0);
        expect(stamp).toBeGreaterThanOrEqual((before - 1_000) * 1_000);
        expect(stamp).toBeLessThanOrEqual((after + 1_000) * 1_000);
        const future = 4_000_000_000_000_000;
        await driver.mutateRow(mutation(table, 'future', set('c', 'n', int64(5n), future)));
        const later = await driver.increment({ table, rowKey: Buffer.from('future'), rules: [rule('n', 1n)] });
        expect(later.cells.c?.n).toEqual([{ value: int64(6n), timestampMicros: future }]);
      });

      it('rejects empty rules and amounts outside int64 with ValidationError, writing nothing', async () => {
        const key = Buffer.from('invalid');
        expect(await failure(driver.increment({ table, rowKey: key, rules: [] }))).toBeInstanceOf(ValidationError);
        expect(await failure(driver.increment({ table, rowKey: key, rules: [rule('n', 2n ** 63n)] }))).toBeInstanceOf(
          ValidationError,
        );
        expect(
          await failure(driver.increment({ table, rowKey: key, rules: [rule('n', -(2n ** 63n) - 1n)] })),
        ).toBeInstanceOf(ValidationError);
        expect(
          await failure(driver.increment({ table, rowKey: key, rules: [rule('n', 1 as unknown as bigint)] })),
        ).toBeInstanceOf(ValidationError);
        expect(await readKey(table, key)).toEqual({});
      });

      it('rejects a cell that is not 8 bytes, an unknown family, and a missing table with a DriverError (TableNotFoundError)', async () => {
        await driver.mutateRow(mutation(table, 'text', set('c', 'n', 'abc')));
        const notInt = await failure(driver.increment({ table, rowKey: Buffer.from('text'), rules: [rule('n', 1n)] }));
        expect(notInt).toBeInstanceOf(DriverError);
        expect((notInt as DriverError).message).toMatch(/64-bit/);
        expect(await readKey(table, 'text')).toEqual({ 'text c:n': ['abc@T1'] });
        expectPermanentDriverError(
          await failure(
            driver.increment({
              table,
              rowKey: Buffer.from('k'),
              rules: [{ family: 'nope', qualifier: 'n', amount: 1n }],
            }),
          ),
          'nope',
        );
        const missing = subject.tableId('contract-missing');
        expectTableMissing(
          await failure(driver.increment({ table: missing, rowKey: Buffer.from('k'), rules: [rule('n', 1n)] })),
          missing,
        );
      });
    });

    describe('sampleRowKeys', () => {
      // The emulator answers with about 1 % of the rows picked at random, the last row and the empty key;
      // InMemoryBigtable with every 100th row and the empty key; Bigtable with tablet boundaries.
      it('an empty table: only the end of the table, the empty key at offset 0', async () => {
        const table = await newTable(['f'], 'contract-samples');
        expect(await driver.sampleRowKeys({ table })).toEqual([{ key: Buffer.alloc(0), offsetBytes: 0 }]);
      });

      it('keys of the table in ascending order, offsets growing, the empty key last', async () => {
        const table = await newTable(['f'], 'contract-samples');
        const keys = Array.from({ length: 1_000 }, (_, i) => `s${String(i).padStart(4, '0')}`);
        await driver.mutateRows({
          table,
          mutations: keys.map((key) => mutation(table, key, set('f', 'a', Buffer.alloc(50, 1)))),
        });
        const samples = await driver.sampleRowKeys({ table });
        const last = samples[samples.length - 1];
        expect(last?.key).toEqual(Buffer.alloc(0));
        expect(last?.offsetBytes).toBeGreaterThanOrEqual(50_000);
        const inner = samples.slice(0, -1);
        expect(inner.length).toBeGreaterThan(0);
        for (const sample of inner) expect(keys).toContain(sample.key.toString('latin1'));
        for (let i = 1; i < samples.length; i++) {
          const [before, after] = [samples[i - 1], samples[i]];
          if (i < inner.length) expect(Buffer.compare(before?.key as Buffer, after?.key as Buffer)).toBe(-1);
          expect(after?.offsetBytes).toBeGreaterThanOrEqual(before?.offsetBytes as number);
        }
      });

      it('rejects with TableNotFoundError when the table is missing', async () => {
        expect(await failure(driver.sampleRowKeys({ table: subject.tableId('contract-missing') }))).toBeInstanceOf(
          TableNotFoundError,
        );
      });
    });

    describe('call options', () => {
      let table: string;

      /** Every driver call once, each started with `call` when its thunk runs. */
      function everyCall(call: CallOptions): [string, () => Promise<unknown>][] {
        const key = Buffer.from('k');
        return [
          ['listTables', () => driver.listTables({}, call)],
          ['getFamilies', () => driver.getFamilies({ table }, call)],
          ['createTable', () => driver.createTable({ table: subject.tableId('contract-options'), families: [] }, call)],
          ['createFamily', () => driver.createFamily({ table, family: { name: 'new', gc: undefined } }, call)],
          ['setFamilyGc', () => driver.setFamilyGc({ table, family: 'f', gc: maxVersions(1) }, call)],
          ['deleteFamily', () => driver.deleteFamily({ table, family: 'f' }, call)],
          ['deleteTable', () => driver.deleteTable({ table }, call)],
          ['mutateRow', () => driver.mutateRow(mutation(table, 'k', set('f', 'a', 'x')), call)],
          [
            'mutateRows',
            () => driver.mutateRows({ table, mutations: [mutation(table, 'k', set('f', 'a', 'x'))] }, call),
          ],
          ['readRows', () => readAll(driver, { table }, call)],
          [
            'checkAndMutate',
            () =>
              driver.checkAndMutate(
                { table, rowKey: key, predicate: undefined, onMatch: [], onNoMatch: [set('f', 'a', 'x')] },
                call,
              ),
          ],
          [
            'increment',
            () => driver.increment({ table, rowKey: key, rules: [{ family: 'f', qualifier: 'n', amount: 1n }] }, call),
          ],
          ['sampleRowKeys', () => driver.sampleRowKeys({ table }, call)],
        ];
      }

      async function expectUntouched(): Promise<void> {
        expect(familySummary(await driver.getFamilies({ table }))).toEqual(['f none']);
        expect(view(await readAll(driver, { table }))).toEqual({ 'seed f:a': ['s@T1'] });
      }

      beforeAll(async () => {
        table = await newTable(['f'], 'contract-options');
        await driver.mutateRow(mutation(table, 'seed', set('f', 'a', 's')));
      });

      it('an aborted signal rejects every call with OperationAbortedError carrying the reason, changing nothing', async () => {
        const controller = new AbortController();
        controller.abort(new Error('stopped by the caller'));
        for (const [method, start] of everyCall({ signal: controller.signal })) {
          const error = await failure(start());
          expect(error, method).toBeInstanceOf(OperationAbortedError);
          expect((error as Error).message, method).toContain('stopped by the caller');
        }
        await expectUntouched();
      });

      it('a deadline in the past rejects every call with DeadlineExceededError, changing nothing', async () => {
        for (const [method, start] of everyCall({ signal: deadlineSignal(0) })) {
          expect(await failure(start()), method).toBeInstanceOf(DeadlineExceededError);
        }
        await expectUntouched();
      });
    });

    describe('cancel and close', () => {
      let table: string;

      beforeAll(async () => {
        table = await newTable(['f'], 'contract-cancel');
        const rows = ['a', 'b', 'c', 'd'].map((k) => mutation(table, k, set('f', 'q', k)));
        expect(await driver.mutateRows({ table, mutations: rows })).toEqual([]);
      });

      it('cancel() before the first pull reads nothing; during the read, it ends the read; more calls change nothing', async () => {
        const early = driver.readRows({ table });
        early.cancel();
        early.cancel();
        expect(keysOf(await collect(early))).toEqual([]);
        const source = driver.readRows({ table });
        const batches: string[][] = [];
        for await (const batch of source) {
          batches.push(keysOf(batch));
          source.cancel();
          source.cancel();
        }
        expect(batches).toHaveLength(1);
        expect(batches[0]?.[0]).toBe('a');
        source.cancel();
      });

      it('a read ended early by leaving the loop does not disturb the next one', async () => {
        for await (const row of rowsOf(driver.readRows({ table }))) {
          expect(row.key.toString()).toBe('a');
          break;
        }
        expect(keysOf(await readAll(driver, { table }))).toEqual(['a', 'b', 'c', 'd']);
      });

      it('after close(), reads reject with OperationAbortedError, also one created before close() and pulled after', async () => {
        const other = subject.open();
        const own = subject.tableId('contract-close');
        tables.push(own);
        const opening = async (): Promise<BatchStream<RowData>> => {
          await other.createTable({ table: own, families: [{ name: 'f', gc: undefined }] });
          await other.mutateRow(mutation(own, 'k', set('f', 'q', 'v')));
          expect(keysOf(await readAll(other, { table: own }))).toEqual(['k']);
          return other.readRows({ table: own });
        };
        const created = await opening().finally(() => other.close());
        expect(await failure(collect(created))).toBeInstanceOf(OperationAbortedError);
        expect(await failure(readAll(other, { table: own }))).toBeInstanceOf(OperationAbortedError);
      });
    });
  });
}

async function collect(source: BatchStream<RowData>): Promise<RowData[]> {
  const rows: RowData[] = [];
  for await (const batch of source) rows.push(...batch);
  return rows;
}
