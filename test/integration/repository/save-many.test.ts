import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  KeyEncodingError,
  PartialWriteError,
  ValidationError,
  ValueEncodingError,
  type Repository,
} from '../../../src/index.js';
import type { MutateRowsRequest } from '../../../src/driver-api.js';
import {
  closeMapper,
  makeEntities,
  openMapper,
  rawKeys,
  recordingDriver,
  type DriverRecord,
} from '../../fixtures/entities.js';

const E = makeEntities('bulk');
type Item = InstanceType<typeof E.Item>;
type GhostItem = InstanceType<typeof E.GhostItem>;

let mapper: BigtableMapper;
let record: DriverRecord;
let items: Repository<Item>;

beforeAll(async () => {
  const recorded = recordingDriver(openMapper([]).driver);
  record = recorded.record;
  // GhostItem is deliberately NOT registered before sync(): its family 'ghost' never exists.
  mapper = new BigtableMapper({ driver: recorded.driver, entities: [E.Item] });
  await mapper.sync();
  items = mapper.getRepository(E.Item);
});

afterAll(() => closeMapper(mapper, [E.tables.items]));

const id = (prefix: string, i: number) => `${prefix}-${String(i).padStart(4, '0')}`;
const item = (prefix: string, i: number): Item =>
  Object.assign(new E.Item(), { id: id(prefix, i), n: i, label: `label ${i}` });

async function expectAllPersisted(prefix: string, indices: readonly number[]): Promise<void> {
  const found = await items.findMany(indices.map((i) => ({ id: id(prefix, i) })));
  const wrong = found.flatMap((f, k) => {
    const i = indices[k] as number;
    return f !== undefined && f.id === id(prefix, i) && f.n === i && f.label === `label ${i}` ? [] : [i];
  });
  expect(wrong).toEqual([]);
}

describe('saveMany', () => {
  it('writes an array over several MutateRows batches', async () => {
    const entities = Array.from({ length: 1_234 }, (_, i) => item('arr', i));
    const before = record.calls.filter((c) => c === 'mutateRows').length;
    const result = await items.saveMany(entities, { batchSize: 250, concurrency: 2 });
    expect(result).toEqual({ written: 1_234 });
    expect(record.calls.filter((c) => c === 'mutateRows').length - before).toBe(5);
    await expectAllPersisted(
      'arr',
      entities.map((_, i) => i),
    );
    expect((await rawKeys(mapper, E.tables.items)).filter((k) => k.startsWith('arr-'))).toHaveLength(1_234);
  });

  it('writes 2,000 entities from an async iterable, read lazily in batches', async () => {
    let produced = 0;
    async function* generate(): AsyncGenerator<Item> {
      for (let i = 0; i < 2_000; i++) {
        if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
        produced++;
        yield item('gen', i);
      }
    }
    const before = record.calls.filter((c) => c === 'mutateRows').length;
    const result = await items.saveMany(generate(), { batchSize: 300, concurrency: 3 });
    expect(result).toEqual({ written: 2_000 });
    expect(produced).toBe(2_000);
    const batches = record.args.slice(-7);
    expect(record.calls.filter((c) => c === 'mutateRows').length - before).toBe(7);
    // Every batch is at most 300 rows and together they cover every row once.
    const sizes = batches.map((a) => (a[0] as MutateRowsRequest).mutations.length).sort((a, b) => b - a);
    expect(sizes).toEqual([300, 300, 300, 300, 300, 300, 200]);
    await expectAllPersisted(
      'gen',
      Array.from({ length: 2_000 }, (_, i) => i),
    );
  });

  it('reports exactly the invalid and the server-rejected entities in a PartialWriteError; every other entity persists', async () => {
    const ghosts: Repository<GhostItem> = mapper.getRepository(E.GhostItem);
    const entities: GhostItem[] = Array.from({ length: 1_100 }, (_, i) =>
      Object.assign(new E.GhostItem(), item('bad', i)),
    );
    entities[5] = Object.assign(new E.GhostItem(), { id: '', n: 5, label: 'empty key' }); // bad key value
    (entities[420] as { n: unknown }).n = 'seven'; // wrong column type
    (entities[433] as { n: unknown }).n = 1.5; // not an int
    // The server rejects this row only. It writes nothing else: the emulator applies an entry's
    // mutations one by one and keeps those before the failing one (real Bigtable applies none).
    entities[777] = Object.assign(new E.GhostItem(), {
      id: id('bad', 777),
      boo: 'writes to a family the table does not have',
    });

    let caught: unknown;
    try {
      await ghosts.saveMany(entities, { batchSize: 400, concurrency: 2 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PartialWriteError);
    const error = caught as PartialWriteError<GhostItem>;
    expect(error.failures.map((f) => ({ index: f.index, rowKey: f.rowKey, grpcCode: f.grpcCode }))).toEqual([
      { index: 5, rowKey: '', grpcCode: undefined },
      { index: 420, rowKey: '', grpcCode: undefined },
      { index: 433, rowKey: '', grpcCode: undefined },
      { index: 777, rowKey: 'bad-0777', grpcCode: 13 }, // the emulator rejects an unknown family with 13 INTERNAL
    ]);
    expect(error.succeeded).toBe(1_096);
    for (const f of error.failures) expect(f.entity).toBe(entities[f.index]);
    expect(error.failures[0]!.cause).toBeInstanceOf(KeyEncodingError);
    expect(error.failures[1]!.cause).toBeInstanceOf(ValueEncodingError);
    expect(error.failures[2]!.cause).toBeInstanceOf(ValueEncodingError);
    expect(error.failures[3]!.message).toMatch(/ghost/);

    const failed = new Set([5, 420, 433, 777]);
    const ok = entities.map((_, i) => i).filter((i) => !failed.has(i));
    await expectAllPersisted('bad', ok);
    const missing = await items.findMany([420, 433, 777].map((i) => ({ id: id('bad', i) })));
    expect(missing).toEqual([undefined, undefined, undefined]);
    expect((await rawKeys(mapper, E.tables.items)).filter((k) => k.startsWith('bad-'))).toHaveLength(1_096);
  });

  it("writes 450 rows of 600 KB: batches close at 20 MiB, so no request is over the server's limit (RESOURCE_EXHAUSTED before)", async () => {
    const value = 'v'.repeat(600_000);
    const entities = Array.from({ length: 450 }, (_, i) =>
      Object.assign(new E.Item(), { id: id('big', i), n: i, label: value }),
    );
    const before = record.calls.filter((c) => c === 'mutateRows').length;
    expect(await items.saveMany(entities, { timeoutMs: 60_000 })).toEqual({ written: 450 });
    const calls = record.args.slice(-(record.calls.filter((c) => c === 'mutateRows').length - before));
    expect(Math.max(...calls.map((a) => (a[0] as MutateRowsRequest).mutations.length))).toBeLessThanOrEqual(35);
    expect((await rawKeys(mapper, E.tables.items)).filter((k) => k.startsWith('big-'))).toHaveLength(450);
    const [last] = await items.findMany([{ id: id('big', 449) }]);
    expect(last?.label).toHaveLength(600_000);
  }, 90_000);

  it('rejects a 120 MB cell before sending it, naming Item.label', async () => {
    const before = record.calls.length;
    const huge = Object.assign(new E.Item(), { id: id('huge', 0), n: 0, label: 'x'.repeat(120_000_000) });
    const error = await items.saveMany([huge, item('huge', 1)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialWriteError);
    const [failure] = (error as PartialWriteError<Item>).failures;
    expect(failure?.index).toBe(0);
    expect(failure?.cause).toBeInstanceOf(ValueEncodingError);
    expect(failure?.message).toMatch(/^Item\.label: .*100 MiB/);
    expect((error as PartialWriteError<Item>).succeeded).toBe(1);
    expect(
      record.args.slice(before).flatMap((a) => (a[0] as MutateRowsRequest).mutations.map((m) => m.rowKeyText)),
    ).toEqual([id('huge', 1)]);
    await expect(items.save(huge)).rejects.toBeInstanceOf(ValueEncodingError);
  });

  it('saveMany(null) and deleteMany(undefined) are ValidationErrors', async () => {
    await expect(items.saveMany(null as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(items.deleteMany(undefined as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(items.saveMany([item('opt', 0)], { concurrency: 1e7 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('an input that throws: stops reading, waits for the batches in flight, and reports exactly what was persisted; no row appears afterwards', async () => {
    const broken = new Error('source broke');
    function* source(): Generator<Item> {
      for (let i = 0; i < 1_500; i++) yield item('thr', i);
      throw broken;
    }
    const error = await items.saveMany(source(), { batchSize: 100, concurrency: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialWriteError);
    const report = error as PartialWriteError<Item>;
    expect(report.cause).toBe(broken);
    expect(report.unreadFrom).toBe(1_500);
    expect(report.failures).toEqual([]);
    expect(report.succeeded + report.notAttempted.length).toBe(1_500);
    const present = async (): Promise<string[]> =>
      (await rawKeys(mapper, E.tables.items)).filter((k) => k.startsWith('thr-')).sort();
    const expected = Array.from({ length: 1_500 }, (_, i) => i)
      .filter((i) => report.wasPersisted(i))
      .map((i) => id('thr', i));
    expect(await present()).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await present()).toEqual(expected);
  });
});
