import { PassThrough } from 'node:stream';
import { Bigtable } from '@google-cloud/bigtable';
import { describe, expect, it } from 'vitest';
import { DataChannels, MAX_RETIRED_CLIENTS } from '../../../src/driver/data-channels.js';
import { DataClient, type GeneratedDataClient } from '../../../src/driver/data-client.js';
import { callWithRetries, type GaxCallOptions } from '../../../src/driver/retry-engine.js';
import { mutateWithRetries, type MutateAttemptStream } from '../../../src/driver/mutate-rows-call.js';
import { planRead, type ReadPlan } from '../../../src/driver/read-plan.js';
import { isRetryableReadError } from '../../../src/driver/read-retry.js';
import { ReadRowsCall, type ReadAttemptStream } from '../../../src/driver/read-rows-call.js';
import { DeadlineExceededError } from '../../../src/errors/operation-errors.js';
import { fakeAttempt, fakeRows, responseOf, type FakeAttempt } from '../../support/fake-read-attempt.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const TABLE = 'projects/p/instances/i/tables/t';
const message = { tableName: TABLE, rows: { rowKeys: [], rowRanges: [{}] } };
const wait = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition: () => boolean): Promise<void> => {
  for (let i = 0; i < 2_000 && !condition(); i++) await wait(5);
};

/** A client for {@link DataChannels}: its generation and whether it was closed. */
class FakeClient {
  closed = 0;
  constructor(readonly generation: number) {}
  close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }
}

function channels(maxRetired?: number) {
  const made: FakeClient[] = [];
  const pool = new DataChannels((generation) => {
    const client = new FakeClient(generation);
    made.push(client);
    return client;
  }, maxRetired);
  return { pool, made };
}

describe('DataChannels', () => {
  it('creates its first client on the first lease and hands every call the same one until it is retired', () => {
    const { pool, made } = channels();
    expect(made).toHaveLength(0);
    const a = pool.lease();
    const b = pool.lease();
    expect(a.client).toBe(b.client);
    expect(made.map((c) => c.generation)).toEqual([0]);
    expect(pool.open).toBe(1);
  });

  it('after a retire, new calls go out on a new client; the retired one closes when its last call has ended', async () => {
    const { pool, made } = channels();
    const silent = pool.lease();
    const other = pool.lease();
    silent.retire();
    const next = pool.lease();
    expect(next.client).not.toBe(silent.client);
    expect(made.map((c) => c.generation)).toEqual([0, 1]);
    silent.release();
    await wait();
    expect(made[0]?.closed).toBe(0);
    other.release();
    other.release();
    await wait();
    expect(made[0]?.closed).toBe(1);
    expect(made[1]?.closed).toBe(0);
    expect(pool.open).toBe(1);
  });

  it('replaces a client once when several of its calls go silent together, and never the new one for an old call', () => {
    const { pool, made } = channels();
    const calls = [pool.lease(), pool.lease(), pool.lease()];
    for (const call of calls) call.retire();
    const fresh = pool.lease();
    calls[0]?.retire();
    expect(pool.lease().client).toBe(fresh.client);
    expect(made).toHaveLength(2);
  });

  it('closes a retired client at once when no call uses it', async () => {
    const { pool, made } = channels();
    const call = pool.lease();
    call.release();
    call.retire();
    await wait();
    expect(made[0]?.closed).toBe(1);
    expect(pool.open).toBe(0);
  });

  it(`keeps at most ${MAX_RETIRED_CLIENTS} retired clients waiting for their calls: past that the oldest is closed`, async () => {
    const { pool, made } = channels();
    for (let i = 0; i <= MAX_RETIRED_CLIENTS; i++) pool.lease().retire();
    pool.lease();
    await wait();
    expect(made.map((c) => c.closed)).toEqual([1, ...Array<number>(MAX_RETIRED_CLIENTS + 1).fill(0)]);
    expect(pool.open).toBe(MAX_RETIRED_CLIENTS + 1);
  });

  it('close() closes the current and every retired client, and later leases throw', async () => {
    const { pool, made } = channels();
    pool.lease().retire();
    pool.lease();
    await pool.close();
    expect(made.map((c) => c.closed)).toEqual([1, 1]);
    expect(() => pool.lease()).toThrow(/closed/);
  });

  it('close() rejects with the error of closing a client', async () => {
    const pool = new DataChannels(() => ({ close: () => Promise.reject(new Error('boom')) }));
    pool.lease();
    await expect(pool.close()).rejects.toThrow('boom');
  });
});

/** A fake generated client per generation; streams are PassThroughs with `cancel`, unary calls answer at once. */
function generatedClients() {
  const created: { options: Record<string, unknown>; closes: number; streams: PassThrough[]; unary: number }[] = [];
  const data = new DataClient(
    new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1', metricsEnabled: false }),
    (options) => {
      const record = { options: options as Record<string, unknown>, closes: 0, streams: [] as PassThrough[], unary: 0 };
      created.push(record);
      const stream = (): PassThrough => {
        const s = Object.assign(new PassThrough({ objectMode: true }), { cancel: () => undefined });
        record.streams.push(s);
        return s;
      };
      const unary = (_message: unknown, _gax: unknown, callback: (err: Error | null, response?: object) => void) => {
        record.unary += 1;
        setImmediate(() => callback(null, {}));
      };
      return {
        auth: { credentials: `of generation ${created.length - 1}` },
        readRows: stream,
        mutateRows: stream,
        checkAndMutateRow: unary,
        readModifyWriteRow: unary,
        getProjectId: () => Promise.resolve('p'),
        close: () => {
          record.closes += 1;
          return Promise.resolve();
        },
      } as unknown as GeneratedDataClient;
    },
  );
  return { data, created };
}

describe('DataClient: a channel that went silent is replaced', () => {
  it('sends the next read on a new generated client with connections of its own, and closes the silent one once its stream closed', async () => {
    const { data, created } = generatedClients();
    const silent = data.readRows(message, 0);
    expect(created).toHaveLength(1);
    data.retireChannel(silent);
    data.readRows(message, 1);
    expect(created).toHaveLength(2);
    expect(created[1]?.options).toMatchObject({
      ...created[0]?.options,
      'grpc.use_local_subchannel_pool': 1,
      auth: { credentials: 'of generation 0' },
    });
    expect(created[0]?.options['grpc.use_local_subchannel_pool']).toBeUndefined();
    expect(created[0]?.closes).toBe(0);
    (silent as unknown as PassThrough).destroy();
    await until(() => created[0]?.closes === 1);
    expect(created[0]?.closes).toBe(1);
    expect(data.clientsOpen).toBe(1);
    await data.close();
    expect(created.map((c) => c.closes)).toEqual([1, 1]);
  });

  it('retires the channel of a write stream and of a unary call (found by its gax options) alike', async () => {
    const { data, created } = generatedClients();
    const write = data.mutateRows({ tableName: TABLE, entries: [] }, 0) as unknown as PassThrough;
    data.retireChannel(write);
    const gax: GaxCallOptions = { signal: new AbortController().signal };
    await data.checkAndMutateRow(
      { tableName: TABLE, rowKey: Buffer.from('k'), predicateFilter: null, trueMutations: [], falseMutations: [] },
      gax,
    );
    expect(created.map((c) => c.unary)).toEqual([0, 1]);
    data.retireChannel(gax);
    data.readRows(message, 0);
    expect(created).toHaveLength(3);
    write.end();
    write.resume();
    await until(() => created[0]?.closes === 1 && created[1]?.closes === 1);
    expect(created.map((c) => c.closes)).toEqual([1, 1, 0]);
    await data.close();
  });

  it('ignores an attempt it does not know, and keeps one client while nothing goes silent', async () => {
    const { data, created } = generatedClients();
    data.retireChannel({});
    for (let attempt = 0; attempt < 3; attempt++) (data.readRows(message, attempt) as unknown as PassThrough).end();
    expect(created).toHaveLength(1);
    expect(data.clientsCreated).toBe(1);
    await data.close();
  });
});

const whole = planRead({ table: 't' }) as ReadPlan;
const retryAll = { maxRetries: 3, isRetryable: isRetryableReadError, delayMs: () => 1 };

describe('the attempt timers retire the channel of an attempt they cut', () => {
  it('ReadRowsCall: an attempt cut by the idle timeout is retired before the next attempt is opened', async () => {
    const events: string[] = [];
    const attempts: FakeAttempt[] = [];
    const retired: ReadAttemptStream[] = [];
    const call = new ReadRowsCall(
      whole,
      () => {
        events.push(`open ${attempts.length}`);
        const fake = fakeAttempt();
        attempts.push(fake);
        return fake.attempt;
      },
      retryAll,
      { idleTimeoutMs: 30 },
      'readRows "t"',
      undefined,
      (stream) => {
        events.push(`retire ${attempts.findIndex((a) => a.attempt === stream)}`);
        retired.push(stream);
      },
    );
    const outcome: { ended: boolean; error: unknown } = { ended: false, error: undefined };
    call.start({ push: () => undefined, end: () => (outcome.ended = true), fail: (e) => (outcome.error = e) });
    await until(() => attempts.length === 2);
    expect(events).toEqual(['open 0', 'retire 0', 'open 1']);
    expect(attempts[0]?.calls.cancel).toBe(1);
    attempts[1]?.stream.write(responseOf(fakeRows(0, 1)));
    attempts[1]?.stream.end();
    await until(() => outcome.ended);
    expect(outcome).toEqual({ ended: true, error: undefined });
    expect(retired).toHaveLength(1);
  });

  it('ReadRowsCall: an attempt that failed with an error of its own keeps its channel', async () => {
    const attempts: FakeAttempt[] = [];
    const retired: unknown[] = [];
    const call = new ReadRowsCall(
      whole,
      () => {
        const fake = fakeAttempt();
        attempts.push(fake);
        return fake.attempt;
      },
      retryAll,
      {},
      'readRows "t"',
      undefined,
      (stream) => retired.push(stream),
    );
    call.start({ push: () => undefined, end: () => undefined, fail: () => undefined });
    attempts[0]?.stream.destroy(Object.assign(new Error('unavailable'), { code: 14 }));
    await until(() => attempts.length === 2);
    expect(retired).toEqual([]);
    call.cancel();
  });

  it('mutateWithRetries: an attempt cut by attemptTimeoutMs is retired before the next one; one cut by the deadline is not', async () => {
    const events: string[] = [];
    const streams: MutateAttemptStream[] = [];
    const open = (): MutateAttemptStream => {
      events.push(`open ${streams.length}`);
      const reply = streams.length === 0 ? undefined : { entries: [{ index: 0, status: { code: 0 } }] };
      const stream = Object.assign(new PassThrough({ objectMode: true }), { cancel: () => undefined });
      if (reply !== undefined) {
        stream.write(reply);
        setImmediate(() => stream.end());
      }
      streams.push(stream as unknown as MutateAttemptStream);
      return stream as unknown as MutateAttemptStream;
    };
    const failures = await mutateWithRetries({
      operation: 'mutateRows "t" (1 rows)',
      entries: ['a'],
      idempotent: () => true,
      open,
      call: { attemptTimeoutMs: 30, signal: deadlineSignal(10_000) },
      retireChannel: (stream) => events.push(`retire ${streams.indexOf(stream)}`),
    });
    expect(failures).toEqual([]);
    expect(events).toEqual(['open 0', 'retire 0', 'open 1']);

    const retired: unknown[] = [];
    const cut = await mutateWithRetries({
      operation: 'mutateRows "t" (1 rows)',
      entries: ['a'],
      idempotent: () => true,
      open: () =>
        Object.assign(new PassThrough({ objectMode: true }), {
          cancel: () => undefined,
        }) as unknown as MutateAttemptStream,
      call: { signal: deadlineSignal(30) },
      retireChannel: (stream) => retired.push(stream),
    });
    expect(cut[0]?.grpcCode).toBe(4);
    expect(retired).toEqual([]);
  });

  it('callWithRetries: an attempt past its attempt timeout is retired by the gax options it was sent with', async () => {
    const sent: GaxCallOptions[] = [];
    const retired: GaxCallOptions[] = [];
    const hang = (gax: GaxCallOptions): Promise<never> => {
      sent.push(gax);
      return new Promise<never>(() => undefined);
    };
    const error = await callWithRetries('checkAndMutate "t"', { attemptTimeoutMs: 20 }, hang, {
      method: 'CheckAndMutateRow',
      retryAttemptTimeouts: false,
      retireChannel: (gax) => retired.push(gax),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).kind).toBe('attempt');
    expect(retired).toEqual(sent);
    expect(retired[0]).toBe(sent[0]);

    // The gRPC deadline it carried beat the local timer: the same bound, the same rule.
    const grpcDeadline = (gax: GaxCallOptions): Promise<never> => {
      sent.push(gax);
      return Promise.reject(Object.assign(new Error('4 DEADLINE_EXCEEDED'), { code: 4 }));
    };
    await callWithRetries('increment "t"', { attemptTimeoutMs: 10_000 }, grpcDeadline, {
      method: 'CheckAndMutateRow',
      retryAttemptTimeouts: false,
      retireChannel: (gax) => retired.push(gax),
    }).catch(() => undefined);
    expect(retired[1]).toBe(sent[1]);
  });

  it('callWithRetries: an attempt cut by the total deadline, or failing otherwise, keeps its channel', async () => {
    const retired: unknown[] = [];
    const policy = {
      method: 'CheckAndMutateRow',
      retryAttemptTimeouts: false,
      retireChannel: (gax: GaxCallOptions) => retired.push(gax),
    };
    await callWithRetries(
      'increment "t"',
      { signal: deadlineSignal(20) },
      () => new Promise<never>(() => undefined),
      policy,
    ).catch(() => undefined);
    await callWithRetries(
      'increment "t"',
      { attemptTimeoutMs: 10_000 },
      () => Promise.reject(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 })),
      policy,
    ).catch(() => undefined);
    expect(retired).toEqual([]);
  });
});
