import { describe, expect, it } from 'vitest';
import { DriverError } from '../../../src/errors/errors.js';
import { openReadRows, OpenReads, READ_BUFFER_LIMITS } from '../../../src/driver/read-stream.js';
import type { CallOptions, RowData } from '../../../src/model/driver.js';
import { DeadlineExceededError, OperationAbortedError } from '../../../src/errors/operation-errors.js';
import { ReadRowsCall, type ReadRetryPolicy } from '../../../src/driver/read-rows-call.js';
import { planRead } from '../../../src/driver/read-plan.js';
import { fakeAttempt, fakeRows, responseOf } from '../../support/fake-read-attempt.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const noRetry: ReadRetryPolicy = { maxRetries: 0, isRetryable: () => false, delayMs: () => 0 };

/** One fake RPC attempt behind the real {@link ReadRowsCall}: what `openReadRows` gets from the driver. */
function fakeRead(call: CallOptions = {}) {
  const fake = fakeAttempt();
  const plan = planRead({ table: 't' });
  if (plan === undefined) throw new Error('a whole-table read has a plan');
  return { ...fake, open: () => new ReadRowsCall(plan, () => fake.attempt, noRetry, call, 'readRows "t"') };
}

const row = (i: number, valueBytes = 4) => responseOf(fakeRows(i, 1, valueBytes));
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The driver's read source taken a batch at a time, as the mapper's scans take it. */
function openBatches(...args: Parameters<typeof openReadRows>) {
  const stream = openReadRows(...args);
  return {
    nextBatch: async (): Promise<readonly RowData[] | undefined> => {
      const result = await stream.next();
      return result.done === true ? undefined : result.value;
    },
    cancel: () => stream.cancel(),
  };
}

describe('openReadRows (the driver read source)', () => {
  it('hands over the rows that arrived in one turn of the event loop as one batch, and ends after the stream ended', async () => {
    const { stream, open } = fakeRead();
    const counter = new OpenReads();
    const source = openBatches(open, 'readRows "t"', counter);
    const first = source.nextBatch();
    expect(counter.active).toBe(1);
    await tick();
    stream.write(row(0));
    let chain = Promise.resolve();
    for (let i = 1; i < 5; i++) chain = chain.then(() => void stream.write(row(i)));
    const rows = await first;
    expect(rows?.length).toBe(5);
    const rest: string[] = [];
    stream.end();
    for (let batch = await source.nextBatch(); batch !== undefined; batch = await source.nextBatch())
      rest.push(...batch.map((r) => r.key.toString()));
    expect([...(rows ?? []).map((r) => r.key.toString()), ...rest]).toEqual([
      'k00000',
      'k00001',
      'k00002',
      'k00003',
      'k00004',
    ]);
    expect(counter.active).toBe(0);
  });

  it('pauses the stream once the buffer reaches its row limit and resumes it when the consumer takes the batch', async () => {
    const { stream, open } = fakeRead();
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    const total = READ_BUFFER_LIMITS.rows * 2 + 10;
    let written = 0;
    const writeAll = async (): Promise<void> => {
      while (written < total) {
        if (!stream.write(row(written++))) await new Promise((resolve) => stream.once('drain', resolve));
      }
    };
    const writing = writeAll();
    let seen = (await first)?.length ?? 0;
    for (let i = 0; i < 10_000 && !stream.isPaused(); i++) await tick();
    expect(stream.isPaused()).toBe(true);
    const batch = await source.nextBatch();
    expect(batch?.length).toBe(READ_BUFFER_LIMITS.rows);
    expect(stream.isPaused()).toBe(false);
    seen += batch?.length ?? 0;
    const reading = (async () => {
      for (let next = await source.nextBatch(); next !== undefined; next = await source.nextBatch())
        seen += next.length;
    })();
    await writing;
    stream.end();
    await reading;
    expect(seen).toBe(total);
  });

  it('pauses once about READ_BUFFER_LIMITS.bytes of values are buffered, whatever the row count', async () => {
    const { stream, open } = fakeRead();
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    const big = Math.ceil(READ_BUFFER_LIMITS.bytes / 4);
    for (let i = 0; i < 6; i++) stream.write(row(i, big));
    await first;
    for (let i = 0; i < 5; i++) await tick();
    const batch = await source.nextBatch();
    expect(batch?.length).toBeLessThanOrEqual(5);
    source.cancel();
  });

  it('delivers the rows received before an error, then rejects with a DriverError', async () => {
    const { stream, open } = fakeRead();
    const counter = new OpenReads();
    const source = openBatches(open, 'readRows "t"', counter);
    const first = source.nextBatch();
    stream.write(row(0));
    stream.write(row(1));
    await tick();
    stream.destroy(Object.assign(new Error('unavailable'), { code: 14 }));
    const delivered = [...((await first) ?? [])];
    const next = await source.nextBatch().catch((error: unknown) => error);
    if (Array.isArray(next)) delivered.push(...next);
    const failure = Array.isArray(next) ? await source.nextBatch().catch((error: unknown) => error) : next;
    expect(delivered.map((r) => r.key.toString())).toEqual(['k00000', 'k00001']);
    expect(failure).toBeInstanceOf(DriverError);
    expect((failure as DriverError).grpcCode).toBe(14);
    expect(counter.active).toBe(0);
  });

  it('cancel() aborts the gRPC call, destroys the stream and resolves a pending read with undefined', async () => {
    const { calls, open } = fakeRead();
    const counter = new OpenReads();
    const source = openBatches(open, 'readRows "t"', counter);
    const pending = source.nextBatch();
    expect(await Promise.race([pending, tick().then(() => 'pending')])).toBe('pending');
    source.cancel();
    source.cancel();
    expect(await pending).toBeUndefined();
    await tick();
    expect(calls.cancel).toBeGreaterThanOrEqual(1);
    expect(calls.destroy).toBeGreaterThanOrEqual(1);
    expect(counter.active).toBe(0);
    expect(await source.nextBatch()).toBeUndefined();
  });

  it('cancel() drops rows received but not yet handed over', async () => {
    const { stream, open } = fakeRead();
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    stream.write(row(0));
    await first;
    stream.write(row(1));
    await tick();
    source.cancel();
    expect(await source.nextBatch()).toBeUndefined();
  });

  it('a stream closed without an end or an error fails the read instead of leaving it pending', async () => {
    const { stream, open } = fakeRead();
    const counter = new OpenReads();
    const source = openBatches(open, 'readRows "t"', counter);
    const first = source.nextBatch();
    stream.destroy();
    await expect(first).rejects.toThrow(/closed before its end/);
    expect(counter.active).toBe(0);
  });

  it('chunks that break the protocol fail the read with a DriverError and abort the call', async () => {
    const { stream, calls, open } = fakeRead();
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    stream.write({
      chunks: [
        {
          rowKey: Buffer.from('k'),
          familyName: { value: 'f' },
          qualifier: { value: Buffer.from('q') },
          value: Buffer.from('v'),
          valueSize: 3,
          commitRow: true,
        },
      ],
    });
    await expect(first).rejects.toThrow(
      /readRows "t" failed: invalid ReadRows response: a chunk with valueSize set cannot commit its row/,
    );
    await expect(first).rejects.toBeInstanceOf(DriverError);
    expect(calls.cancel).toBeGreaterThanOrEqual(1);
  });
});

describe('openReadRows: abort, deadline and close', () => {
  it('an aborted signal rejects the pending pull at once with OperationAbortedError, not a DriverError', async () => {
    const controller = new AbortController();
    const { calls, open } = fakeRead({ signal: controller.signal });
    const reads = new OpenReads();
    const source = openBatches(open, 'readRows "t"', reads);
    const pending = source.nextBatch();
    await tick();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OperationAbortedError);
    expect(calls.cancel).toBeGreaterThanOrEqual(1);
    expect(reads.active).toBe(0);
  });

  it('an abort drops the rows buffered for the consumer: the next pull rejects', async () => {
    const controller = new AbortController();
    const { stream, open } = fakeRead({ signal: controller.signal });
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    stream.write(row(0));
    await first;
    stream.write(row(1));
    await tick();
    controller.abort();
    await expect(source.nextBatch()).rejects.toBeInstanceOf(OperationAbortedError);
  });

  it('an idle attempt with no retry left rejects with DeadlineExceededError itself, after the rows buffered before it', async () => {
    const { stream, open } = fakeRead({ idleTimeoutMs: 50 });
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    const first = source.nextBatch();
    stream.write(row(0));
    expect((await first)?.length).toBe(1);
    const failure = await source.nextBatch().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeadlineExceededError);
    expect(failure).toMatchObject({ kind: 'idle' });
  });

  it('a read whose deadline passed rejects with DeadlineExceededError itself', async () => {
    const { open } = fakeRead({ signal: deadlineSignal(0) });
    const source = openBatches(open, 'readRows "t"', new OpenReads());
    await expect(source.nextBatch()).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('closeAll() fails every open read with OperationAbortedError naming it and cancels its call; reads opened later fail at once', async () => {
    const reads = new OpenReads();
    const one = fakeRead();
    const two = fakeRead();
    const first = openBatches(one.open, 'readRows "a"', reads);
    const second = openBatches(two.open, 'readRows "b"', reads);
    const pending = first.nextBatch();
    two.stream.write(row(0));
    expect((await second.nextBatch())?.length).toBe(1);
    expect(reads.active).toBe(2);
    reads.closeAll('the driver was closed');
    expect(reads.active).toBe(0);
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OperationAbortedError);
    expect((failure as OperationAbortedError).operation).toBe('readRows "a"');
    expect((failure as Error).message).toMatch(/the driver was closed/);
    await expect(second.nextBatch()).rejects.toBeInstanceOf(OperationAbortedError);
    expect(one.calls.cancel).toBeGreaterThanOrEqual(1);
    expect(two.calls.cancel).toBeGreaterThanOrEqual(1);
    const late = fakeRead();
    const third = openBatches(late.open, 'readRows "c"', reads);
    await expect(third.nextBatch()).rejects.toBeInstanceOf(OperationAbortedError);
    expect(late.calls.cancel).toBe(0);
  });

  it('closeAll() leaves a source cancelled or never pulled alone: cancelled ends, unpulled fails on its first pull', async () => {
    const reads = new OpenReads();
    const cancelled = openBatches(fakeRead().open, 'readRows "a"', reads);
    cancelled.cancel();
    const unpulled = openBatches(fakeRead().open, 'readRows "b"', reads);
    reads.closeAll('the driver was closed');
    expect(await cancelled.nextBatch()).toBeUndefined();
    await expect(unpulled.nextBatch()).rejects.toBeInstanceOf(OperationAbortedError);
  });
});
