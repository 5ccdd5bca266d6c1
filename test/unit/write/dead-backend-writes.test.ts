import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { DriverError, UnreachableError } from '../../../src/errors/index.js';
import { PartialWriteError } from '../../../src/errors/operation-errors.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import type { MutateRowsRequest } from '../../../src/model/driver.js';
import { writeMany } from '../../../src/repository/save-many.js';
import { DEAD_BACKEND_BATCHES } from '../../../src/write/dead-backend-breaker.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

/**
 * A bulk write against a backend that is down: after DEAD_BACKEND_BATCHES
 * batches in a row failed as a whole with UNAVAILABLE (or could not connect),
 * the rest is never sent, and the report accounts for every entity.
 */

@Entity({ table: 'items' })
@Family('d')
class Item {
  @KeyPart(0, { type: 'uint', width: 6 }) n!: number;
  @Column({ family: 'd', type: 'int' }) value?: number;
}

const schema = compileEntity(Item);
const item = (n: number): Item => Object.assign(new Item(), { n, value: n });
const items = (count: number): Item[] => Array.from({ length: count }, (_, n) => item(n));
const compile = (e: Item): CompiledMutation => compileSave(schema, e);
const unavailable = (): DriverError =>
  new DriverError(
    'mutateRows "items"',
    Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }),
  );

async function partial(promise: Promise<unknown>): Promise<PartialWriteError<Item>> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialWriteError);
  return err as PartialWriteError<Item>;
}

/** Every input position is persisted, failed, not attempted or never read: once, and the counts add up. */
function expectExact(err: PartialWriteError<Item>, total: number): void {
  const read = err.unreadFrom ?? total;
  expect(err.succeeded + err.failures.length + err.notAttempted.length).toBe(read);
  const outcomes = [...err.failures.map((f) => f.index), ...err.notAttempted];
  expect(new Set(outcomes).size).toBe(outcomes.length);
  expect(outcomes.every((i) => i < read)).toBe(true);
}

describe('bulk write against a dead backend', { timeout: 5_000 }, () => {
  it(`stops after ${DEAD_BACKEND_BATCHES} batches in a row fail with UNAVAILABLE: the rest is never sent`, async () => {
    const driver = new FakeDriver();
    const errors = Array.from({ length: 10 }, unavailable);
    for (const error of errors) driver.failNext('mutateRows', error);
    const err = await partial(
      writeMany(driver, 'Item', 'items', items(200), compile, { batchSize: 10, concurrency: 1 }),
    );
    expect(driver.callsOf('mutateRows')).toHaveLength(DEAD_BACKEND_BATCHES);
    expect(err.cause).toBe(errors[DEAD_BACKEND_BATCHES - 1]);
    expect(err.failures.map((f) => f.index)).toEqual(Array.from({ length: 10 * DEAD_BACKEND_BATCHES }, (_, i) => i));
    expect(err.failures.every((f) => f.grpcCode === GrpcCode.Unavailable)).toBe(true);
    expect(err.succeeded).toBe(0);
    // the entity read into the next batch is not attempted, and reading stopped after it
    expect(err.notAttempted).toEqual([10 * DEAD_BACKEND_BATCHES]);
    expect(err.unreadFrom).toBe(10 * DEAD_BACKEND_BATCHES + 1);
    expectExact(err, 200);
    expect(err.message.split('\n')[0]).toContain('UNAVAILABLE');
    expect(driver.rows('items')).toHaveLength(0);
  });

  it('with several calls in flight, sends at most the calls in flight past the count', async () => {
    const driver = new FakeDriver();
    for (let i = 0; i < 50; i++) driver.failNext('mutateRows', unavailable());
    const concurrency = 4;
    const err = await partial(
      writeMany(driver, 'Item', 'items', items(1_000), compile, { batchSize: 10, concurrency }),
    );
    expect(driver.callsOf('mutateRows').length).toBeLessThanOrEqual(DEAD_BACKEND_BATCHES + concurrency - 1);
    expect(err.cause).toBeInstanceOf(DriverError);
    expect(err.notAttempted.length).toBeGreaterThan(0);
    expectExact(err, 1_000);
  });

  it('a successful batch resets the count: every batch is still tried', async () => {
    const driver = new FakeDriver({ yieldInCalls: false });
    // per batch: fail, fail, ok, fail, fail, ok, ... (never DEAD_BACKEND_BATCHES in a row)
    const pattern: boolean[] = [];
    for (let b = 0; b < 12; b++) pattern.push(b % DEAD_BACKEND_BATCHES !== DEAD_BACKEND_BATCHES - 1);
    const failing = new Set(pattern.flatMap((fail, b) => (fail ? [b] : [])));
    const wrapped = Object.assign(Object.create(driver) as FakeDriver, {
      mutateRows: (request: MutateRowsRequest) => {
        const b = driver.callsOf('mutateRows').length;
        if (failing.has(b)) driver.failNext('mutateRows', unavailable());
        return driver.mutateRows(request);
      },
    });
    const err = await partial(
      writeMany(wrapped, 'Item', 'items', items(120), compile, { batchSize: 10, concurrency: 1 }),
    );
    expect(driver.callsOf('mutateRows')).toHaveLength(12);
    expect(err.cause).toBeUndefined();
    expect(err.failures).toHaveLength(10 * failing.size);
    expect(err.succeeded).toBe(120 - 10 * failing.size);
    expect(err.notAttempted).toEqual([]);
  });

  it('counts an endpoint that accepts no connection like UNAVAILABLE', async () => {
    const driver = new FakeDriver();
    const last = new UnreachableError('127.0.0.1:9', 'Bigtable endpoint 127.0.0.1:9 is unreachable');
    for (let i = 0; i < DEAD_BACKEND_BATCHES - 1; i++) driver.failNext('mutateRows', unavailable());
    driver.failNext('mutateRows', last);
    const err = await partial(
      writeMany(driver, 'Item', 'items', items(100), compile, { batchSize: 10, concurrency: 1 }),
    );
    expect(driver.callsOf('mutateRows')).toHaveLength(DEAD_BACKEND_BATCHES);
    expect(err.cause).toBe(last);
    expectExact(err, 100);
  });

  it('other whole-call failures, and entries the server rejected with UNAVAILABLE, never stop the write', async () => {
    const driver = new FakeDriver();
    for (let i = 0; i < 5; i++)
      driver.failNext(
        'mutateRows',
        new DriverError('mutateRows "items"', Object.assign(new Error('boom'), { code: 13 })),
      );
    for (let n = 50; n < 100; n++) driver.reject(compile(item(n)).rowKeyText, GrpcCode.Unavailable, 'overloaded');
    const err = await partial(
      writeMany(driver, 'Item', 'items', items(100), compile, { batchSize: 10, concurrency: 1 }),
    );
    expect(driver.callsOf('mutateRows')).toHaveLength(10);
    expect(err.cause).toBeUndefined();
    expect(err.failures).toHaveLength(100);
  });

  it('a run that reaches the count on the last batches leaves nothing unsent: a plain report, no cause', async () => {
    const driver = new FakeDriver();
    for (let i = 0; i < DEAD_BACKEND_BATCHES; i++) driver.failNext('mutateRows', unavailable());
    const total = 10 * DEAD_BACKEND_BATCHES;
    const err = await partial(
      writeMany(driver, 'Item', 'items', items(total), compile, { batchSize: 10, concurrency: 1 }),
    );
    expect(err.cause).toBeUndefined();
    expect(err.failures).toHaveLength(total);
    expect(err.notAttempted).toEqual([]);
    expect(err.unreadFrom).toBeUndefined();
  });
});
