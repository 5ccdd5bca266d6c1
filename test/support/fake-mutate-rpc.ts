import { PassThrough } from 'node:stream';
import { Bigtable } from '@google-cloud/bigtable';
import { DataClient, type DataTable, type GeneratedDataClient } from '../../src/driver/data-client.js';

/** A per-entry status as the server sends it: a bare code, or a code with a message and status details. */
export type FakeStatus =
  number | { readonly code: number; readonly message?: string; readonly details?: readonly unknown[] };

/**
 * How one MutateRows attempt answers, by position in the batch that attempt sent:
 * `statuses[i]` for entry i (`undefined`: no status for it), sent at once in one
 * response (so it is read before any timer can fire); then the stream ends (`'end'`, the default), fails with `error`, or stalls
 * (sends nothing more and never ends, until cancelled).
 */
export interface FakeAttemptReply {
  readonly statuses?: readonly (FakeStatus | undefined)[];
  readonly then?:
    | 'end'
    | 'stall'
    | {
        readonly error: {
          readonly code: number;
          readonly message: string;
          readonly statusDetails?: readonly unknown[];
        };
      };
}

/** One MutateRows request the fake received. */
export interface FakeMutateRequest {
  /** Row keys of the entries sent, in order. */
  readonly keys: string[];
  /** The `bigtable-attempt` header, when sent. */
  readonly attemptHeader: unknown;
  /** `retryRequestOptions.currentRetryAttempt`: retry-request delays a stream's first request when it is above 0. */
  readonly retryRequestAttempt?: unknown;
  /** How many times the attempt's stream was cancelled. */
  cancels: number;
}

/** A fake MutateRows RPC: the requests it got, and `reply` deciding each attempt's answer from the keys it sent. */
export interface FakeMutateRpc {
  readonly requests: FakeMutateRequest[];
  reply: (keys: readonly string[], attempt: number) => FakeAttemptReply;
}

/** The response stream of one attempt, answering as `reply` says once it is read. */
export function fakeMutateAttempt(
  keys: readonly string[],
  reply: FakeAttemptReply,
  request: FakeMutateRequest,
): PassThrough {
  const stream = new PassThrough({ objectMode: true });
  Object.assign(stream, { cancel: () => (request.cancels += 1) });
  const entries = (reply.statuses ?? [])
    .map((status, index) =>
      status === undefined
        ? undefined
        : {
            index,
            status:
              typeof status === 'number'
                ? { code: status, message: status === 0 ? '' : `failed ${keys[index]}` }
                : { message: '', ...status },
          },
    )
    .filter((entry) => entry !== undefined);
  if (entries.length > 0) stream.write({ entries });
  setImmediate(() => {
    if (stream.destroyed) return;
    const then = reply.then ?? 'end';
    if (then === 'end') stream.end();
    else if (then !== 'stall')
      setImmediate(() => stream.destroy(Object.assign(new Error(then.error.message), then.error)));
  });
  return stream;
}

/**
 * A {@link DataClient} over a fake generated client that answers MutateRows
 * locally through {@link FakeMutateRpc} (every other call fails), and a table
 * to address. Close `data` after the test.
 */
export function fakeMutateRowsClient(reply: FakeMutateRpc['reply'] = (keys) => ({ statuses: keys.map(() => 0) })): {
  data: DataClient;
  table: DataTable;
  rpc: FakeMutateRpc;
} {
  const rpc: FakeMutateRpc = { requests: [], reply };
  const generated = {
    mutateRows: (
      message: { entries: { rowKey: Buffer }[] },
      options?: {
        otherArgs?: { headers?: Record<string, unknown> };
        retryRequestOptions?: { currentRetryAttempt?: unknown };
      },
    ) => {
      const keys = message.entries.map((entry) => entry.rowKey.toString());
      const request: FakeMutateRequest = {
        keys,
        attemptHeader: options?.otherArgs?.headers?.['bigtable-attempt'],
        retryRequestAttempt: options?.retryRequestOptions?.currentRetryAttempt,
        cancels: 0,
      };
      rpc.requests.push(request);
      return fakeMutateAttempt(keys, rpc.reply(keys, rpc.requests.length - 1), request);
    },
    close: () => Promise.resolve(),
  };
  const unexpected = (method: string) => () => {
    throw new Error(`the fake client only answers mutateRows, not ${method}`);
  };
  const fake = {
    readRows: unexpected('readRows'),
    checkAndMutateRow: unexpected('checkAndMutateRow'),
    readModifyWriteRow: unexpected('readModifyWriteRow'),
    getProjectId: unexpected('getProjectId'),
    ...generated,
  } as unknown as GeneratedDataClient;
  const data = new DataClient(new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1' }), () => fake);
  return { data, table: { id: 't', name: 'projects/p/instances/i/tables/t', appProfileId: undefined }, rpc };
}
