import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import type { CallOptions, MutateRowsRequest, RowMutationFailure } from '../../../src/model/driver.js';
import { DeadlineExceededError, OperationAbortedError, PartialWriteError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { Repository } from '../../../src/repository/repository.js';
import { writeMany } from '../../../src/repository/save-many.js';
import { abortError, deadlineOf, deadlineSignal } from '../../../src/util/operation-signal.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

@Entity({ table: 'items' })
@Family('d')
class Item {
  @KeyPart(0, { type: 'uint', width: 6 }) n!: number;
  @Column({ family: 'd', type: 'int' }) value?: number;
}

const schema = compileEntity(Item);
const item = (n: number): Item => Object.assign(new Item(), { n, value: n });
const keyOf = (n: number): string => compileSave(schema, item(n)).rowKeyText;
const compile = (e: Item): CompiledMutation => compileSave(schema, e);

/**
 * A fake driver whose MutateRows calls wait until the test releases them.
 * With `honourSignal` a call rejects with the typed abort error as soon as its
 * signal aborts, as the real driver does.
 */
class GatedDriver extends FakeDriver {
  readonly waiting: (() => void)[] = [];
  readonly options: (CallOptions | undefined)[] = [];

  constructor(private readonly honourSignal: boolean) {
    super();
  }

  override async mutateRows(request: MutateRowsRequest, options?: CallOptions): Promise<RowMutationFailure[]> {
    this.options.push(options);
    await new Promise<void>((resolve, reject) => {
      this.waiting.push(resolve);
      const signal = options?.signal;
      if (this.honourSignal && signal !== undefined)
        signal.addEventListener('abort', () => reject(abortError(signal, `mutateRows "${request.table}"`)), {
          once: true,
        });
    });
    return super.mutateRows(request);
  }

  /** Lets the oldest waiting call go on. */
  releaseOne(): void {
    this.waiting.shift()?.();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await tick();
  expect(predicate()).toBe(true);
}

/** Tracks whether a promise has settled, without awaiting it. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; result: Promise<T> } {
  let settled = false;
  const result = promise.finally(() => (settled = true));
  result.catch(() => undefined);
  return { settled: () => settled, result };
}

async function partial(promise: Promise<unknown>): Promise<PartialWriteError<Item>> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialWriteError);
  return err as PartialWriteError<Item>;
}

describe('bulk write whose input throws', { timeout: 5_000 }, () => {
  it('stops reading, waits for the batches in flight, then rejects with a PartialWriteError saying what was persisted, failed and not attempted', async () => {
    const driver = new GatedDriver(false);
    driver.reject(keyOf(3), GrpcCode.Internal, 'internal error');
    const broken = new Error('input broke');
    let thrown = false;
    function* input(): Generator<Item> {
      for (let n = 0; n < 7; n++) yield item(n);
      thrown = true;
      throw broken;
    }
    const write = watch(writeMany(driver, 'Item', 'items', input(), compile, { batchSize: 2, concurrency: 2 }));
    await until(() => driver.waiting.length === 2); // [0,1] and [2,3] in flight
    driver.releaseOne(); // [0,1] done: the worker reads [4,5] and sends it
    await until(() => driver.waiting.length === 2);
    driver.releaseOne(); // [2,3] done: the next read hits the input's error
    await until(() => thrown);
    await tick();
    expect(write.settled()).toBe(false); // [4,5] is still in flight
    driver.releaseOne();
    const err = await partial(write.result);
    expect(err.cause).toBe(broken);
    expect(err.succeeded).toBe(5);
    expect(err.failures.map((f) => [f.index, f.grpcCode])).toEqual([[3, GrpcCode.Internal]]);
    expect(err.notAttempted).toEqual([6]);
    expect(err.unreadFrom).toBe(7);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => err.wasPersisted(i))).toEqual([
      true,
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(driver.options).toHaveLength(3);
    expect(driver.rows('items')).toHaveLength(5);
    expect(err.message.split('\n')[0]).toContain('input broke');
  });

  it('reports an input that throws before anything was read, with nothing sent', async () => {
    const driver = new FakeDriver();
    const broken = new Error('no input');
    const input: Iterable<Item> = {
      [Symbol.iterator]: () => ({
        next: () => {
          throw broken;
        },
      }),
    };
    const err = await partial(writeMany(driver, 'Item', 'items', input, compile));
    expect([err.cause, err.succeeded, err.failures.length, err.notAttempted, err.unreadFrom]).toEqual([
      broken,
      0,
      0,
      [],
      0,
    ]);
    expect(driver.calls).toEqual([]);
  });
});

describe('bulk write stopped by its signal (abort or deadline)', { timeout: 5_000 }, () => {
  it('sends no further batch, has the in-flight calls cancelled, and lists what was never sent', async () => {
    const driver = new GatedDriver(true);
    const controller = new AbortController();
    const write = writeMany(
      driver,
      'Item',
      'items',
      Array.from({ length: 20 }, (_, n) => item(n)),
      compile,
      { batchSize: 2, concurrency: 2 },
      { signal: controller.signal },
    );
    await until(() => driver.waiting.length === 2);
    controller.abort(new Error('user stop'));
    const err = await partial(write);
    expect(err.cause).toBeInstanceOf(OperationAbortedError);
    expect(driver.options).toHaveLength(2);
    expect(driver.options.every((o) => o?.signal === controller.signal)).toBe(true);
    expect(err.succeeded).toBe(0);
    expect(err.failures.map((f) => f.index)).toEqual([0, 1, 2, 3]);
    expect(err.failures[0]?.cause).toBeInstanceOf(OperationAbortedError);
    expect(err.notAttempted).toEqual([4]);
    expect(err.unreadFrom).toBe(5);
  });

  it('counts the batches in flight that still completed as persisted', async () => {
    const driver = new GatedDriver(false);
    const controller = new AbortController();
    const write = writeMany(
      driver,
      'Item',
      'items',
      Array.from({ length: 20 }, (_, n) => item(n)),
      compile,
      { batchSize: 2, concurrency: 2 },
      { signal: controller.signal },
    );
    await until(() => driver.waiting.length === 2);
    controller.abort();
    driver.releaseOne();
    driver.releaseOne();
    const err = await partial(write);
    expect(err.cause).toBeInstanceOf(OperationAbortedError);
    expect([err.succeeded, err.failures.length, err.notAttempted, err.unreadFrom]).toEqual([4, 0, [4], 5]);
    expect(driver.options).toHaveLength(2);
  });

  it('saveMany with timeoutMs: the deadline stops it with a DeadlineExceededError cause', async () => {
    const driver = new GatedDriver(true);
    const repo = new Repository(driver, schema);
    const err = await partial(
      repo.saveMany(
        Array.from({ length: 1_000 }, (_, n) => item(n)),
        { batchSize: 10, concurrency: 2, timeoutMs: 50 },
      ),
    );
    expect(err.cause).toBeInstanceOf(DeadlineExceededError);
    expect(driver.options).toHaveLength(2);
    expect(err.failures).toHaveLength(20);
    expect(err.unreadFrom).toBe(21);
    expect(err.notAttempted).toEqual([20]);
    expect(deadlineOf(driver.options[0]?.signal)).toBeTypeOf('number');
  });

  it('stops at the deadline even before the signal says so: a call the driver cut at the deadline is followed by no other', async () => {
    const driver = new FakeDriver();
    // Far enough ahead that both first calls are sent before it passes, even on a busy machine.
    const signal = deadlineSignal(1_000);
    const deadline = deadlineOf(signal) as number;
    driver.mutateRows = async (): Promise<RowMutationFailure[]> => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
      throw new DeadlineExceededError('mutateRows "items"', 1_000, 'total');
    };
    let calls = 0;
    const counted = driver.mutateRows;
    driver.mutateRows = (...args) => {
      calls += 1;
      return counted(...args);
    };
    const err = await partial(
      writeMany(
        driver,
        'Item',
        'items',
        Array.from({ length: 1_000 }, (_, n) => item(n)),
        compile,
        { batchSize: 10 },
        { signal },
      ),
    );
    expect(calls).toBe(2);
    expect(err.cause).toBeInstanceOf(DeadlineExceededError);
    expect([err.failures.length, err.notAttempted, err.unreadFrom]).toEqual([20, [20], 21]);
  });

  it('resolves normally when the signal aborts after everything was written', async () => {
    const driver = new FakeDriver();
    const controller = new AbortController();
    const result = await writeMany(
      driver,
      'Item',
      'items',
      [item(1), item(2)],
      compile,
      {},
      { signal: controller.signal },
    );
    controller.abort();
    expect(result).toEqual({ written: 2 });
  });
});

describe('memory held by a bulk write', { timeout: 5_000 }, () => {
  it('reads no further than the batches in flight plus the one being filled', async () => {
    const driver = new GatedDriver(false);
    let pulled = 0;
    function* endless(): Generator<Item> {
      for (let n = 0; ; n++) {
        pulled += 1;
        yield item(n);
      }
    }
    const controller = new AbortController();
    const write = writeMany(
      driver,
      'Item',
      'items',
      endless(),
      compile,
      { batchSize: 10, concurrency: 3 },
      { signal: controller.signal },
    );
    await until(() => driver.waiting.length === 3);
    for (let i = 0; i < 5; i++) await tick();
    expect(pulled).toBe(31); // 3 batches in flight, and the entity that closed the third
    driver.releaseOne();
    await until(() => driver.waiting.length === 3);
    for (let i = 0; i < 5; i++) await tick();
    expect(pulled).toBe(41);
    controller.abort();
    driver.releaseOne();
    driver.releaseOne();
    driver.releaseOne();
    const err = await partial(write);
    expect([err.succeeded, err.notAttempted, err.unreadFrom]).toEqual([40, [40], 41]);
  });
});
