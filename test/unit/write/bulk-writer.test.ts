import { describe, expect, it } from 'vitest';
import { firstValueFrom, from, toArray } from 'rxjs';
import { Column, Denormalized, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { DriverError, OperationAbortedError, TableNotFoundError, ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import type { CallOptions, MutateRowsRequest, RowMutationFailure } from '../../../src/model/driver.js';
import type { CompiledMutation, PreparedMutation } from '../../../src/model/mutation.js';
import { Repository } from '../../../src/repository/repository.js';
import { compileAggregateAdd } from '../../../src/repository/add.js';
import { BulkWriter, checkBulkWriteOptions, type WriteOutcome } from '../../../src/write/bulk-writer.js';
import { DEAD_BACKEND_BATCHES } from '../../../src/write/dead-backend-breaker.js';
import { abortError } from '../../../src/util/operation-signal.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';
import { DEFAULT_TIMEOUTS } from '../../../src/model/timeouts.js';

@Entity({ table: 'items' })
@Family('d')
class Item {
  @KeyPart(0, { type: 'uint', width: 6 }) n!: number;
  @Column({ family: 'd', type: 'string' }) value?: string;
}

const schema = compileEntity(Item);
const item = (n: number, value = `v${n}`): Item => Object.assign(new Item(), { n, value });
const keyOf = (n: number): string => compileSave(schema, item(n)).rowKeyText;

/** A fake driver whose MutateRows calls wait until the test releases them; a call rejects as soon as its signal aborts. */
class GatedDriver extends FakeDriver {
  readonly waiting: { release: () => void; keys: string[] }[] = [];

  override async mutateRows(request: MutateRowsRequest, options?: CallOptions): Promise<RowMutationFailure[]> {
    await new Promise<void>((resolve, reject) => {
      this.waiting.push({ release: resolve, keys: request.mutations.map((m) => m.rowKeyText) });
      const signal = options?.signal;
      signal?.addEventListener('abort', () => reject(abortError(signal, `mutateRows "${request.table}"`)), {
        once: true,
      });
    });
    return super.mutateRows(request, options?.signal?.aborted === true ? undefined : options);
  }

  releaseOne(): void {
    this.waiting.shift()?.release();
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !predicate(); i++) await tick();
  expect(predicate()).toBe(true);
}

/** Tracks whether a promise has settled, without awaiting it. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; result: Promise<T> } {
  let settled = false;
  const result = promise.finally(() => (settled = true));
  result.catch(() => undefined);
  return { settled: () => settled, result };
}

const writerOf = (driver: FakeDriver, options: object = {}): BulkWriter<Item> =>
  new Repository(driver, schema).bulkWriter({ flushIntervalMs: 0, ...options }) as BulkWriter<Item>;

describe('BulkWriter back-pressure', { timeout: 10_000 }, () => {
  it('accepts up to maxOutstandingRows, then add() waits, in call order, until a batch settles', async () => {
    const driver = new GatedDriver();
    const writer = writerOf(driver, { batchSize: 2, concurrency: 1, maxOutstandingRows: 4 });
    for (let n = 0; n < 4; n++) await writer.add(item(n));
    const waiting = [4, 5, 6].map((n) => watch(writer.add(item(n))));
    await until(() => driver.waiting.length === 1);
    for (let i = 0; i < 5; i++) await tick();
    expect(waiting.map((w) => w.settled())).toEqual([false, false, false]);
    expect(writer.totals).toEqual({ accepted: 4, persisted: 0, failed: 0, unknown: 0, pending: 4 });
    driver.releaseOne(); // [0,1] persisted: room for two
    await until(() => waiting[1]?.settled() === true);
    expect(waiting[2]?.settled()).toBe(false);
    expect((await waiting[0]?.result)?.index).toBe(4);
    expect((await waiting[1]?.result)?.index).toBe(5);
    const closing = writer.close();
    await until(() => {
      driver.releaseOne();
      return writer.totals.accepted === 7 && writer.totals.pending === 0;
    });
    expect(await closing).toEqual({ accepted: 7, persisted: 7, failed: 0, unknown: 0, pending: 0 });
    expect(driver.rows('items')).toHaveLength(7);
  });

  it('caps outstanding bytes: add() waits past maxOutstandingBytes, and a row larger than the cap goes alone', async () => {
    const driver = new GatedDriver();
    const big = 'x'.repeat(3_000);
    // A row holds about 4,000 bytes (3,000 of value, its request framing and what its objects hold in the heap).
    const writer = writerOf(driver, { batchSize: 100, concurrency: 1, maxOutstandingBytes: 9_000 });
    await writer.add(item(0, big));
    await writer.add(item(1, big));
    const third = watch(writer.add(item(2, big)));
    // Nothing in flight held the room: the batch being filled is sent so the wait can end.
    await until(() => driver.waiting.length === 1);
    expect(driver.waiting[0]?.keys).toEqual([keyOf(0), keyOf(1)]);
    expect(third.settled()).toBe(false);
    driver.releaseOne();
    await third.result;
    const alone = writerOf(driver, { maxOutstandingBytes: 100 });
    const accepted = await alone.add(item(9, big));
    expect(accepted.index).toBe(0);
    const closing = Promise.all([writer.close(), alone.close()]);
    await until(() => driver.waiting.length === 2);
    driver.releaseOne();
    driver.releaseOne();
    const [first, second] = await closing;
    expect([first.persisted, second.persisted]).toEqual([3, 1]);
  });

  it('a results() reader that lags holds add() back; taking outcomes frees the room', async () => {
    const driver = new FakeDriver();
    const writer = writerOf(driver, { batchSize: 2, maxOutstandingRows: 2 });
    const results = writer.results();
    expect(() => writer.results()).toThrow(ValidationError);
    await writer.add(item(0));
    await writer.add(item(1));
    const third = watch(writer.add(item(2)));
    await until(() => driver.callsOf('mutateRows').length === 1);
    for (let i = 0; i < 5; i++) await tick();
    expect(third.settled()).toBe(false); // both outcomes wait in the reader's buffer
    expect((await results.next()).value).toMatchObject({ status: 'persisted', index: 0 });
    await third.result;
    const closing = writer.close();
    const rest: WriteOutcome<Item>[] = [];
    for await (const o of results) rest.push(o);
    expect(rest.map((o) => [o.index, o.status])).toEqual([
      [1, 'persisted'],
      [2, 'persisted'],
    ]);
    expect((await closing).persisted).toBe(3);
  });
});

describe('BulkWriter outcomes', { timeout: 10_000 }, () => {
  it('reports every entity once, with its own outcome, on the Observable and in the totals', async () => {
    const driver = new FakeDriver();
    driver.reject(keyOf(3), GrpcCode.InvalidArgument, 'bad row');
    const writer = writerOf(driver, { batchSize: 4 });
    const seen = firstValueFrom(writer.outcomes.pipe(toArray()));
    const handles = [];
    for (let n = 0; n < 10; n++) handles.push(await writer.add(item(n)));
    const totals = await writer.close();
    expect(totals).toEqual({ accepted: 10, persisted: 9, failed: 1, unknown: 0, pending: 0 });
    const outcomes = await seen;
    expect(outcomes.map((o) => o.index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const failed = await handles[3]?.outcome;
    expect(failed).toMatchObject({ status: 'failed', index: 3, rowKey: keyOf(3), grpcCode: GrpcCode.InvalidArgument });
    expect(failed?.status === 'failed' && failed.error).toBeInstanceOf(DriverError);
    expect((await handles[4]?.outcome)?.status).toBe('persisted');
    expect(driver.rows('items').map((r) => r.key.toString())).not.toContain(keyOf(3));
    expect(driver.rows('items')).toHaveLength(9);
  });

  it('a mutation that is not idempotent, cut in flight, is unknown; an idempotent one is failed', async () => {
    const driver = new FakeDriver();
    // The call carried both entries and ended with no status for either (a reset, a cut deadline).
    driver.mutateRows = (request: MutateRowsRequest): Promise<RowMutationFailure[]> =>
      Promise.resolve(
        request.mutations.map((_, index) => ({
          index,
          grpcCode: 14,
          message: 'Connection reset',
          cause: new Error('reset'),
        })),
      );
    const compile = (e: Item): CompiledMutation => ({ ...compileSave(schema, e), idempotent: e.n % 2 === 0 });
    const writer = new BulkWriter<Item>({
      entityName: 'Item',
      table: 'items',
      compile,
      send: (mutations) => driver.mutateRows({ table: 'items', mutations }),
      signals: [],
      options: checkBulkWriteOptions('Item', { flushIntervalMs: 0 }),
    });
    const a = await writer.add(item(0));
    const b = await writer.add(item(1));
    await writer.close();
    expect((await a.outcome).status).toBe('failed');
    expect(await b.outcome).toMatchObject({ status: 'unknown', grpcCode: 14 });
    expect(writer.totals).toMatchObject({ failed: 1, unknown: 1 });
  });

  it('an aggregate add cut in flight is unknown (never idempotent), an entity save in the same batch failed', async () => {
    @Entity({ table: 'counters' })
    @Family('stats', { aggregate: 'sum' })
    @Family('d')
    class Counter {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'stats', type: 'int' }) hits?: number | bigint;
      @Column({ family: 'd', type: 'string' }) label?: string;
    }
    const counters = compileEntity(Counter);
    const sent: CompiledMutation[][] = [];
    const writer = new BulkWriter<Partial<Counter>>({
      entityName: 'Counter',
      table: 'counters',
      compile: (e) => compileSave(counters, e as Counter),
      compileAdd: (key, inputs, changes) => compileAggregateAdd(counters, key, inputs, changes, 1_000),
      send: (mutations) => {
        sent.push(mutations as CompiledMutation[]);
        return Promise.resolve(
          mutations.map((_, index) => ({
            index,
            grpcCode: 14,
            message: 'Connection reset',
            cause: new Error('reset'),
          })),
        );
      },
      signals: [],
      options: checkBulkWriteOptions('Counter', { flushIntervalMs: 0 }),
    });
    const added = await writer.addTo({ id: 'a' }, { hits: 2 }, { changes: { label: 'A' } });
    const saved = await writer.add({ id: 'b', label: 'B' });
    await writer.close();
    expect(await added.outcome).toMatchObject({ status: 'unknown', rowKey: 'a', entity: { id: 'a' }, grpcCode: 14 });
    expect((await saved.outcome).status).toBe('failed');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.[0]).toMatchObject({ idempotent: false, rowKeyText: 'a' });
    expect(sent[0]?.[0]?.mutations.map((m) => m.kind)).toEqual(['setCell', 'addToCell']);
  });

  it('addTo on a writer that takes entities only is a ValidationError, and nothing is accepted', async () => {
    const writer = new BulkWriter<Item>({
      entityName: 'Item',
      table: 'items',
      compile: (e) => compileSave(schema, e),
      send: () => Promise.resolve([]),
      signals: [],
      options: checkBulkWriteOptions('Item', {}),
    });
    await expect(writer.addTo(item(1), {})).rejects.toThrow(/takes entities only/);
    expect((await writer.close()).accepted).toBe(0);
    await expect(writer.addTo(item(1), {})).rejects.toThrow(OperationAbortedError);
  });

  it('holds each row in the form its driver prepared; a row the driver cannot prepare is rejected, and nothing of it is accepted', async () => {
    const sent: (CompiledMutation | PreparedMutation)[][] = [];
    const prepared = (m: CompiledMutation): PreparedMutation => {
      if (m.rowKeyText === keyOf(2)) throw new ValidationError('cannot prepare row 2');
      return {
        kind: 'prepared',
        table: m.table,
        rowKey: m.rowKey,
        rowKeyText: m.rowKeyText,
        idempotent: true,
        cellCount: 1,
      };
    };
    const writer = new BulkWriter<Item>({
      entityName: 'Item',
      table: 'items',
      compile: (e) => compileSave(schema, e),
      prepare: prepared,
      send: (mutations) => {
        sent.push(mutations);
        return Promise.resolve([]);
      },
      signals: [],
      options: checkBulkWriteOptions('Item', { flushIntervalMs: 0, maxOutstandingRows: 1 }),
    });
    await writer.add(item(1));
    await expect(writer.add(item(2))).rejects.toThrow('cannot prepare row 2');
    // Past the cap, a row waits already prepared.
    const waiting = writer.add(item(3));
    expect(await writer.close()).toEqual({ accepted: 2, persisted: 2, failed: 0, unknown: 0, pending: 0 });
    expect((await waiting).rowKey).toBe(keyOf(3));
    expect(sent.flat().map((m) => ('kind' in m ? m.rowKeyText : 'compiled'))).toEqual([keyOf(1), keyOf(3)]);
  });

  it('a whole call that failed after sending makes its non-idempotent entries unknown', async () => {
    const writer = new BulkWriter<Item>({
      entityName: 'Item',
      table: 'items',
      compile: (e) => ({ ...compileSave(schema, e), idempotent: false }),
      send: () =>
        Promise.reject(new DriverError('mutateRows "items"', Object.assign(new Error('internal'), { code: 13 }))),
      signals: [],
      options: checkBulkWriteOptions('Item', { flushIntervalMs: 0 }),
    });
    const handle = await writer.add(item(0));
    await writer.close();
    expect(await handle.outcome).toMatchObject({ status: 'unknown', grpcCode: 13 });
  });

  it('sends a batch that is not full after flushIntervalMs, without flush()', async () => {
    const driver = new FakeDriver();
    const writer = writerOf(driver, { flushIntervalMs: 5 });
    const handle = await writer.add(item(1));
    await until(() => driver.callsOf('mutateRows').length === 1);
    expect((await handle.outcome).status).toBe('persisted');
    await writer.close();
  });

  it('flush() sends the batch being filled and waits for its outcomes', async () => {
    const driver = new FakeDriver();
    const writer = writerOf(driver);
    await writer.add(item(1));
    await writer.add(item(2));
    expect(driver.callsOf('mutateRows')).toHaveLength(0);
    await writer.flush();
    expect(writer.totals).toMatchObject({ persisted: 2, pending: 0 });
    expect(writer.closed).toBe(false);
    await writer.close();
  });
});

describe('BulkWriter lifecycle', { timeout: 10_000 }, () => {
  it('close() during back-pressure lets the waiting adds in, writes them, then refuses new adds', async () => {
    const driver = new GatedDriver();
    const writer = writerOf(driver, { batchSize: 2, concurrency: 1, maxOutstandingRows: 2 });
    await writer.add(item(0));
    await writer.add(item(1));
    const waiting = watch(writer.add(item(2)));
    const closing = watch(writer.close());
    await expect(writer.add(item(3))).rejects.toBeInstanceOf(OperationAbortedError);
    await until(() => driver.waiting.length === 1);
    driver.releaseOne();
    await until(() => driver.waiting.length === 1);
    driver.releaseOne();
    await waiting.result;
    expect(await closing.result).toEqual({ accepted: 3, persisted: 3, failed: 0, unknown: 0, pending: 0 });
    expect(await writer.close()).toEqual(await closing.result);
  });

  it('its signal stops it: calls in flight are cancelled, unsent rows fail, waiting and later adds reject', async () => {
    const driver = new GatedDriver();
    const controller = new AbortController();
    const writer = writerOf(driver, {
      batchSize: 2,
      concurrency: 1,
      maxOutstandingRows: 4,
      signal: controller.signal,
    });
    const handles = [];
    for (let n = 0; n < 4; n++) handles.push(await writer.add(item(n)));
    const waiting = watch(writer.add(item(4)));
    await until(() => driver.waiting.length === 1);
    controller.abort(new Error('shutting down'));
    await expect(waiting.result).rejects.toBeInstanceOf(OperationAbortedError);
    await expect(writer.add(item(5))).rejects.toBeInstanceOf(OperationAbortedError);
    const totals = await writer.close();
    expect(totals).toEqual({ accepted: 4, persisted: 0, failed: 4, unknown: 0, pending: 0 });
    const outcomes = await Promise.all(handles.map((h) => h.outcome));
    expect(outcomes.map((o) => o.status === 'failed' && o.grpcCode)).toEqual([1, 1, 1, 1]);
    expect(driver.rows('items')).toEqual([]);
  });

  it(`a dead backend (${DEAD_BACKEND_BATCHES} batches in a row UNAVAILABLE) stops it with a full account`, async () => {
    const driver = new FakeDriver();
    for (let i = 0; i < 10; i++)
      driver.failNext(
        'mutateRows',
        new DriverError('mutateRows "items"', Object.assign(new Error('14 UNAVAILABLE'), { code: 14 })),
      );
    const writer = writerOf(driver, { batchSize: 2, concurrency: 1, maxOutstandingRows: 2 });
    let refused: unknown;
    for (let n = 0; n < 100; n++) {
      try {
        await writer.add(item(n));
      } catch (err) {
        refused = err;
        break;
      }
    }
    expect(refused).toBeInstanceOf(DriverError);
    const totals = await writer.close();
    expect(totals.failed).toBe(totals.accepted);
    expect(totals.accepted).toBe(2 * DEAD_BACKEND_BATCHES);
    expect(driver.callsOf('mutateRows')).toHaveLength(DEAD_BACKEND_BATCHES);
  });

  it('a missing table stops it at the first batch', async () => {
    const driver = new FakeDriver({ implicitTables: false });
    const writer = writerOf(driver, { batchSize: 2 });
    const first = await writer.add(item(0));
    await writer.add(item(1));
    const outcome = await first.outcome;
    expect(outcome.status === 'failed' && outcome.error).toBeInstanceOf(TableNotFoundError);
    await expect(writer.add(item(2))).rejects.toBeInstanceOf(TableNotFoundError);
    expect((await writer.close()).failed).toBe(2);
  });

  it('rejects hostile options and entities it cannot write, naming the fix', () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, schema);
    for (const bad of [
      { maxOutstandingRows: 0 },
      { maxOutstandingBytes: -1 },
      { flushIntervalMs: Number.NaN },
      { batchSize: '500' },
      { concurrency: 1.5 },
      { maxOutstandingRow: 10 },
      { timeoutMs: -5 },
    ])
      expect(() => repo.bulkWriter(bad as object)).toThrow(ValidationError);
    expect(() => repo.bulkWriter({ maxOutstandingRows: 0 })).toThrow(/maxOutstandingRows must be an integer from 1/);

    @Entity({ table: 'sources' })
    @Family('s')
    class Source {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'string' }) name?: string;
    }
    @Entity({ table: 'copies' })
    @Family('c')
    class Copy {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'c', type: 'string' }) sourceId?: string;
      @Denormalized({ from: () => Source, key: { id: 'sourceId' }, field: 'name' })
      @Column({ family: 'c', type: 'string' })
      sourceName?: string;
    }
    expect(() => new Repository(driver, compileEntity(Copy)).bulkWriter()).toThrow(/Fix: write it with saveMany/);
    const writer = repo.bulkWriter();
    return expect(writer.add({ n: -1 } as Item)).rejects.toThrow();
  });
});

describe('writeTo operator', { timeout: 10_000 }, () => {
  it('writes a source through a writer and emits every outcome, then completes', async () => {
    const driver = new FakeDriver();
    driver.reject(keyOf(2), GrpcCode.PermissionDenied);
    const repo = new Repository(driver, schema);
    const outcomes = await firstValueFrom(
      from([0, 1, 2, 3, 4].map((n) => item(n))).pipe(repo.writeTo({ batchSize: 2 }), toArray()),
    );
    expect(outcomes.map((o) => [o.index, o.status]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [0, 'persisted'],
      [1, 'persisted'],
      [2, 'failed'],
      [3, 'persisted'],
      [4, 'persisted'],
    ]);
    expect(driver.rows('items')).toHaveLength(4);
  });
});

describe('BulkWriter cell timestamps', () => {
  it("stamps each row's cells with the mapper clock at add(), not at the writer's creation", async () => {
    const driver = new FakeDriver();
    let now = 1_700_000_000_000;
    const context = {
      timeouts: DEFAULT_TIMEOUTS,
      closing: new AbortController().signal,
      track: <R>(settled: Promise<R>): Promise<R> => settled,
      clock: () => now,
      tablePrefix: '',
    };
    const writer = new Repository(driver, schema, undefined, context).bulkWriter({ flushIntervalMs: 0 });
    await writer.add(item(1));
    now += 60_000;
    await writer.add(item(2));
    await writer.close();
    const stamps = driver.rows('items').map((r) => r.cells['d']?.['value']?.[0]?.timestampMicros);
    expect(stamps).toEqual([1_700_000_000_000_000, 1_700_000_060_000_000]);
  });
});
