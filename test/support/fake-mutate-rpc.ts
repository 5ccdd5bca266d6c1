import { PassThrough } from 'node:stream';
import { Bigtable, type Table } from '@google-cloud/bigtable';

/** A per-entry status as the server sends it: a bare code, or a code with a message and status details. */
export type FakeStatus =
  number | { readonly code: number; readonly message?: string; readonly details?: readonly unknown[] };

/**
 * How one MutateRows attempt answers, by position in the batch that attempt sent:
 * `statuses[i]` for entry i (`undefined`: no status for it), sent at once in one
 * response (so it is read before any timer can fire); then the stream ends (`'end'`, the default), fails with `error`, or stalls
 * (sends nothing more and never ends, until aborted).
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
  /** `retryOpts.currentRetryAttempt`: retry-request delays a stream's first request when it is above 0. */
  readonly retryRequestAttempt?: unknown;
  /** How many times the attempt's stream was aborted. */
  aborts: number;
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
  Object.assign(stream, { abort: () => (request.aborts += 1) });
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
 * A real client whose `bigtable.request` answers MutateRows locally through
 * {@link FakeMutateRpc} (every other call fails), and a `Table` of it.
 * Close the client after the test.
 */
export function fakeMutateRowsClient(reply: FakeMutateRpc['reply'] = (keys) => ({ statuses: keys.map(() => 0) })): {
  bigtable: Bigtable;
  table: Table;
  rpc: FakeMutateRpc;
} {
  const bigtable = new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1' });
  const rpc: FakeMutateRpc = { requests: [], reply };
  bigtable.request = ((config: {
    method: string;
    reqOpts: { entries: { rowKey: Buffer }[] };
    gaxOpts?: { otherArgs?: { headers?: Record<string, unknown> } };
    retryOpts?: { currentRetryAttempt?: unknown };
  }) => {
    if (config.method !== 'mutateRows')
      throw new Error(`the fake client only answers mutateRows, not ${config.method}`);
    const keys = config.reqOpts.entries.map((entry) => entry.rowKey.toString());
    const request: FakeMutateRequest = {
      keys,
      attemptHeader: config.gaxOpts?.otherArgs?.headers?.['bigtable-attempt'],
      retryRequestAttempt: config.retryOpts?.currentRetryAttempt,
      aborts: 0,
    };
    rpc.requests.push(request);
    return fakeMutateAttempt(keys, rpc.reply(keys, rpc.requests.length - 1), request);
  }) as unknown as typeof bigtable.request;
  return { bigtable, table: bigtable.instance('i').table('t'), rpc };
}
