import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAndMutateRequest, RowData } from '../../../src/model/driver.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { RowFilter } from '../../../src/model/row-filter.js';
import { DriverError, ValidationError } from '../../../src/errors/index.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const table = uniqueTableId('drv-atomic');
const T1 = 1_700_000_000_000_000;
const T2 = T1 + 1_000;

const set = (qualifier: string, value: string, ts = T1, family = 'f'): CellMutation => ({
  kind: 'setCell',
  family,
  qualifier,
  timestampMicros: ts,
  value: Buffer.from(value),
});
const int64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};

async function readRow(key: string): Promise<RowData | undefined> {
  for await (const row of rowsOf(driver.readRows({ table, keys: [Buffer.from(key)] }))) return row;
  return undefined;
}

const values = async (key: string, family: string, qualifier: string): Promise<string[]> =>
  ((await readRow(key))?.cells[family]?.[qualifier] ?? []).map((c) => c.value.toString());

const statusIs = (value: string, latestOnly: boolean): RowFilter => ({
  kind: 'chain',
  filters: [
    { kind: 'family', name: 'f' },
    { kind: 'qualifiers', names: ['status'] },
    ...(latestOnly ? [{ kind: 'cellsPerColumn', limit: 1 } as const] : []),
    { kind: 'valueEquals', value: Buffer.from(value) },
  ],
});

function request(
  key: string,
  predicate: RowFilter | undefined,
  onMatch: CellMutation[],
  onNoMatch: CellMutation[],
): CheckAndMutateRequest {
  return { table, rowKey: Buffer.from(key), predicate, onMatch, onNoMatch };
}

beforeAll(async () => {
  await driver.createTable({
    table,
    families: [
      { name: 'f', gc: undefined },
      { name: 'c', gc: undefined },
    ],
  });
});

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('GoogleCloudDriver.checkAndMutate', () => {
  it('matches the latest version only with cellsPerColumn(1) + valueEquals', async () => {
    await driver.mutateRow({
      table,
      rowKey: Buffer.from('job'),
      rowKeyText: 'job',
      mutations: [set('status', 'pending', T1)],
      idempotent: true,
    });
    expect(
      await driver.checkAndMutate(
        request('job', statusIs('pending', true), [set('status', 'running', T2)], [set('conflict', 'y')]),
      ),
    ).toBe(true);
    expect(await values('job', 'f', 'status')).toEqual(['running', 'pending']);
    expect(
      await driver.checkAndMutate(
        request('job', statusIs('pending', true), [set('status', 'again', T2 + 1_000)], [set('conflict', 'y')]),
      ),
    ).toBe(false);
    expect(await values('job', 'f', 'status')).toEqual(['running', 'pending']);
    expect(await values('job', 'f', 'conflict')).toEqual(['y']);
    // Without the version limit, the overwritten 'pending' cell still matches.
    expect(await driver.checkAndMutate(request('job', statusIs('pending', false), [], [set('x', '1')]))).toBe(true);
  });

  it('applies raw set and delete mutations in order; no predicate means "row has cells"', async () => {
    expect(await driver.checkAndMutate(request('new', undefined, [], [set('created', '1'), set('tmp', 't')]))).toBe(
      false,
    );
    expect(
      await driver.checkAndMutate(
        request(
          'new',
          undefined,
          [{ kind: 'deleteFromColumn', family: 'f', qualifier: 'tmp' }, set('tmp', 'u', T2)],
          [],
        ),
      ),
    ).toBe(true);
    expect(await values('new', 'f', 'tmp')).toEqual(['u']);
    expect(
      await driver.checkAndMutate(
        request('new', { kind: 'passAll' }, [{ kind: 'deleteFromRow' }, set('only', 'o')], []),
      ),
    ).toBe(true);
    expect(Object.keys((await readRow('new'))?.cells.f ?? {})).toEqual(['only']);
    expect(await driver.checkAndMutate(request('absent', { kind: 'passAll' }, [set('m', '1')], []))).toBe(false);
    expect(await readRow('absent')).toBeUndefined();
  });

  it('rejects with the gRPC code', async () => {
    const error = await driver
      .checkAndMutate({ ...request('k', undefined, [set('a', 'b')], []), table: 'no-such-table' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(5);
  });
});

describe('GoogleCloudDriver.increment', () => {
  it('starts a missing cell at 0, handles qualifiers with "." and returns exact int64 bytes', async () => {
    const key = Buffer.from('ctr');
    const first = await driver.increment({
      table,
      rowKey: key,
      rules: [
        { family: 'c', qualifier: 'hits.total', amount: 5n },
        { family: 'c', qualifier: 'big', amount: 2n ** 53n + 1n },
        { family: 'c', qualifier: 'neg', amount: -5n },
      ],
    });
    expect(first.key).toEqual(key);
    expect(first.cells.c?.['hits.total']?.[0]?.value).toEqual(int64(5n));
    expect(first.cells.c?.big?.[0]?.value).toEqual(int64(2n ** 53n + 1n));
    expect(first.cells.c?.neg?.[0]?.value).toEqual(int64(-5n));
    expect(typeof first.cells.c?.big?.[0]?.timestampMicros).toBe('number');
    const second = await driver.increment({
      table,
      rowKey: key,
      rules: [
        { family: 'c', qualifier: 'big', amount: 2n ** 62n },
        { family: 'c', qualifier: 'hits.total', amount: -7n },
      ],
    });
    expect(second.cells.c?.big?.[0]?.value.readBigInt64BE()).toBe(2n ** 62n + 2n ** 53n + 1n);
    expect(second.cells.c?.['hits.total']?.[0]?.value.readBigInt64BE()).toBe(-2n);
    expect(Object.keys(second.cells.c ?? {}).sort()).toEqual(['big', 'hits.total']);
    const stored = await readRow('ctr');
    expect(stored?.cells.c?.big?.[0]?.value).toEqual(int64(2n ** 62n + 2n ** 53n + 1n));
    expect(stored?.cells.c?.['hits.total']?.[0]?.value).toEqual(int64(-2n));
  });

  it('rejects bad amounts and empty rules before sending, and server errors with their gRPC code', async () => {
    const key = Buffer.from('ctr2');
    await expect(driver.increment({ table, rowKey: key, rules: [] })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      driver.increment({ table, rowKey: key, rules: [{ family: 'c', qualifier: 'q', amount: 2n ** 63n }] }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await readRow('ctr2')).toBeUndefined();
    await driver.mutateRow({
      table,
      rowKey: key,
      rowKeyText: 'ctr2',
      mutations: [set('text', 'abc', T1, 'c')],
      idempotent: true,
    });
    const error = await driver
      .increment({ table, rowKey: key, rules: [{ family: 'c', qualifier: 'text', amount: 1n }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBeTypeOf('number');
    expect((error as DriverError).message).toMatch(/64-bit/);
  });
});
