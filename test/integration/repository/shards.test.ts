import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationAbortedError, range, type BigtableMapper, type Repository } from '../../../src/index.js';
import type { ScanShard } from '../../../src/scan/shards.js';
import { closeMapper, makeEntities, openMapper, waitFor } from '../../fixtures/entities.js';

const E = makeEntities('shards');
type PlainEvent = InstanceType<typeof E.PlainEvent>;
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;

let mapper: BigtableMapper;
let plain: Repository<PlainEvent>;
let salted: Repository<SaltedEvent>;
const PLAIN_ROWS = 3_000;
const SALTED_ROWS = 800;
const payload = 'x'.repeat(200);

beforeAll(async () => {
  mapper = openMapper([E.PlainEvent, E.SaltedEvent]);
  await mapper.sync();
  plain = mapper.getRepository(E.PlainEvent);
  salted = mapper.getRepository(E.SaltedEvent);
  await plain.saveMany(
    Array.from({ length: PLAIN_ROWS }, (_, i) =>
      Object.assign(new E.PlainEvent(), { userId: `u${i % 30}`, seq: i, payload, n: i }),
    ),
  );
  await salted.saveMany(
    Array.from({ length: SALTED_ROWS }, (_, i) =>
      Object.assign(new E.SaltedEvent(), { userId: `u${i % 17}`, seq: i, payload, n: i }),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.plain, E.tables.salted]));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const keyOf = (e: { userId: string; seq: number }): string => `${e.userId}/${e.seq}`;

/** Read streams the driver has open (the GoogleCloudDriver's counter). */
const activeReads = (): number => (mapper.driver as unknown as { activeReads: number }).activeReads;

describe('shards on the emulator', () => {
  it('planShards cuts the table at its samples: every row read exactly once across the shards, in key order', async () => {
    const shards = await mapper.planShards(E.PlainEvent, { shards: 4 });
    expect(shards).toHaveLength(4);
    // The emulator samples about 1 % of the rows: with 3,000 rows, every shard gets some.
    for (const shard of shards) expect(shard.ranges.length).toBeGreaterThan(0);
    // Workers get their shard as JSON.
    const parts = await Promise.all(
      shards.map((shard) => collect(plain.iterate({ shard: JSON.parse(JSON.stringify(shard)) as ScanShard }))),
    );
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    const sequential = (await collect(plain.iterate())).map(keyOf);
    expect(sequential).toHaveLength(PLAIN_ROWS);
    expect(parts.flat().map(keyOf)).toEqual(sequential);
  });

  it('shards of a salted entity with a where cover exactly its rows', async () => {
    const where = { userId: range({ gte: 'u1', lt: 'u5' }) };
    const shards = await salted.planShards({ shards: 3, where });
    const read = (await Promise.all(shards.map((shard) => collect(salted.iterate({ where, shard, order: 'none' })))))
      .flat()
      .map(keyOf)
      .sort();
    const expected = (await collect(salted.iterate({ where }))).map(keyOf).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(read).toEqual(expected);
    expect(() => salted.planScan({ shard: shards[0] as ScanShard })).toThrow(/planned for another where/);
  });
});

describe('parallel scans on the emulator', () => {
  it('a parallel ordered scan equals the sequential scan exactly, ascending and descending', async () => {
    const sequential = (await collect(plain.iterate())).map(keyOf);
    expect((await collect(plain.iterate({ parallelism: 4 }))).map(keyOf)).toEqual(sequential);
    const descending = (await collect(plain.iterate({ order: 'key-desc', limit: 1_000 }))).map(keyOf);
    expect((await collect(plain.iterate({ order: 'key-desc', limit: 1_000, parallelism: 3 }))).map(keyOf)).toEqual(
      descending,
    );
    const saltedOrder = (await collect(salted.iterate())).map(keyOf);
    expect((await collect(salted.iterate({ parallelism: 8 }))).map(keyOf)).toEqual(saltedOrder);
  });

  it("order 'none' reads every row once", async () => {
    const rows = (await collect(plain.iterate({ order: 'none', parallelism: 8 }))).map(keyOf);
    expect(rows).toHaveLength(PLAIN_ROWS);
    expect(new Set(rows).size).toBe(PLAIN_ROWS);
  });

  it('pages with cursors read every row once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await plain.page({ parallelism: 4, limit: 700, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.items.map(keyOf));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual((await collect(plain.iterate())).map(keyOf));
  });

  it('cancelled mid-scan by its signal: OperationAbortedError, and every read stream closed', async () => {
    const controller = new AbortController();
    let taken = 0;
    const reading = (async () => {
      for await (const _ of plain.iterate({ parallelism: 4, signal: controller.signal }))
        if (++taken === 500) controller.abort(new Error('stop here'));
    })();
    await expect(reading).rejects.toBeInstanceOf(OperationAbortedError);
    // The rows of the batch in hand may still come; the reads stop.
    expect(taken).toBeGreaterThanOrEqual(500);
    expect(taken).toBeLessThan(PLAIN_ROWS);
    await waitFor(() => activeReads() === 0, 2_000, `read streams still open: ${activeReads()}`);
  });
});

describe('shard plans under concurrent writes', () => {
  // Last in the file: it adds rows to the plain table.
  it('plans made while rows are written still cover every row exactly once, whatever was written around them', async () => {
    let stop = false;
    let written = 0;
    // Writers spread over the whole key space (user ids before, between and after the existing ones).
    const writing = (async () => {
      for (let round = 0; !stop && round < 200; round++) {
        const batch = Array.from({ length: 40 }, (_, i) =>
          Object.assign(new E.PlainEvent(), { userId: `${'amtz'[i % 4]}${round}`, seq: 100_000 + i, payload, n: i }),
        );
        await plain.saveMany(batch);
        written += batch.length;
      }
    })();
    const plans: ScanShard[][] = [];
    try {
      while (plans.length < 3) {
        await waitFor(() => written >= (plans.length + 1) * 200, 20_000, `only ${written} rows written`);
        plans.push(await mapper.planShards(E.PlainEvent, { shards: 4 }));
      }
    } finally {
      stop = true;
      await writing;
    }
    expect(written).toBeGreaterThanOrEqual(600);
    const sequential = (await collect(plain.iterate())).map(keyOf);
    expect(sequential).toHaveLength(PLAIN_ROWS + written);
    for (const plan of plans) {
      const parts = await Promise.all(plan.map((shard) => collect(plain.iterate({ shard }))));
      expect(parts.flat().map(keyOf)).toEqual(sequential);
    }
  }, 60_000);
});
