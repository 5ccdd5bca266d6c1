import { afterEach, describe, expect, it, vi } from 'vitest';
import { mutateManyRows, mutateOneRow, type WriteFailure } from '../../../src/driver/data-ops.js';
import { DeadlineExceededError, DriverError, OperationAbortedError } from '../../../src/errors/index.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { DEFAULT_WRITE_RETRY } from '../../../src/driver/write-retry.js';
import { isTransientStatus, retryDelayInDetails } from '../../../src/driver/retry-rules.js';
import { fakeMutateRowsClient } from '../../support/fake-mutate-rpc.js';
import type { DataClient } from '../../../src/driver/data-client.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const cell: CellMutation = {
  kind: 'setCell',
  family: 'f',
  qualifier: 'q',
  timestampMicros: 1_000,
  value: Buffer.from('v'),
};
const row = (key: string, idempotent = true): CompiledMutation => ({
  table: 't',
  rowKey: Buffer.from(key),
  rowKeyText: key,
  mutations: [cell],
  idempotent,
});
const rstStream = {
  code: 13,
  message: '13 INTERNAL: Received RST_STREAM with code 2 triggered by internal client error: read ECONNRESET',
};

const withoutCause = ({ cause: _cause, ...failure }: WriteFailure): Omit<WriteFailure, 'cause'> => failure;
/** Lets the fake's replies (sent on `setImmediate`) and their handling run, whatever the timers. */
const settleIo = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

const clients: DataClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const client of clients.splice(0)) await client.close();
});

function fake(reply: Parameters<typeof fakeMutateRowsClient>[0]) {
  const made = fakeMutateRowsClient(reply);
  clients.push(made.data);
  return made;
}

describe('mutateManyRows retries per entry', () => {
  it('retries an entry whose status is INTERNAL RST_STREAM', async () => {
    const { data, table, rpc } = fake((keys, attempt) => ({
      statuses: keys.map((k) => (attempt === 0 && k === 'b' ? rstStream : 0)),
    }));
    expect(await mutateManyRows(data, table, [row('a'), row('b')])).toEqual([]);
    expect(rpc.requests.map((r) => r.keys)).toEqual([['a', 'b'], ['b']]);
  });

  it('after an RPC-level RST_STREAM error resends only the entries without a final status', async () => {
    const { data, table, rpc } = fake((keys, attempt) =>
      attempt === 0 ? { statuses: [0, undefined, 3], then: { error: rstStream } } : { statuses: keys.map(() => 0) },
    );
    const failures = await mutateManyRows(data, table, [row('a'), row('b'), row('c'), row('d')]);
    expect(failures).toEqual([{ index: 2, grpcCode: 3, message: 'failed c' }]);
    expect(rpc.requests.map((r) => r.keys)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['b', 'd'],
    ]);
  });

  it('sends an idempotent entry the server sent no status for again; a non-idempotent one is failed, never written', async () => {
    const { data, table, rpc } = fake((keys, attempt) => ({
      statuses: attempt === 0 ? [0, undefined, 0, undefined] : keys.map(() => 0),
    }));
    const failures = await mutateManyRows(data, table, [row('a'), row('b'), row('c'), row('d', false)]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ index: 3, grpcCode: undefined });
    expect(failures[0]?.message).toMatch(/no status received/);
    expect(rpc.requests.map((r) => r.keys)).toEqual([['a', 'b', 'c', 'd'], ['b']]);
  });

  it('never reports an entry confirmed OK as failed when the RPC then fails for good', async () => {
    const { data, table, rpc } = fake(() => ({
      statuses: [0, undefined, 0],
      then: { error: { code: 3, message: '3 INVALID_ARGUMENT: bad request' } },
    }));
    const failures = await mutateManyRows(data, table, [row('a'), row('b'), row('c'), row('d')]);
    expect(failures.map(withoutCause)).toEqual([
      { index: 1, grpcCode: 3, message: '3 INVALID_ARGUMENT: bad request' },
      { index: 3, grpcCode: 3, message: '3 INVALID_ARGUMENT: bad request' },
    ]);
    expect(failures[0]?.cause).toMatchObject({ code: 3 });
    expect(rpc.requests).toHaveLength(1);
  });

  it('retries the idempotent entries of a mixed batch; a non-idempotent entry with a transient status fails with it', async () => {
    const { data, table, rpc } = fake((keys, attempt) => ({ statuses: keys.map(() => (attempt === 0 ? 14 : 0)) }));
    const failures = await mutateManyRows(data, table, [row('a'), row('n', false), row('b')]);
    expect(failures).toEqual([{ index: 1, grpcCode: 14, message: 'failed n' }]);
    expect(rpc.requests.map((r) => r.keys)).toEqual([
      ['a', 'n', 'b'],
      ['a', 'b'],
    ]);
  });

  it('after a transient RPC failure retries only the idempotent entries without a status; the others fail with the RPC code', async () => {
    const { data, table, rpc } = fake((keys, attempt) =>
      attempt === 0
        ? { statuses: [0], then: { error: { code: 14, message: '14 UNAVAILABLE: Connection dropped' } } }
        : { statuses: keys.map(() => 0) },
    );
    const failures = await mutateManyRows(data, table, [row('a', false), row('n', false), row('b')]);
    expect(failures.map(withoutCause)).toEqual([
      { index: 1, grpcCode: 14, message: '14 UNAVAILABLE: Connection dropped' },
    ]);
    expect(rpc.requests.map((r) => r.keys)).toEqual([['a', 'n', 'b'], ['b']]);
  });

  it('rejects a non-retryable whole-RPC failure with DriverError when no entry was written', async () => {
    const { data, table, rpc } = fake(() => ({
      then: { error: { code: 5, message: '5 NOT_FOUND: table not found' } },
    }));
    const error = await mutateManyRows(data, table, [row('a'), row('b')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(5);
    expect(rpc.requests).toHaveLength(1);
  });

  it('numbers its attempts in the bigtable-attempt header, never in retry-request (which would delay them)', async () => {
    const { data, table, rpc } = fake((keys, attempt) => ({ statuses: keys.map(() => (attempt < 2 ? 14 : 0)) }));
    expect(await mutateManyRows(data, table, [row('a')])).toEqual([]);
    expect(rpc.requests.map((r) => r.attemptHeader)).toEqual([0, 1, 2]);
    expect(rpc.requests.map((r) => r.retryRequestAttempt)).toEqual([0, 0, 0]);
  });

  it('waits at least the RetryInfo delay the server asks for before retrying', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const retryInfo = { retryDelay: { seconds: 3, nanos: 0 } };
    const { data, table, rpc } = fake((keys, attempt) =>
      attempt === 0
        ? { then: { error: { code: 8, message: '8 RESOURCE_EXHAUSTED: slow down', statusDetails: [retryInfo] } } }
        : { statuses: keys.map(() => 0) },
    );
    const done = mutateManyRows(data, table, [row('a')]);
    await settleIo();
    await vi.advanceTimersByTimeAsync(2_900);
    expect(rpc.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await settleIo();
    expect(rpc.requests).toHaveLength(2);
    expect(await done).toEqual([]);
  });

  it(
    'settles at the deadline under a stall: entries confirmed OK are not failures, the unconfirmed ones fail with DEADLINE_EXCEEDED',
    { timeout: 5_000 },
    async () => {
      const { data, table, rpc } = fake(() => ({ statuses: [0], then: 'stall' }));
      const failures = await mutateManyRows(data, table, [row('a'), row('b'), row('c', false)], {
        signal: deadlineSignal(150),
      });
      expect(failures.map((f) => [f.index, f.grpcCode])).toEqual([
        [1, 4],
        [2, 4],
      ]);
      expect(failures[0]?.cause).toBeInstanceOf(DeadlineExceededError);
      expect(rpc.requests[0]?.cancels).toBeGreaterThan(0);
    },
  );

  it(
    'cuts a stalled attempt after attemptTimeoutMs and retries its idempotent entries',
    { timeout: 5_000 },
    async () => {
      const { data, table, rpc } = fake((keys, attempt) =>
        attempt === 0 ? { then: 'stall' } : { statuses: keys.map(() => 0) },
      );
      const failures = await mutateManyRows(data, table, [row('a'), row('n', false)], {
        attemptTimeoutMs: 100,
        signal: deadlineSignal(4_000),
      });
      expect(failures.map((f) => [f.index, f.grpcCode])).toEqual([[1, 4]]);
      expect(rpc.requests.map((r) => r.keys)).toEqual([['a', 'n'], ['a']]);
      expect(rpc.requests[0]?.cancels).toBeGreaterThan(0);
    },
  );

  it(
    'on abort cancels the stream and reports the unconfirmed entries failed with the abort error as cause',
    { timeout: 5_000 },
    async () => {
      const { data, table, rpc } = fake(() => ({ statuses: [0], then: 'stall' }));
      const controller = new AbortController();
      const done = mutateManyRows(data, table, [row('a'), row('b')], { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user gave up')), 50);
      const failures = await done;
      expect(failures.map((f) => f.index)).toEqual([1]);
      expect(failures[0]?.cause).toBeInstanceOf(OperationAbortedError);
      expect(rpc.requests[0]?.cancels).toBeGreaterThan(0);
    },
  );

  it('sends nothing and rejects with the typed error when the signal is already aborted or the deadline passed', async () => {
    const { data, table, rpc } = fake(() => ({}));
    const controller = new AbortController();
    controller.abort();
    await expect(mutateManyRows(data, table, [row('a')], { signal: controller.signal })).rejects.toBeInstanceOf(
      OperationAbortedError,
    );
    await expect(mutateManyRows(data, table, [row('a')], { signal: deadlineSignal(0) })).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    expect(rpc.requests).toEqual([]);
  });
});

describe('mutateOneRow', () => {
  it('retries an idempotent row after RST_STREAM', async () => {
    const { data, table, rpc } = fake((_keys, attempt) =>
      attempt === 0 ? { then: { error: rstStream } } : { statuses: [0] },
    );
    await mutateOneRow(data, table, row('a'));
    expect(rpc.requests).toHaveLength(2);
  });

  it('sends a non-idempotent row once and rejects with the gRPC code', async () => {
    const { data, table, rpc } = fake(() => ({ statuses: [14] }));
    const error = await mutateOneRow(data, table, row('n', false)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).grpcCode).toBe(14);
    expect(rpc.requests).toHaveLength(1);
  });

  it(
    'rejects with DeadlineExceededError at the deadline and with the abort error on abort',
    { timeout: 5_000 },
    async () => {
      const { data, table, rpc } = fake(() => ({ then: 'stall' }));
      await expect(mutateOneRow(data, table, row('a'), { signal: deadlineSignal(100) })).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await expect(mutateOneRow(data, table, row('a'), { signal: controller.signal })).rejects.toBeInstanceOf(
        OperationAbortedError,
      );
      expect(rpc.requests.map((r) => r.cancels > 0)).toEqual([true, true]);
    },
  );
});

describe('write retry policy', () => {
  it('treats 4, 8, 10, 14 and INTERNAL RST_STREAM as transient, nothing else', () => {
    for (const code of [4, 8, 10, 14]) expect(isTransientStatus(code, '')).toBe(true);
    expect(isTransientStatus(13, 'Received RST_STREAM with code 2 (Internal server error)')).toBe(true);
    expect(isTransientStatus(13, 'unknown family "x"')).toBe(false);
    for (const code of [0, 1, 2, 3, 5, 6, 7, 9, 11, 12, 15, 16]) expect(isTransientStatus(code, 'x')).toBe(false);
    expect(isTransientStatus(undefined, 'Received RST_STREAM')).toBe(false);
    expect(isTransientStatus(10, 'The client has already been closed.')).toBe(false);
  });

  it('backs off exponentially with jitter, capped at 60 s, over at most 10 attempts', () => {
    expect(DEFAULT_WRITE_RETRY.maxAttempts).toBe(10);
    for (let retry = 1; retry <= 20; retry++) {
      const ms = DEFAULT_WRITE_RETRY.delayMs(retry);
      expect(ms).toBeGreaterThanOrEqual(Math.min(10 * 2 ** retry, 60_000));
      expect(ms).toBeLessThanOrEqual(Math.min(10 * 2 ** retry + 100, 60_000));
    }
  });

  it('reads RetryInfo from decoded status details (number, string or Long seconds) and from an entry status Any', () => {
    expect(retryDelayInDetails([{ retryDelay: { seconds: 2, nanos: 500_000_000 } }])).toBe(2_500);
    expect(retryDelayInDetails([{ reason: 'x' }, { retryDelay: { seconds: '1', nanos: 0 } }])).toBe(1_000);
    expect(retryDelayInDetails([{ retryDelay: { seconds: { toNumber: () => 3 }, nanos: 0 } }])).toBe(3_000);
    // RetryInfo { retry_delay: Duration { seconds: 1, nanos: 250000000 } }
    const value = Buffer.from([0x0a, 0x07, 0x08, 0x01, 0x10, 0x80, 0xe5, 0x9a, 0x77]);
    expect(retryDelayInDetails([{ typeUrl: 'type.googleapis.com/google.rpc.RetryInfo', value }])).toBe(1_250);
    expect(retryDelayInDetails([{ type_url: 'type.googleapis.com/google.rpc.ErrorInfo', value }])).toBeUndefined();
    expect(retryDelayInDetails([{ retryDelay: { seconds: 3_600, nanos: 0 } }])).toBe(60_000);
    expect(retryDelayInDetails(undefined)).toBeUndefined();
  });
});
