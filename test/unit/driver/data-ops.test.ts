import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { toRawMutation } from '../../../src/driver/client-mutation.js';
import type { EncodedEntry } from '../../../src/driver/encoded-entry.js';
import { mutateManyRows } from '../../../src/driver/data-ops.js';
import type { DataRpc, DataTable } from '../../../src/driver/data-client.js';
import type { MutateRowsMessage } from '../../../src/driver/data-messages.js';
import type { MutateAttemptStream } from '../../../src/driver/mutate-rows-call.js';
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

/** One MutateRows request the stubbed data client received. */
interface Sent {
  entries: unknown[];
}

const TABLE: DataTable = { id: 't', name: 'projects/p/instances/i/tables/t', appProfileId: undefined };

/** A data client whose MutateRows answers locally with the given code per sent entry (0 = ok). */
function stubbedRpc(codes: (entry: { rowKey: Buffer }) => number): { rpc: DataRpc; sent: Sent[] } {
  const sent: Sent[] = [];
  const mutateRows = (message: MutateRowsMessage): MutateAttemptStream => {
    const entries = message.entries;
    sent.push({ entries: [...entries] });
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
    return Object.assign(stream, { cancel: () => undefined });
  };
  return { rpc: { mutateRows } as unknown as DataRpc, sent };
}

describe('mutateManyRows', () => {
  it('hands the client its entries as one flat list, skipping rows without mutations', async () => {
    const { rpc, sent } = stubbedRpc(() => 0);
    const batch = [row('a', [set('1')]), row('empty', []), row('b', [set('2'), set('3')])];
    expect(await mutateManyRows(rpc, TABLE, batch)).toEqual([]);
    expect(sent).toHaveLength(1);
    const entries = sent[0]?.entries as EncodedEntry[];
    expect(entries.map((e) => e.rowKey.toString())).toEqual(['a', 'b']);
    expect(entries[1]?.toRawEntry()).toEqual({
      rowKey: Buffer.from('b'),
      mutations: [set('2'), set('3')].map(toRawMutation),
    });
  });

  it('maps entry failures back to the input indexes, rows without mutations included', async () => {
    const { rpc } = stubbedRpc((entry) => (entry.rowKey.toString().startsWith('bad') ? 3 : 0));
    const batch = [
      row('empty', []),
      row('bad-1', [set('x')]),
      row('ok', [set('y')]),
      row('empty-2', []),
      row('bad-4', [set('z')]),
    ];
    expect(await mutateManyRows(rpc, TABLE, batch)).toEqual([
      { index: 1, grpcCode: 3, message: 'failed bad-1' },
      { index: 4, grpcCode: 3, message: 'failed bad-4' },
    ]);
  });
});
