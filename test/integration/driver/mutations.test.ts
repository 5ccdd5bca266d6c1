import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import {
  DeadlineExceededError,
  DriverError,
  OperationAbortedError,
  ValidationError,
} from '../../../src/errors/index.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const created: string[] = [];
const T1 = 1_700_000_000_000_000;
const T2 = T1 + 1_000;
const T3 = T1 + 2_000;

async function newTable(families: string[] = ['f', 'g']): Promise<string> {
  const id = uniqueTableId('drv-mut');
  created.push(id);
  await driver.createTable({ table: id, families: families.map((name) => ({ name, gc: undefined })) });
  return id;
}

const set = (family: string, qualifier: string, value: string, ts = T1): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros: ts,
  value: Buffer.from(value),
});

function row(table: string, key: string, mutations: CellMutation[], idempotent = true): CompiledMutation {
  return { table, rowKey: Buffer.from(key), rowKeyText: key, mutations, idempotent };
}

async function readRow(table: string, key: string): Promise<RowData | undefined> {
  for await (const r of rowsOf(driver.readRows({ table, keys: [Buffer.from(key)] }))) return r;
  return undefined;
}

/** `{ 'f:a': ['v2@ts', ...] }` for compact assertions. */
function flat(r: RowData | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [family, columns] of Object.entries(r?.cells ?? {})) {
    for (const [qualifier, cells] of Object.entries(columns))
      out[`${family}:${qualifier}`] = cells.map((c) => `${c.value.toString()}@${c.timestampMicros}`);
  }
  return out;
}

afterAll(async () => {
  for (const id of created) await driver.deleteTable({ table: id }).catch(() => undefined);
  await driver.close();
});

describe('GoogleCloudDriver.mutateRow', () => {
  it('applies deleteFromColumn then setCell atomically in one row', async () => {
    const table = await newTable();
    await driver.mutateRow(
      row(table, 'k', [set('f', 'a', 'v1', T1), set('f', 'a', 'v0', T1 - 1_000), set('f', 'b', 'keep')]),
    );
    await driver.mutateRow(
      row(table, 'k', [{ kind: 'deleteFromColumn', family: 'f', qualifier: 'a' }, set('f', 'a', 'v2', T2)]),
    );
    expect(flat(await readRow(table, 'k'))).toEqual({ 'f:a': [`v2@${T2}`], 'f:b': [`keep@${T1}`] });
  });

  it('deleteFromRow then setCell replaces the row; deleteFromFamily drops one family', async () => {
    const table = await newTable();
    await driver.mutateRow(row(table, 'k', [set('f', 'a', 'x'), set('f', 'b', 'y'), set('g', 'c', 'z')]));
    await driver.mutateRow(row(table, 'k', [{ kind: 'deleteFromRow' }, set('f', 'new', 'n', T2)]));
    expect(flat(await readRow(table, 'k'))).toEqual({ 'f:new': [`n@${T2}`] });
    await driver.mutateRow(row(table, 'k2', [set('f', 'a', 'x'), set('g', 'c', 'z')]));
    await driver.mutateRow(row(table, 'k2', [{ kind: 'deleteFromFamily', family: 'g' }]));
    expect(flat(await readRow(table, 'k2'))).toEqual({ 'f:a': [`x@${T1}`] });
  });

  it('preserves explicit timestamps (including 0) and returns versions newest first', async () => {
    const table = await newTable();
    await driver.mutateRow(
      row(table, 'k', [
        set('f', 'q', 'b', T2),
        set('f', 'q', 'a', T1),
        set('f', 'q', 'c', T3),
        set('f', 'q', 'zero', 0),
      ]),
    );
    expect(flat(await readRow(table, 'k'))).toEqual({ 'f:q': [`c@${T3}`, `b@${T2}`, `a@${T1}`, 'zero@0'] });
  });

  // Real Bigtable applies a failed row mutation not at all; the emulator applies the
  // mutations before the failing one, so only the error is asserted here.
  it("rejects an unknown family with the entry's gRPC code", async () => {
    const table = await newTable();
    const error = await driver
      .mutateRow(row(table, 'k', [set('nope', 'a', 'y'), set('f', 'a', 'x')]))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(13);
    expect((error as DriverError).message).toMatch(/unknown family "nope"/);
    expect(await readRow(table, 'k')).toBeUndefined();
  });

  it('rejects with gRPC 5 for a missing table; an empty mutation list is a no-op', async () => {
    const error = await driver.mutateRow(row('no-such-table', 'k', [set('f', 'a', 'x')])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(5);
    await expect(driver.mutateRow(row('no-such-table', 'k', []))).resolves.toBeUndefined();
  });

  it('honours its call options: an aborted signal or a past deadline rejects with the typed error and writes nothing', async () => {
    const table = await newTable();
    const controller = new AbortController();
    controller.abort();
    await expect(
      driver.mutateRow(row(table, 'k', [set('f', 'a', 'x')]), { signal: controller.signal }),
    ).rejects.toBeInstanceOf(OperationAbortedError);
    await expect(
      driver.mutateRow(row(table, 'k', [set('f', 'a', 'x')]), { signal: deadlineSignal(0) }),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
    await driver.mutateRow(row(table, 'k2', [set('f', 'a', 'y')], false), {
      signal: deadlineSignal(10_000),
      attemptTimeoutMs: 5_000,
    });
    expect(await readRow(table, 'k')).toBeUndefined();
    expect(flat(await readRow(table, 'k2'))).toEqual({ 'f:a': [`y@${T1}`] });
  });
});

describe('GoogleCloudDriver.mutateRows', () => {
  it('reports exactly the failed indexes with their gRPC code and persists the others', async () => {
    const table = await newTable();
    const batch = [
      row(table, 'r0', [set('f', 'a', '0')]),
      row(table, 'r1', [set('nope', 'a', '1')]),
      row(table, 'r2', [{ kind: 'deleteFromRow' }, set('f', 'a', '2')]),
      row(table, 'r3', [set('missing', 'b', '3'), set('f', 'a', '3')]),
      row(table, 'r4', [set('f', 'a', '4')], false),
    ];
    const failures = await driver.mutateRows({ table, mutations: batch });
    expect(failures.map((f) => [f.index, f.grpcCode])).toEqual([
      [1, 13],
      [3, 13],
    ]);
    expect(failures[0]?.message).toMatch(/unknown family "nope"/);
    expect(failures[1]?.message).toMatch(/unknown family "missing"/);
    for (const key of ['r0', 'r2', 'r4'])
      expect(flat(await readRow(table, key))).toEqual({ 'f:a': [`${key.slice(1)}@${T1}`] });
    expect(await readRow(table, 'r1')).toBeUndefined();
    expect(await readRow(table, 'r3')).toBeUndefined();
  });

  it('maps failures to the input indexes when rows without mutations are left out of the request', async () => {
    const table = await newTable();
    const batch = [
      row(table, 'e0', []),
      row(table, 'r1', [set('nope', 'a', '1')]),
      row(table, 'r2', [set('f', 'a', '2')]),
      row(table, 'e3', []),
      row(table, 'r4', [set('nope', 'a', '4')]),
    ];
    expect((await driver.mutateRows({ table, mutations: batch })).map((f) => [f.index, f.grpcCode])).toEqual([
      [1, 13],
      [4, 13],
    ]);
    expect(flat(await readRow(table, 'r2'))).toEqual({ 'f:a': [`2@${T1}`] });
  });

  it('resolves [] when everything succeeded', async () => {
    const table = await newTable();
    const batch = Array.from({ length: 50 }, (_, i) =>
      row(table, `k${String(i).padStart(2, '0')}`, [set('f', 'a', String(i))]),
    );
    expect(await driver.mutateRows({ table, mutations: batch })).toEqual([]);
    let count = 0;
    for await (const r of rowsOf(driver.readRows({ table }))) if (r.key.length > 0) count += 1;
    expect(count).toBe(50);
  });

  it('sends nothing for an empty batch (or a batch of rows without mutations)', async () => {
    const mutateRows = vi.spyOn(driver.data, 'mutateRows');
    try {
      expect(await driver.mutateRows({ table: 'no-such-table', mutations: [] })).toEqual([]);
      expect(await driver.mutateRows({ table: 'no-such-table', mutations: [row('no-such-table', 'k', [])] })).toEqual(
        [],
      );
      expect(mutateRows).not.toHaveBeenCalled();
    } finally {
      mutateRows.mockRestore();
    }
  });

  it('rejects a whole-RPC failure (missing table) with gRPC 5, and mixed tables with ValidationError', async () => {
    const error = await driver
      .mutateRows({ table: 'no-such-table', mutations: [row('no-such-table', 'k', [set('f', 'a', 'x')])] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(5);
    const table = await newTable();
    await expect(
      driver.mutateRows({
        table,
        mutations: [row(table, 'a', [set('f', 'a', 'x')]), row('other', 'b', [set('f', 'a', 'x')])],
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
