import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DataRpc, DataTable, SampleAttemptStream } from '../../../src/driver/data-client.js';
import type { SampleRowKeysMessage } from '../../../src/driver/data-messages.js';
import { sampleRowKeysCall } from '../../../src/driver/sample-row-keys-call.js';
import { DriverError, OperationAbortedError, TableNotFoundError } from '../../../src/errors/index.js';
import { GrpcCode } from '../../support/fake-driver.js';

const TABLE: DataTable = { id: 't', name: 'projects/p/instances/i/tables/t', appProfileId: 'batch' };

type Attempt = { samples: { rowKey: Buffer; offsetBytes: string }[]; failWith?: number };

/** A data client whose SampleRowKeys answers attempt n with `attempts[n]`: its samples, then its failure or its end. */
function stubbedRpc(attempts: Attempt[]): { rpc: DataRpc; sent: { message: SampleRowKeysMessage; attempt: number }[] } {
  const sent: { message: SampleRowKeysMessage; attempt: number }[] = [];
  const sampleRowKeys = (message: SampleRowKeysMessage, attempt: number): SampleAttemptStream => {
    sent.push({ message, attempt });
    const answer = attempts[attempt] ?? { samples: [] };
    const stream = new PassThrough({ objectMode: true });
    setImmediate(() => {
      for (const sample of answer.samples) stream.write(sample);
      if (answer.failWith === undefined) stream.end();
      else stream.destroy(Object.assign(new Error(`table "t": code ${answer.failWith}`), { code: answer.failWith }));
    });
    return Object.assign(stream, { cancel: () => undefined });
  };
  return { rpc: { sampleRowKeys } as unknown as DataRpc, sent };
}

const key = (text: string) => ({ rowKey: Buffer.from(text), offsetBytes: '0' });

describe('sampleRowKeysCall', () => {
  it('collects the streamed samples, offsets as numbers, sending the table and app profile', async () => {
    const { rpc, sent } = stubbedRpc([
      {
        samples: [
          { rowKey: Buffer.from('k1'), offsetBytes: '1024' },
          { rowKey: Buffer.alloc(0), offsetBytes: '4096' },
        ],
      },
    ]);
    expect(await sampleRowKeysCall(rpc, TABLE, undefined)).toEqual([
      { key: Buffer.from('k1'), offsetBytes: 1024 },
      { key: Buffer.alloc(0), offsetBytes: 4096 },
    ]);
    expect(sent).toEqual([{ message: { tableName: TABLE.name, appProfileId: 'batch' }, attempt: 0 }]);
  });

  it('sends the whole call again after a transient error, dropping the failed attempt’s samples', async () => {
    const { rpc, sent } = stubbedRpc([
      { samples: [key('partial')], failWith: GrpcCode.Unavailable },
      { samples: [key('a'), key('')] },
    ]);
    const samples = await sampleRowKeysCall(rpc, TABLE, undefined);
    expect(samples.map((s) => s.key.toString())).toEqual(['a', '']);
    expect(sent.map((s) => s.attempt)).toEqual([0, 1]);
  });

  it('does not retry other errors: a missing table is a TableNotFoundError, others a DriverError', async () => {
    const missing = stubbedRpc([{ samples: [], failWith: GrpcCode.NotFound }, { samples: [key('')] }]);
    await expect(sampleRowKeysCall(missing.rpc, TABLE, undefined)).rejects.toBeInstanceOf(TableNotFoundError);
    expect(missing.sent).toHaveLength(1);
    const denied = stubbedRpc([{ samples: [], failWith: GrpcCode.PermissionDenied }]);
    await expect(sampleRowKeysCall(denied.rpc, TABLE, undefined)).rejects.toBeInstanceOf(DriverError);
  });

  it('an aborted signal stops the call before any attempt', async () => {
    const { rpc, sent } = stubbedRpc([{ samples: [key('')] }]);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(sampleRowKeysCall(rpc, TABLE, { signal: controller.signal })).rejects.toBeInstanceOf(
      OperationAbortedError,
    );
    expect(sent).toHaveLength(0);
  });
});
