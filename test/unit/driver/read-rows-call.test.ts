import { describe, expect, it, vi } from 'vitest';
import { InvalidChunkError } from '../../../src/driver/chunk-merger.js';
import type { CallOptions, RowData } from '../../../src/model/driver.js';
import { DeadlineExceededError, OperationAbortedError } from '../../../src/errors/operation-errors.js';
import { planRead, type ReadPlan } from '../../../src/driver/read-plan.js';
import { clientReadRetryPolicy, isRetryableReadError } from '../../../src/driver/read-retry.js';
import { ReadRowsCall, type ReadRetryPolicy } from '../../../src/driver/read-rows-call.js';
import { chunksOf, fakeAttempt, fakeRows, responseOf, type FakeAttempt } from '../../support/fake-read-attempt.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const unavailable = (): Error => Object.assign(new Error('unavailable'), { code: 14 });
const retryAll = (maxRetries = 3): ReadRetryPolicy => ({
  maxRetries,
  isRetryable: isRetryableReadError,
  delayMs: () => 1,
});
const wait = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A ReadRowsCall over fake attempts, recording each attempt's plan and what reaches the sink. */
function harness(plan: ReadPlan, retry: ReadRetryPolicy = retryAll(), call: CallOptions = {}) {
  const attempts: { plan: ReadPlan; fake: FakeAttempt }[] = [];
  const rows: RowData[] = [];
  const outcome: { ended: boolean; error: unknown } = { ended: false, error: undefined };
  const feed = new ReadRowsCall(
    plan,
    (part) => {
      const fake = fakeAttempt();
      attempts.push({ plan: part, fake });
      return fake.attempt;
    },
    retry,
    call,
    'readRows "t"',
  );
  feed.start({
    push: (row) => rows.push(row),
    end: () => (outcome.ended = true),
    fail: (error) => (outcome.error = error),
  });
  const keys = (): string[] => rows.map((r) => r.key.toString());
  const last = (): FakeAttempt => (attempts.at(-1) as { fake: FakeAttempt }).fake;
  /** Fails the last attempt with `error` and waits until the read opened its next attempt or settled (not a fixed sleep: a loaded machine may run the retry timer late). */
  const fail = async (error: Error): Promise<void> => {
    const opened = attempts.length;
    last().stream.destroy(error);
    for (let i = 0; i < 400 && attempts.length === opened && !outcome.ended && outcome.error === undefined; i++)
      await wait(5);
  };
  return { call: feed, attempts, rows, outcome, keys, last, fail };
}

const whole = planRead({ table: 't' }) as ReadPlan;

describe('ReadRowsCall', () => {
  it('merges the chunks of every response into rows, in order, and ends when the stream ends', async () => {
    const h = harness(whole);
    h.last().stream.write(responseOf(fakeRows(0, 2)));
    h.last().stream.write({ chunks: chunksOf(fakeRows(2, 1)) });
    h.last().stream.end();
    await wait();
    expect(h.keys()).toEqual(['k00000', 'k00001', 'k00002']);
    expect(h.rows[0]?.cells).toEqual({ f: { q: [{ value: Buffer.from('aaaa'), timestampMicros: 1000 }] } });
    expect(h.outcome).toEqual({ ended: true, error: undefined });
    expect(h.attempts).toHaveLength(1);
  });

  it('after a retryable error, asks for the rest of the read after the last row delivered, without repeating a row', async () => {
    const h = harness(planRead({ table: 't', limit: 10 }) as ReadPlan);
    h.last().stream.write(responseOf(fakeRows(0, 3)));
    h.last().stream.write({ chunks: chunksOf(fakeRows(3, 1)).map((c) => ({ ...c, commitRow: false })) });
    await h.fail(unavailable());
    expect(h.attempts).toHaveLength(2);
    expect(h.attempts[1]?.plan).toEqual({
      ranges: [{ start: { value: Buffer.from('k00002'), inclusive: false } }],
      keys: [],
      limit: 7,
      filter: undefined,
    });
    h.last().stream.write(responseOf(fakeRows(3, 2)));
    h.last().stream.end();
    await wait();
    expect(h.keys()).toEqual(['k00000', 'k00001', 'k00002', 'k00003', 'k00004']);
    expect(h.outcome.ended).toBe(true);
  });

  it('resumes after the last key the server reported scanning, and rejects a row that does not follow it', async () => {
    const h = harness(whole);
    h.last().stream.write(responseOf(fakeRows(0, 1), 'k00050'));
    await h.fail(unavailable());
    expect(h.attempts[1]?.plan.ranges).toEqual([{ start: { value: Buffer.from('k00050'), inclusive: false } }]);
    h.last().stream.write(responseOf(fakeRows(40, 1)));
    await wait();
    expect(h.outcome.error).toBeInstanceOf(InvalidChunkError);
    expect(h.attempts).toHaveLength(2);
  });

  it('reversed: after a retryable error, asks for the rest below the last row delivered, without repeating a row', async () => {
    const h = harness(planRead({ table: 't', limit: 10, reversed: true }) as ReadPlan);
    const down = (from: number, n: number) => fakeRows(from - n + 1, n).reverse();
    h.last().stream.write(responseOf(down(9, 3)));
    await h.fail(unavailable());
    expect(h.attempts[1]?.plan).toEqual({
      ranges: [{ end: { value: Buffer.from('k00007'), inclusive: false } }],
      keys: [],
      limit: 7,
      filter: undefined,
      reversed: true,
    });
    h.last().stream.write(responseOf(down(6, 2), 'k00003'));
    await h.fail(unavailable());
    expect(h.attempts[2]?.plan.ranges).toEqual([{ end: { value: Buffer.from('k00003'), inclusive: false } }]);
    expect(h.attempts[2]?.plan.limit).toBe(5);
    h.last().stream.write(responseOf(down(4, 1)));
    await wait();
    expect(h.outcome.error).toBeInstanceOf(InvalidChunkError);
    expect(h.keys()).toEqual(['k00009', 'k00008', 'k00007', 'k00006', 'k00005']);
  });

  it('reversed: a scanned key above the resume point is ignored, one below it moves the resume point', async () => {
    const h = harness(planRead({ table: 't', reversed: true }) as ReadPlan);
    h.last().stream.write(responseOf([{ key: 'k00050' }], 'k00060'));
    await h.fail(unavailable());
    expect(h.attempts[1]?.plan.ranges).toEqual([{ end: { value: Buffer.from('k00050'), inclusive: false } }]);
    h.last().stream.write(responseOf([], 'k00020'));
    await h.fail(unavailable());
    expect(h.attempts[2]?.plan.ranges).toEqual([{ end: { value: Buffer.from('k00020'), inclusive: false } }]);
    h.last().stream.write(responseOf([{ key: 'k00010' }]));
    h.last().stream.end();
    await wait();
    expect(h.keys()).toEqual(['k00050', 'k00010']);
    expect(h.outcome).toEqual({ ended: true, error: undefined });
  });

  it('ends without another attempt when the error comes after the limit was reached', async () => {
    const h = harness(planRead({ table: 't', limit: 2 }) as ReadPlan);
    h.last().stream.write(responseOf(fakeRows(0, 2)));
    await h.fail(unavailable());
    expect(h.attempts).toHaveLength(1);
    expect(h.outcome).toEqual({ ended: true, error: undefined });
  });

  it('fails at once on an error that is not retryable, with the error itself', async () => {
    const h = harness(whole);
    const notFound = Object.assign(new Error('table not found'), { code: 5 });
    await h.fail(notFound);
    expect(h.attempts).toHaveLength(1);
    expect(h.outcome.error).toBe(notFound);
  });

  it('gives up after maxRetries errors in a row, and data between errors resets the count', async () => {
    const h = harness(whole, retryAll(2));
    for (let i = 0; i < 2; i++) {
      await h.fail(unavailable());
    }
    h.last().stream.write(responseOf(fakeRows(0, 1)));
    for (let i = 0; i < 2; i++) {
      await h.fail(unavailable());
    }
    expect(h.outcome.error).toBeUndefined();
    await h.fail(unavailable());
    expect(h.attempts).toHaveLength(5);
    expect((h.outcome.error as { code?: number }).code).toBe(14);
  });

  it('gives up after maxRetries errors in a row when every attempt sends only part of a split row before failing', async () => {
    const h = harness(whole, retryAll(3));
    const halfRow = { chunks: chunksOf(fakeRows(0, 1)).map((c) => ({ ...c, commitRow: false })) };
    for (let i = 0; i < 10 && h.outcome.error === undefined; i++) {
      h.last().stream.write(halfRow);
      await wait();
      await h.fail(unavailable());
    }
    expect(h.attempts).toHaveLength(4);
    expect((h.outcome.error as { code?: number }).code).toBe(14);
    expect(h.rows).toHaveLength(0);
  });

  it('a scanned key already passed does not reset the retry count', async () => {
    const h = harness(whole, retryAll(2));
    for (let i = 0; i < 5 && h.outcome.error === undefined; i++) {
      h.last().stream.write(responseOf([], 'k00010'));
      await wait();
      await h.fail(unavailable());
    }
    expect(h.attempts).toHaveLength(3);
    expect((h.outcome.error as { code?: number }).code).toBe(14);
  });

  it('a larger scanned key between errors resets the retry count', async () => {
    const h = harness(whole, retryAll(2));
    for (let i = 0; i < 2; i++) {
      await h.fail(unavailable());
    }
    h.last().stream.write(responseOf([], 'k00020'));
    for (let i = 0; i < 2; i++) {
      await h.fail(unavailable());
    }
    expect(h.outcome.error).toBeUndefined();
    await h.fail(unavailable());
    expect(h.attempts).toHaveLength(5);
    expect((h.outcome.error as { code?: number }).code).toBe(14);
  });

  it('does not retry a stream that ended inside a row: the read fails with InvalidChunkError', async () => {
    const h = harness(whole);
    h.last().stream.write({ chunks: chunksOf(fakeRows(0, 1)).map((c) => ({ ...c, commitRow: false })) });
    h.last().stream.end();
    await wait();
    expect(h.outcome.error).toBeInstanceOf(InvalidChunkError);
    expect((h.outcome.error as Error).message).toMatch(/ended inside a row/);
  });

  it('a cancel during the retry delay starts no new attempt and tells the sink nothing', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(whole, { ...retryAll(), delayMs: () => 20 });
      h.last().stream.destroy(unavailable());
      await new Promise<void>((resolve) => process.nextTick(resolve));
      expect(vi.getTimerCount()).toBe(1);
      h.call.cancel();
      vi.advanceTimersByTime(1_000);
      expect(h.attempts).toHaveLength(1);
      expect(h.outcome).toEqual({ ended: false, error: undefined });
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancel() aborts the running attempt and ignores whatever it still sends', async () => {
    const h = harness(whole);
    h.call.cancel();
    h.last().stream.write(responseOf(fakeRows(0, 1)));
    await wait();
    expect(h.last().calls.cancel).toBeGreaterThanOrEqual(1);
    expect(h.rows).toHaveLength(0);
    expect(h.outcome).toEqual({ ended: false, error: undefined });
  });

  it('a read paused when an attempt fails starts the next attempt paused', async () => {
    const h = harness(whole);
    h.call.pause();
    await h.fail(unavailable());
    expect(h.last().stream.isPaused()).toBe(true);
    h.call.resume();
    expect(h.last().stream.isPaused()).toBe(false);
  });
});

describe('the read retry policy', () => {
  it('retries DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE and RST_STREAM, nothing else', () => {
    for (const code of [4, 8, 10, 14]) expect(isRetryableReadError({ code, message: 'x' })).toBe(true);
    expect(isRetryableReadError({ code: 13, message: 'Received RST_STREAM with code 2' })).toBe(true);
    for (const code of [1, 3, 5, 7, 13]) expect(isRetryableReadError({ code, message: 'x' })).toBe(false);
    expect(isRetryableReadError({ code: 10, message: 'The client has already been closed.' })).toBe(false);
    expect(isRetryableReadError(new Error('no code'))).toBe(false);
    expect(isRetryableReadError(undefined)).toBe(false);
  });

  it('retries an attempt the read cut for silence or length, never one past the total deadline', () => {
    expect(isRetryableReadError(new DeadlineExceededError('readRows "t"', 300, 'idle'))).toBe(true);
    expect(isRetryableReadError(new DeadlineExceededError('readRows "t"', 300, 'attempt'))).toBe(true);
    expect(isRetryableReadError(new DeadlineExceededError('readRows "t"', 300, 'total'))).toBe(false);
  });

  it("doubles the delay from 20 ms with up to 100 ms of jitter, at most 60 s, and takes the table's maxRetries", () => {
    const policy = clientReadRetryPolicy(undefined);
    expect(policy.maxRetries).toBe(10);
    expect(clientReadRetryPolicy(3).maxRetries).toBe(3);
    for (let i = 0; i < 50; i++) {
      expect(policy.delayMs(1)).toBeGreaterThanOrEqual(20);
      expect(policy.delayMs(1)).toBeLessThan(120);
      expect(policy.delayMs(3)).toBeGreaterThanOrEqual(80);
      expect(policy.delayMs(30)).toBe(60_000);
    }
  });
});

describe('ReadRowsCall when an attempt cannot start', () => {
  it('fails the read (not the process) when opening a retry attempt throws', async () => {
    let opened = 0;
    const first = fakeAttempt();
    const outcome: { error: unknown; ended: boolean } = { error: undefined, ended: false };
    const call = new ReadRowsCall(
      whole,
      () => {
        opened += 1;
        if (opened === 1) return first.attempt;
        throw new Error('the client has no channel');
      },
      retryAll(),
    );
    call.start({ push: () => undefined, end: () => (outcome.ended = true), fail: (error) => (outcome.error = error) });
    first.stream.destroy(unavailable());
    await wait(20);
    expect(opened).toBe(2);
    expect((outcome.error as Error).message).toBe('the client has no channel');
    expect(outcome.ended).toBe(false);
  });
});

/** Runs `body` on fake timers and a fake clock; stream events still flow (see {@link flush}). */
async function onFakeTime(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

/** Lets the fake streams deliver what was written or destroyed (their events are not timers). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Advances the fake clock by `ms`, letting stream events through before and after. */
const advance = async (ms: number): Promise<void> => {
  await flush();
  vi.advanceTimersByTime(ms);
  await flush();
};

describe('ReadRowsCall time bounds', () => {
  it('cuts an attempt that receives nothing for idleTimeoutMs and resumes after the last row', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { idleTimeoutMs: 1_000 });
      h.last().stream.write(responseOf(fakeRows(0, 2)));
      await advance(999);
      expect(h.attempts).toHaveLength(1);
      await advance(1);
      expect(h.attempts[0]?.fake.calls.cancel).toBeGreaterThanOrEqual(1);
      await advance(5);
      expect(h.attempts).toHaveLength(2);
      expect(h.attempts[1]?.plan.ranges).toEqual([{ start: { value: Buffer.from('k00001'), inclusive: false } }]);
      h.last().stream.write(responseOf(fakeRows(2, 1)));
      h.last().stream.end();
      await flush();
      expect(h.keys()).toEqual(['k00000', 'k00001', 'k00002']);
      expect(h.outcome).toEqual({ ended: true, error: undefined });
    });
  });

  it('responses keep an attempt alive past idleTimeoutMs: only silence counts', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { idleTimeoutMs: 1_000 });
      for (let i = 0; i < 5; i++) {
        await advance(600);
        h.last().stream.write(responseOf(fakeRows(i, 1)));
      }
      await advance(600);
      expect(h.attempts).toHaveLength(1);
      expect(h.rows).toHaveLength(5);
    });
  });

  it('a read paused by its consumer is not idle, however long it waits; the idle clock restarts on resume', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { idleTimeoutMs: 1_000 });
      h.call.pause();
      await advance(60_000);
      expect(h.attempts).toHaveLength(1);
      h.call.resume();
      await advance(999);
      expect(h.attempts).toHaveLength(1);
      await advance(10);
      expect(h.attempts[0]?.fake.calls.cancel).toBeGreaterThanOrEqual(1);
    });
  });

  it('fails with DeadlineExceededError (idle) when the last allowed attempt stays silent', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(1), { idleTimeoutMs: 1_000 });
      await advance(1_000);
      await advance(5);
      expect(h.attempts).toHaveLength(2);
      await advance(1_000);
      expect(h.outcome.error).toBeInstanceOf(DeadlineExceededError);
      expect(h.outcome.error).toMatchObject({ kind: 'idle', timeoutMs: 1_000, operation: 'readRows "t"' });
      expect(h.attempts[1]?.fake.calls.cancel).toBeGreaterThanOrEqual(1);
    });
  });

  it('cuts an attempt after attemptTimeoutMs even while responses arrive, and retries it', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { attemptTimeoutMs: 1_000, idleTimeoutMs: 500 });
      for (let i = 0; i < 4; i++) {
        h.last().stream.write(responseOf(fakeRows(i, 1)));
        await advance(300);
      }
      await advance(5);
      expect(h.attempts).toHaveLength(2);
      expect(h.attempts[0]?.fake.calls.cancel).toBeGreaterThanOrEqual(1);
      expect(h.attempts[1]?.plan.ranges).toEqual([{ start: { value: Buffer.from('k00003'), inclusive: false } }]);
    });
  });

  it('fails with DeadlineExceededError (attempt) when an attempt past attemptTimeoutMs may not be retried', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, { ...retryAll(), maxRetries: 0 }, { attemptTimeoutMs: 1_000 });
      await advance(1_000);
      expect(h.outcome.error).toBeInstanceOf(DeadlineExceededError);
      expect(h.outcome.error).toMatchObject({ kind: 'attempt', timeoutMs: 1_000 });
    });
  });

  it('cuts the running attempt at the deadline and fails with DeadlineExceededError (total), starting nothing more', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { signal: deadlineSignal(2_000), idleTimeoutMs: 30_000 });
      h.last().stream.write(responseOf(fakeRows(0, 1)));
      await advance(2_000);
      expect(h.outcome.error).toBeInstanceOf(DeadlineExceededError);
      expect(h.outcome.error).toMatchObject({ kind: 'total', timeoutMs: 2_000 });
      expect(h.last().calls.cancel).toBeGreaterThanOrEqual(1);
      await advance(60_000);
      expect(h.attempts).toHaveLength(1);
      expect(h.keys()).toEqual(['k00000']);
    });
  });

  it('opens no attempt when the deadline has already passed', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, retryAll(), { signal: deadlineSignal(0) });
      expect(h.attempts).toHaveLength(0);
      expect(h.outcome.error).toBeInstanceOf(DeadlineExceededError);
    });
  });

  it('does not start a retry whose delay ends past the deadline: fails at once with the last error as cause', async () => {
    await onFakeTime(async () => {
      const h = harness(whole, { ...retryAll(), delayMs: () => 5_000 }, { signal: deadlineSignal(2_000) });
      const error = unavailable();
      h.last().stream.destroy(error);
      await flush();
      expect(h.outcome.error).toBeInstanceOf(DeadlineExceededError);
      expect((h.outcome.error as Error).cause).toBe(error);
      await advance(10_000);
      expect(h.attempts).toHaveLength(1);
    });
  });
  it("waits the delay of the server's RetryInfo before the next attempt", async () => {
    await onFakeTime(async () => {
      const h = harness(whole, clientReadRetryPolicy(3));
      h.last().stream.destroy(
        Object.assign(unavailable(), { statusDetails: [{ retryDelay: { seconds: 2, nanos: 0 } }] }),
      );
      await advance(1_999);
      expect(h.attempts).toHaveLength(1);
      await advance(1);
      expect(h.attempts).toHaveLength(2);
    });
  });
});

describe('ReadRowsCall abort', () => {
  it('an aborted signal cancels the running attempt and fails the read with OperationAbortedError, without retrying', async () => {
    const controller = new AbortController();
    const h = harness(whole, retryAll(), { signal: controller.signal });
    h.last().stream.write(responseOf(fakeRows(0, 1)));
    await wait();
    controller.abort();
    expect(h.outcome.error).toBeInstanceOf(OperationAbortedError);
    expect((h.outcome.error as OperationAbortedError).operation).toBe('readRows "t"');
    expect(h.last().calls.cancel).toBeGreaterThanOrEqual(1);
    h.last().stream.write(responseOf(fakeRows(1, 1)));
    await wait();
    expect(h.keys()).toEqual(['k00000']);
    expect(h.attempts).toHaveLength(1);
  });

  it("fails with the signal's reason when it is already a typed error (the repository's deadline)", async () => {
    const controller = new AbortController();
    const reason = new DeadlineExceededError('Reading.scan', 5_000, 'total');
    const h = harness(whole, retryAll(), { signal: controller.signal });
    controller.abort(reason);
    expect(h.outcome.error).toBe(reason);
  });

  it('an abort during the retry delay starts no attempt', async () => {
    await onFakeTime(async () => {
      const controller = new AbortController();
      const h = harness(whole, { ...retryAll(), delayMs: () => 1_000 }, { signal: controller.signal });
      h.last().stream.destroy(unavailable());
      await flush();
      controller.abort();
      await advance(5_000);
      expect(h.attempts).toHaveLength(1);
      expect(h.outcome.error).toBeInstanceOf(OperationAbortedError);
    });
  });

  it('opens no attempt when the signal is already aborted', () => {
    const h = harness(whole, retryAll(), { signal: AbortSignal.abort() });
    expect(h.attempts).toHaveLength(0);
    expect(h.outcome.error).toBeInstanceOf(OperationAbortedError);
  });
});
