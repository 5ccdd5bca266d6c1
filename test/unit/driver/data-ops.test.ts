import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { Bigtable, type Table } from '@google-cloud/bigtable';
import { afterEach, describe, expect, it } from 'vitest';
import { toRawEntry } from '../../../src/driver/client-mutation.js';
import { mutateManyRows } from '../../../src/driver/data-ops.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';

const set = (value: string): CellMutation => ({
  kind: 'setCell',
  family: 'f',
  qualifier: 'q',
  timestampMicros: 1_000,
  value: Buffer.from(value),
});
const row = (key: string, mutations: CellMutation[]): CompiledMutation => ({
  table: 't',
  rowKey: Buffer.from(key),
  rowKeyText: key,
  mutations,
  idempotent: true,
});

/** One MutateRows request the stubbed `bigtable.request` received. */
interface Sent {
  entries: unknown[];
}

const clients: Bigtable[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A real client `Table` whose `bigtable.request` answers MutateRows locally with the given code per sent entry (0 = ok). */
function stubbedTable(codes: (entry: { rowKey: Buffer }) => number): { table: Table; sent: Sent[] } {
  const bigtable = new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1' });
  clients.push(bigtable);
  const sent: Sent[] = [];
  bigtable.request = ((config: { reqOpts: { entries: { rowKey: Buffer }[] } }) => {
    const entries = config.reqOpts.entries;
    sent.push({ entries });
    const stream = new PassThrough({ objectMode: true });
    setImmediate(() => {
      stream.write({
        entries: entries.map((entry, index) => ({
          index,
          status: { code: codes(entry), message: codes(entry) === 0 ? '' : `failed ${entry.rowKey.toString()}` },
        })),
      });
      stream.end();
    });
    return stream;
  }) as unknown as typeof bigtable.request;
  return { table: bigtable.instance('i').table('t'), sent };
}

describe('mutateManyRows', () => {
  it('hands the client its entries as one flat list, skipping rows without mutations', async () => {
    const { table, sent } = stubbedTable(() => 0);
    const batch = [row('a', [set('1')]), row('empty', []), row('b', [set('2'), set('3')])];
    expect(await mutateManyRows(table, batch)).toEqual([]);
    expect(sent).toHaveLength(1);
    const entries = sent[0]?.entries as { rowKey: Buffer; mutations: unknown[] }[];
    expect(entries.map((e) => e.rowKey.toString())).toEqual(['a', 'b']);
    expect(entries[1]).toEqual(toRawEntry(batch[2] as CompiledMutation));
  });

  it('maps entry failures back to the input indexes, rows without mutations included', async () => {
    const { table } = stubbedTable((entry) => (entry.rowKey.toString().startsWith('bad') ? 3 : 0));
    const batch = [
      row('empty', []),
      row('bad-1', [set('x')]),
      row('ok', [set('y')]),
      row('empty-2', []),
      row('bad-4', [set('z')]),
    ];
    expect(await mutateManyRows(table, batch)).toEqual([
      { index: 1, grpcCode: 3, message: 'failed bad-1' },
      { index: 4, grpcCode: 3, message: 'failed bad-4' },
    ]);
  });
});

describe('raw entries and the client request copy', () => {
  it('are passed by reference by the deep copy the client makes of every request', () => {
    const extend = createRequire(createRequire(import.meta.url).resolve('@google-cloud/bigtable'))('extend') as (
      deep: true,
      target: object,
      source: object,
    ) => { entries: unknown[] };
    const entry = toRawEntry(row('k', [set('v')]));
    const plain = { rowKey: entry.rowKey, mutations: entry.mutations };
    const copy = extend(true, {}, { entries: [entry, plain] });
    expect(copy.entries[0]).toBe(entry);
    expect(copy.entries[1]).not.toBe(plain);
    expect(copy.entries[1]).toEqual(plain);
  });
});
