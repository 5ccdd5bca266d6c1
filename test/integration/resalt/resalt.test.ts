import { createHash } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  Entity,
  Family,
  KeyPart,
  OperationAbortedError,
  Salt,
  type ResaltCheckpoint,
  type ResaltProgress,
  type ResaltResult,
} from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { closeMapper, rawKeys } from '../../fixtures/entities.js';

/** Rows of the big table re-salted from 4 to 16 buckets: RESALT_ROWS (the vitest configs set 5,000 for npm test and 100,000 for test:soak), else 20,000. */
const ROWS = Number(process.env['RESALT_ROWS'] ?? 20_000);
const USERS = 997;
const table = uniqueTableId('resalt');
const small = uniqueTableId('resalt-mid');

const bucketOf = (logical: string, buckets: number) =>
  Number(BigInt(`0x${createHash('md5').update(logical, 'utf8').digest('hex')}`) % BigInt(buckets));
const physical = (logical: string, buckets: number) =>
  `${String(bucketOf(logical, buckets)).padStart(2, '0')}#${logical}`;
const userOf = (i: number) => `u${String(i % USERS).padStart(3, '0')}`;
const logicalOf = (i: number) => `${userOf(i)}#${String(i).padStart(7, '0')}`;

@Entity({ table })
@Salt({ buckets: 4 })
@Family('e')
class OldEvent {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 7 }) seq!: number;
  @Column({ family: 'e', type: 'int' }) n?: number;
}

@Entity({ table })
@Salt({ buckets: 16, previous: { buckets: 4 } })
@Family('e')
class Event {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 7 }) seq!: number;
  @Column({ family: 'e', type: 'int' }) n?: number;
}

@Entity({ table: small })
@Family('e')
class PlainRow {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 7 }) seq!: number;
  @Column({ family: 'e', type: 'int' }) n?: number;
  @Column({ family: 'e', type: 'string' }) note?: string;
}

@Entity({ table: small })
@Salt({ buckets: 8, previous: null })
@Family('e')
class SaltedRow {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'uint', width: 7 }) seq!: number;
  @Column({ family: 'e', type: 'int' }) n?: number;
  @Column({ family: 'e', type: 'string' }) note?: string;
}

const open = (entities: (new () => object)[]) =>
  new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId, entities });

const event = (i: number, n: number) => Object.assign(new Event(), { userId: userOf(i), seq: i, n });

let before: BigtableMapper;
let mapper: BigtableMapper;

beforeAll(async () => {
  before = open([OldEvent, PlainRow]);
  await before.sync();
  mapper = open([Event]);
  await mapper.sync();
  const result = await before.getRepository(OldEvent).saveMany(
    (function* () {
      for (let i = 0; i < ROWS; i++) yield Object.assign(new OldEvent(), { userId: userOf(i), seq: i, n: i });
    })(),
  );
  expect(result.written).toBe(ROWS);
}, 120_000);

afterAll(async () => {
  await closeMapper(mapper, []);
  await closeMapper(before, [table, small]);
});

describe('while a re-salt is declared (previous layout)', () => {
  let salted: BigtableMapper;
  beforeAll(async () => {
    const plain = before.getRepository(PlainRow);
    await plain.saveMany([0, 1, 2, 3, 4].map((i) => Object.assign(new PlainRow(), { userId: 'a', seq: i, n: i })));
    salted = open([SaltedRow]);
    await salted.sync();
  });
  afterAll(() => closeMapper(salted, []));

  it('finds a row still in the old layout, prefers the new copy, and scans each row once', async () => {
    const rows = salted.getRepository(SaltedRow);
    expect((await rows.findOne({ userId: 'a', seq: 1 }))?.n).toBe(1);
    await rows.save(Object.assign(new SaltedRow(), { userId: 'a', seq: 1, n: 100 }));
    await rows.save(Object.assign(new SaltedRow(), { userId: 'a', seq: 9, n: 9 }));
    expect((await rows.findOne({ userId: 'a', seq: 1 }))?.n).toBe(100);
    expect(
      (
        await rows.findMany([
          { userId: 'a', seq: 1 },
          { userId: 'a', seq: 2 },
        ])
      ).map((r) => r?.n),
    ).toEqual([100, 2]);
    const all = await lastValueFrom(rows.scan().pipe(toArray()));
    expect(all.map((r) => [r.seq, r.n])).toEqual([
      [0, 0],
      [1, 100],
      [2, 2],
      [3, 3],
      [4, 4],
      [9, 9],
    ]);
    const desc = await lastValueFrom(rows.scan({ order: 'key-desc' }).pipe(toArray()));
    expect(desc.map((r) => [r.seq, r.n])).toEqual([
      [9, 9],
      [4, 4],
      [3, 3],
      [2, 2],
      [1, 100],
      [0, 0],
    ]);
    const paged = await rows.page({ limit: 2 });
    const next = await rows.page({ limit: 10, cursor: paged.cursor });
    expect([...paged.items, ...next.items].map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 9]);
    const page = await lastValueFrom(rows.scan({ where: { userId: 'a' }, limit: 3, order: 'none' }).pipe(toArray()));
    expect(page.map((r) => r.seq)).toEqual([0, 1, 2]);
  });

  it('deletes a row by leaving a tombstone in the new layout that hides the old row, so it does not resurface', async () => {
    const rows = salted.getRepository(SaltedRow);
    await rows.delete({ userId: 'a', seq: 1 });
    expect(await rows.findOne({ userId: 'a', seq: 1 })).toBeUndefined();
    await rows.deleteMany([{ userId: 'a', seq: 2 }]);
    expect(await rows.findOne({ userId: 'a', seq: 2 })).toBeUndefined();
    expect((await lastValueFrom(rows.scan().pipe(toArray()))).map((r) => r.seq)).toEqual([0, 3, 4, 9]);
    expect(await rows.findOne({ userId: 'a', seq: 2 }, { select: ['note'] })).toBeUndefined();
    // The tombstones are new-layout keys; deleteMany leaves the old row 2 to the re-salt (it is hidden meanwhile).
    const keys = await rawKeys(salted, small);
    expect(keys.filter((k) => k.endsWith('#0000001') || k.endsWith('#0000002')).sort()).toEqual(
      [physical('a#0000001', 8), physical('a#0000002', 8), 'a#0000002'].sort(),
    );
  });

  it('moves unsalted rows to their buckets, never over a newer write; an update moves its row first', async () => {
    await salted.getRepository(SaltedRow).save(Object.assign(new SaltedRow(), { userId: 'a', seq: 3, n: 33 }));
    await salted.getRepository(SaltedRow).update({ userId: 'a', seq: 4 }, { note: 'new' });
    const result = await salted.resalt(SaltedRow, { timeoutMs: 30_000 });
    expect(result.remaining).toBe(0);
    // Rows 3 and 4 were moved by the save and the update themselves (every write moves its row first): left
    // are 0 (copied) and 2 (deleted meanwhile: its tombstone is present, so nothing is copied).
    expect(result.buckets).toEqual([{ segment: '', seen: 2, copied: 1, present: 1, deleted: 2 }]);
    const keys = (await rawKeys(salted, small)).sort();
    const expected = [0, 1, 2, 3, 4, 9].map((i) => `a#${String(i).padStart(7, '0')}`);
    expect(keys).toEqual(expected.map((l) => `${String(bucketOf(l, 8)).padStart(2, '0')}#${l}`).sort());
    expect((await salted.getRepository(SaltedRow).findOne({ userId: 'a', seq: 3 }))?.n).toBe(33);
    const partial = await salted.getRepository(SaltedRow).findOne({ userId: 'a', seq: 4 });
    expect([partial?.n, partial?.note]).toEqual([4, 'new']);
  });
});

describe(`re-salting ${ROWS} rows from 4 to 16 buckets`, () => {
  const latest = new Map<number, number>();
  for (let i = 0; i < ROWS; i++) latest.set(i, i);
  const runs: ResaltResult[] = [];

  /** Saves updated and new events while `busy()` holds; returns when it stops. */
  async function writer(busy: () => boolean, round: number): Promise<number> {
    const events = mapper.getRepository(Event);
    let writes = 0;
    for (let k = 0; busy(); k++) {
      const updated = (k * 7919 + round * 104_729) % ROWS;
      const added = ROWS + round * 100_000 + k;
      await events.saveMany([event(updated, -updated - 1), event(added, added)]);
      latest.set(updated, -updated - 1);
      latest.set(added, added);
      writes += 2;
    }
    return writes;
  }

  it('is aborted part-way, resumed from its checkpoint under concurrent writes, and ends with every row once', async () => {
    const controller = new AbortController();
    let checkpoint: ResaltCheckpoint | undefined;
    let first: ResaltProgress | undefined;
    let running = true;
    const started = Date.now();
    const writing = writer(() => running, 1);
    const aborted = mapper.resalt(Event, {
      signal: controller.signal,
      batchSize: 1000,
      timeoutMs: 120_000,
      onProgress: (p) => {
        checkpoint = p.checkpoint;
        first = p;
        if (p.seen >= ROWS / 3) controller.abort();
      },
    });
    await expect(aborted).rejects.toBeInstanceOf(OperationAbortedError);
    expect(first?.seen).toBeGreaterThanOrEqual(ROWS / 3);
    expect(first?.seen).toBeLessThan(ROWS);
    expect(Object.keys(checkpoint ?? {}).length).toBeGreaterThan(0);

    const resumed = await mapper.resalt(Event, { resumeFrom: checkpoint, batchSize: 1000, timeoutMs: 120_000 });
    running = false;
    const writes = await writing;
    runs.push(resumed);
    const seconds = (Date.now() - started) / 1000;
    console.log(`resalt of ${ROWS} rows (with ${writes} concurrent writes) took ${seconds.toFixed(1)} s`);

    expect(resumed.remaining).toBe(0);
    expect(resumed.seen).toBeGreaterThan(0);
    expect(resumed.seen).toBeLessThanOrEqual(ROWS - (first?.seen ?? 0) + 1000);
    for (const b of resumed.buckets) {
      expect(b.copied + b.present, b.segment).toBe(b.seen);
      // A concurrent save moves its row first, and may delete an old row this run has just read.
      expect(b.deleted, b.segment).toBeLessThanOrEqual(b.seen);
      expect(b.deleted, b.segment).toBeGreaterThanOrEqual(b.seen * 0.9);
    }
    expect(resumed.buckets.map((b) => b.segment)).toEqual(['00#', '01#', '02#', '03#']);

    const keys = await rawKeys(mapper, table);
    expect(keys.length).toBe(latest.size);
    const expected = new Set([...latest.keys()].map((i) => physical(logicalOf(i), 16)));
    expect(keys.filter((k) => !expected.has(k))).toEqual([]);
    const perBucket = new Map<string, number>();
    for (const k of keys) perBucket.set(k.slice(0, 3), (perBucket.get(k.slice(0, 3)) ?? 0) + 1);
    expect(perBucket.size).toBe(16);

    const all = await lastValueFrom(mapper.getRepository(Event).scan().pipe(toArray()));
    expect(all.length).toBe(latest.size);
    expect(new Set(all.map((e) => e.seq)).size).toBe(all.length);
    expect(all.filter((e) => e.n !== latest.get(e.seq)).map((e) => e.seq)).toEqual([]);
  }, 300_000);

  it('is a no-op when run again', async () => {
    const again = await mapper.resalt(Event);
    expect(again.seen).toBe(0);
    expect(again.remaining).toBe(0);
  });
});
