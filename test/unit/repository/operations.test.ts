import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import type { BigtableDriver, CallOptions, RowData } from '../../../src/model/driver.js';
import { DEFAULT_TIMEOUTS } from '../../../src/model/timeouts.js';
import { DeadlineExceededError, OperationAbortedError, ValidationError } from '../../../src/errors/index.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import { batchStream, type BatchStream } from '../../../src/stream/batch-stream.js';
import { deadlineOf } from '../../../src/util/operation-signal.js';

@Entity({ table: 'ops' })
@Salt({ buckets: 4 })
@Family('f')
class Item {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'string' }) name?: string;
}

const item = (id: string): Item => Object.assign(new Item(), { id, name: id });

/** A driver whose calls never settle by themselves; it records the call options and the reads it cancelled. */
function silentDriver(): { driver: BigtableDriver; calls: CallOptions[]; cancelled: () => number } {
  const calls: CallOptions[] = [];
  let cancelled = 0;
  const never = (options?: CallOptions): Promise<never> => {
    calls.push(options ?? {});
    return new Promise<never>((_, reject) => {
      if (options?.signal?.aborted === true) reject(options.signal.reason);
      options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
    });
  };
  const readRows = (_request: unknown, options?: CallOptions): BatchStream<RowData> => {
    calls.push(options ?? {});
    let stop: (() => void) | undefined;
    const stopped = new Promise<readonly RowData[] | undefined>((resolve, reject) => {
      stop = () => resolve(undefined);
      options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
    });
    stopped.catch(() => undefined);
    return batchStream({
      pull: () => stopped,
      stop: () => {
        cancelled += 1;
        stop?.();
      },
    });
  };
  const driver = {
    listTables: (_r: unknown, o?: CallOptions) => never(o),
    getFamilies: (_r: unknown, o?: CallOptions) => never(o),
    createTable: (_r: unknown, o?: CallOptions) => never(o),
    createFamily: (_r: unknown, o?: CallOptions) => never(o),
    setFamilyGc: (_r: unknown, o?: CallOptions) => never(o),
    deleteFamily: (_r: unknown, o?: CallOptions) => never(o),
    deleteTable: (_r: unknown, o?: CallOptions) => never(o),
    close: async () => undefined,
    mutateRow: (_m: unknown, o?: CallOptions) => never(o),
    mutateRows: (_r: unknown, o?: CallOptions) => never(o),
    readRows,
    checkAndMutate: (_r: unknown, o?: CallOptions) => never(o),
    increment: (_r: unknown, o?: CallOptions) => never(o),
    sampleRowKeys: (_r: unknown, o?: CallOptions) => never(o),
  } as BigtableDriver;
  return { driver, calls, cancelled: () => cancelled };
}

describe('operation deadlines and cancellation (repository level)', () => {
  it('a save the driver never settles rejects with DeadlineExceededError at its timeoutMs, and the driver saw the deadline and an aborted signal', async () => {
    const { driver, calls } = silentDriver();
    const mapper = new BigtableMapper({ driver, entities: [Item] });
    const before = Date.now();
    const error = await mapper
      .getRepository(Item)
      .save(item('a'), { timeoutMs: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).operation).toBe('Item.save');
    const [call] = calls;
    expect(deadlineOf(call?.signal)).toBeGreaterThanOrEqual(before + 30);
    expect(call?.attemptTimeoutMs).toBe(30);
    expect(call?.signal?.aborted).toBe(true);
  });

  it('passes the mapper defaults to the driver, and per-call overrides win', async () => {
    const { driver, calls } = silentDriver();
    const mapper = new BigtableMapper({ driver, entities: [Item], timeouts: { read: { idleMs: 1_234 } } });
    const repo = mapper.getRepository(Item);
    void repo.findOne({ id: 'a' }).catch(() => undefined);
    void repo.findOne({ id: 'a' }, { idleTimeoutMs: 99, attemptTimeoutMs: 77 }).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls[0]).toMatchObject({ idleTimeoutMs: 1_234, attemptTimeoutMs: DEFAULT_TIMEOUTS.read.attemptMs });
    expect(calls[1]).toMatchObject({ idleTimeoutMs: 99, attemptTimeoutMs: 77 });
    await mapper.close();
  });

  it('an already aborted signal rejects with OperationAbortedError without calling the driver', async () => {
    const { driver, calls } = silentDriver();
    const repo = new BigtableMapper({ driver, entities: [Item] }).getRepository(Item);
    const controller = new AbortController();
    controller.abort(new Error('user gave up'));
    const error = await repo.update({ id: 'a' }, { name: 'b' }, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationAbortedError);
    expect((error as Error).message).toContain('user gave up');
    expect(calls).toHaveLength(0);
  });

  it('aborting an iterator mid-scan rejects its pending next() and cancels every bucket read', async () => {
    const { driver, cancelled } = silentDriver();
    const repo = new BigtableMapper({ driver, entities: [Item] }).getRepository(Item);
    const controller = new AbortController();
    const iterator = repo.iterate({ signal: controller.signal })[Symbol.asyncIterator]();
    const pending = iterator.next();
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toBeInstanceOf(OperationAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled()).toBe(4);
  });

  it('a scan whose reads stay silent fails with DeadlineExceededError at its timeoutMs', async () => {
    const { driver } = silentDriver();
    const repo = new BigtableMapper({ driver, entities: [Item] }).getRepository(Item);
    await expect(repo.page({ limit: 10, timeoutMs: 20 })).rejects.toBeInstanceOf(DeadlineExceededError);
  });

  it('close() cancels an abandoned iterator and a pending write, resolves, and later calls are aborted', async () => {
    const { driver, cancelled } = silentDriver();
    const mapper = new BigtableMapper({ driver, entities: [Item] });
    const repo = mapper.getRepository(Item);
    const iterator = repo.iterate({})[Symbol.asyncIterator]();
    const pendingRead = iterator.next().catch((e: unknown) => e);
    const pendingWrite = repo.save(item('a')).catch((e: unknown) => e);
    await mapper.close();
    expect(await pendingRead).toBeInstanceOf(OperationAbortedError);
    expect(await pendingWrite).toBeInstanceOf(OperationAbortedError);
    expect(cancelled()).toBe(4);
    await expect(repo.delete({ id: 'a' })).rejects.toBeInstanceOf(OperationAbortedError);
    await expect(mapper.close()).resolves.toBeUndefined();
  });

  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: Number.NaN }],
    ['attemptTimeoutMs', { attemptTimeoutMs: -1 }],
    ['idleTimeoutMs', { idleTimeoutMs: '10' }],
    ['signal', { signal: { aborted: false } }],
  ])('rejects a bad %s with ValidationError before anything is sent', async (_name, options) => {
    const { driver, calls } = silentDriver();
    const repo = new BigtableMapper({ driver, entities: [Item] }).getRepository(Item);
    await expect(repo.save(item('a'), options as never)).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toHaveLength(0);
  });

  it.each([[{ scan: { idleMs: 0 } }], [{ reads: { totalMs: 10 } }], [{ write: { totalMs: 2 ** 40 } }]])(
    'rejects mapper timeouts %j with ValidationError',
    (timeouts) => {
      const { driver } = silentDriver();
      expect(() => new BigtableMapper({ driver, timeouts: timeouts as never })).toThrow(ValidationError);
    },
  );
});
