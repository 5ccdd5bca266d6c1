import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KeyRange, ReadRowsRequest, RowData } from '../../../src/model/driver.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { DriverError, ValidationError } from '../../../src/errors/index.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const table = uniqueTableId('drv-read');
const intTable = uniqueTableId('drv-int');
const TS = 1_700_000_000_000_000;
const TEXT_KEYS = ['a#1', 'a#2', 'a#3', 'a#4', 'a#5', 'b#1', 'c'];
const BINARY_KEYS = [
  Buffer.from([0x00]),
  Buffer.from([0x61, 0x80]),
  Buffer.from([0x61, 0x81, 0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xff, 0xff]),
];

function put(key: Buffer, qualifier: string, value: Buffer, target = table): CompiledMutation {
  return {
    table: target,
    rowKey: key,
    rowKeyText: key.toString('hex'),
    mutations: [{ kind: 'setCell', family: 'f', qualifier, timestampMicros: TS, value }],
    idempotent: true,
  };
}

const int64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};

async function read(request: Omit<ReadRowsRequest, 'table'>, target = table): Promise<RowData[]> {
  const rows: RowData[] = [];
  for await (const row of rowsOf(driver.readRows({ table: target, ...request }))) rows.push(row);
  return rows;
}

const keysOf = async (request: Omit<ReadRowsRequest, 'table'>): Promise<string[]> =>
  (await read(request)).map((r) => r.key.toString('latin1'));
const bound = (key: string | Buffer, inclusive = true) => ({
  key: Buffer.isBuffer(key) ? key : Buffer.from(key),
  inclusive,
});
const range = (start: KeyRange['start'], end?: KeyRange['end']): KeyRange => ({ start, end });

beforeAll(async () => {
  await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  await driver.createTable({ table: intTable, families: [{ name: 'f', gc: undefined }] });
  const text = TEXT_KEYS.map((k) => put(Buffer.from(k), 'v', Buffer.from(`value of ${k}`)));
  const binary = BINARY_KEYS.map((k) => put(k, 'bin', Buffer.from([0xff, 0x00, 0x80, ...k])));
  expect(await driver.mutateRows({ table, mutations: [...text, ...binary] })).toEqual([]);
});

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.deleteTable({ table: intTable }).catch(() => undefined);
  await driver.close();
});

describe('GoogleCloudDriver.readRows: row sets', () => {
  it('honours inclusive and exclusive bounds', async () => {
    expect(await keysOf({ ranges: [range(bound('a#2'), bound('a#4', false))] })).toEqual(['a#2', 'a#3']);
    expect(await keysOf({ ranges: [range(bound('a#2', false), bound('a#4'))] })).toEqual(['a#3', 'a#4']);
    expect(await keysOf({ ranges: [range(bound('a#2'), bound('a#2'))] })).toEqual(['a#2']);
  });

  it('reads to the end of the table without an end, and from the start with an empty start key', async () => {
    expect(await keysOf({ ranges: [range(bound('b'))] })).toEqual(['b#1', 'c', '\xfe\xff', '\xff\xff']);
    expect(await keysOf({ ranges: [range(bound(Buffer.alloc(0)), bound('a#2', false))] })).toEqual(['\x00', 'a#1']);
    expect(await keysOf({ ranges: [range(bound(Buffer.alloc(0), false), bound('a#1'))] })).toEqual(['\x00', 'a#1']);
  });

  it('unions several ranges and keys', async () => {
    const ranges = [range(bound('a#1'), bound('a#2')), range(bound('a#5'), bound('b#1'))];
    expect(await keysOf({ ranges })).toEqual(['a#1', 'a#2', 'a#5', 'a\x80', 'a\x81\xff', 'b#1']);
    const more = [Buffer.from('c'), Buffer.from('a#3'), Buffer.from('a#1')];
    expect(await keysOf({ ranges, keys: more })).toEqual([
      'a#1',
      'a#2',
      'a#3',
      'a#5',
      'a\x80',
      'a\x81\xff',
      'b#1',
      'c',
    ]);
  });

  it('reads point keys sorted, skipping missing ones', async () => {
    expect(await keysOf({ keys: [Buffer.from('c'), Buffer.from('zzz'), Buffer.from('a#3')] })).toEqual(['a#3', 'c']);
  });

  it('applies the limit', async () => {
    expect(await keysOf({ ranges: [range(bound('a#'))], limit: 2 })).toEqual(['a#1', 'a#2']);
    expect(await keysOf({ limit: 1 })).toEqual(['\x00']);
  });

  it('reads nothing, without any RPC, for empty row sets and limit 0', async () => {
    const readRows = vi.spyOn(driver.data, 'readRows');
    try {
      expect(await keysOf({ ranges: [] })).toEqual([]);
      expect(await keysOf({ keys: [] })).toEqual([]);
      expect(await keysOf({ limit: 0 })).toEqual([]);
      expect(
        await keysOf({ ranges: [range(bound('b'), bound('a')), range(bound('a#2'), bound('a#2', false))] }),
      ).toEqual([]);
      expect(readRows).not.toHaveBeenCalled();
    } finally {
      readRows.mockRestore();
    }
    expect(() => driver.readRows({ table, limit: -1 })).toThrow(ValidationError);
  });

  it('reads the whole table in byte order without ranges or keys', async () => {
    const all = await read({});
    expect(all.map((r) => r.key)).toEqual(
      [...TEXT_KEYS.map((k) => Buffer.from(k)), ...BINARY_KEYS].sort(Buffer.compare),
    );
  });

  it('rejects with the gRPC code for a missing table', async () => {
    const error = await (async () => {
      for await (const row of rowsOf(driver.readRows({ table: 'no-such-table' }))) return row;
      return undefined;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(5);
    expect(driver.activeReads).toBe(0);
  });
});

describe('GoogleCloudDriver.readRows: bytes', () => {
  it('returns binary (non-UTF-8) keys and values exactly, and binary prefixes as byte ranges', async () => {
    const rows = await read({
      ranges: [range(bound(Buffer.from([0x61, 0x80])), bound(Buffer.from([0x61, 0x82]), false))],
    });
    expect(rows.map((r) => r.key)).toEqual([BINARY_KEYS[1], BINARY_KEYS[2]]);
    expect(rows[1]?.cells.f?.bin).toEqual([
      { value: Buffer.from([0xff, 0x00, 0x80, 0x61, 0x81, 0xff]), timestampMicros: TS },
    ]);
    const top = await read({ ranges: [range(bound(Buffer.from([0xfe])), bound(Buffer.from([0xff])))] });
    expect(top.map((r) => r.key)).toEqual([BINARY_KEYS[3]]);
  });

  it('round-trips int64 values as the exact 8 bytes (the client decodes safe ones to numbers)', async () => {
    const values = [0n, 7n, -5n, 65n, 2n ** 53n - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 2n ** 63n - 1n, -(2n ** 63n)];
    const ascii = Buffer.from('ABCDEFGH');
    const mutations: CompiledMutation[] = values.map((v, i) => put(Buffer.from(`int#${i}`), 'n', int64(v), intTable));
    mutations.push(put(Buffer.from('int#ascii'), 'n', ascii, intTable));
    expect(await driver.mutateRows({ table: intTable, mutations })).toEqual([]);
    const rows = await read({}, intTable);
    expect(rows).toHaveLength(values.length + 1);
    const byKey = new Map(rows.map((r) => [r.key.toString(), r.cells.f?.n?.[0]?.value]));
    values.forEach((v, i) => {
      expect(byKey.get(`int#${i}`)).toEqual(int64(v));
      expect(byKey.get(`int#${i}`)?.readBigInt64BE()).toBe(v);
    });
    expect(byKey.get('int#ascii')).toEqual(ascii);
  });
});
