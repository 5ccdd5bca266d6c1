import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, range, type Repository, type ScanQuery } from '../../../src/index.js';
import type { BigtableDriver, ReadRowsRequest } from '../../../src/model/driver.js';
import { closeMapper, makeEntities, openMapper, recordingDriver, type DriverRecord } from '../../fixtures/entities.js';

const E = makeEntities('reverse');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;
type PlainEvent = InstanceType<typeof E.PlainEvent>;

const USERS = ['u0', 'u1', 'u10', 'u2', 'u3']; // u1 is a string prefix of u10
const SEQS = 25;
const event = (userId: string, seq: number) => ({ userId, seq, payload: `p-${userId}-${seq}`, n: seq });
const idOf = (e: { userId: string; seq: number }): string => `${e.userId}#${e.seq}`;
/** Every event in descending logical key order (userId as key text, then seq). */
const DESCENDING = [...USERS]
  .sort()
  .reverse()
  .flatMap((u) => Array.from({ length: SEQS }, (_, s) => `${u}#${SEQS - 1 - s}`));

let mapper: BigtableMapper;
let salted: Repository<SaltedEvent>;
let unsalted: Repository<PlainEvent>;
/** A mapper over the same tables whose driver records every call. */
let recorded: BigtableMapper;
let record: DriverRecord;

async function ids<T extends { userId: string; seq: number }>(
  repo: Repository<T>,
  query: ScanQuery<T> = {},
): Promise<string[]> {
  const out: string[] = [];
  for await (const e of repo.iterate(query)) out.push(idOf(e));
  return out;
}

async function pages<T extends { userId: string; seq: number }>(
  repo: Repository<T>,
  query: ScanQuery<T> & { limit: number },
): Promise<string[][]> {
  const out: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.page({ ...query, cursor });
    out.push(page.items.map(idOf));
    cursor = page.cursor;
    if (out.length > 200) throw new Error('paging did not end');
  } while (cursor !== undefined);
  return out;
}

beforeAll(async () => {
  mapper = openMapper([E.SaltedEvent, E.PlainEvent]);
  await mapper.sync();
  salted = mapper.getRepository(E.SaltedEvent);
  unsalted = mapper.getRepository(E.PlainEvent);
  const rows = USERS.flatMap((u) => Array.from({ length: SEQS }, (_, s) => event(u, s)));
  await salted.saveMany(rows.map((r) => Object.assign(new E.SaltedEvent(), r)));
  await unsalted.saveMany(rows.map((r) => Object.assign(new E.PlainEvent(), r)));
  const recording = recordingDriver(mapper.driver as BigtableDriver);
  record = recording.record;
  recorded = new BigtableMapper({ driver: recording.driver, entities: [E.SaltedEvent, E.PlainEvent] });
}, 60_000);

afterAll(async () => {
  await recorded?.close();
  await closeMapper(mapper, [E.tables.salted, E.tables.plain]);
});

/** The readRows requests `run` made through the recording mapper. */
async function readRequests(run: () => Promise<unknown>): Promise<ReadRowsRequest[]> {
  const before = record.calls.length;
  await run();
  return record.args
    .slice(before)
    .filter((_, i) => record.calls[before + i] === 'readRows')
    .map((args) => args[0] as ReadRowsRequest);
}

describe("order: 'key-desc' on the emulator", () => {
  it('an unsalted scan reads its range reversed in one RPC: the reversed forward scan', async () => {
    const forward = await ids(unsalted);
    expect(await ids(unsalted, { order: 'key-desc' })).toEqual([...forward].reverse());
    expect(await ids(unsalted, { order: 'key-desc' })).toEqual(DESCENDING);
    const sent = await readRequests(() => ids(recorded.getRepository(E.PlainEvent), { order: 'key-desc' }));
    expect(sent.map((r) => r.reversed)).toEqual([true]);
  });

  it('a salted scan reads all 8 buckets reversed and merges them in descending logical order', async () => {
    expect(await ids(salted, { order: 'key-desc' })).toEqual(DESCENDING);
    const observed = await lastValueFrom(salted.scan({ order: 'key-desc' }).pipe(toArray()));
    expect(observed.map(idOf)).toEqual(DESCENDING);
    const sent = await readRequests(() => ids(recorded.getRepository(E.SaltedEvent), { order: 'key-desc' }));
    expect(sent).toHaveLength(8);
    expect(sent.every((r) => r.reversed === true)).toBe(true);
  });

  it('limit takes the largest keys, unsalted (the server applies it) and salted', async () => {
    expect(await ids(unsalted, { order: 'key-desc', limit: 7 })).toEqual(DESCENDING.slice(0, 7));
    expect(await ids(salted, { order: 'key-desc', limit: 7 })).toEqual(DESCENDING.slice(0, 7));
    const sent = await readRequests(() => ids(recorded.getRepository(E.PlainEvent), { order: 'key-desc', limit: 7 }));
    expect(sent.map((r) => [r.reversed, r.limit])).toEqual([[true, 7]]);
  });

  it('the latest N of one key prefix, and a key range read backwards', async () => {
    const latest = await ids(salted, { where: { userId: 'u1' }, order: 'key-desc', limit: 3 });
    expect(latest).toEqual(['u1#24', 'u1#23', 'u1#22']);
    const window = await ids(unsalted, {
      where: { userId: 'u2', seq: range({ gte: 5, lt: 9 }) },
      order: 'key-desc',
    });
    expect(window).toEqual(['u2#8', 'u2#7', 'u2#6', 'u2#5']);
  });

  it('pages of a reversed scan concatenate to the reversed full scan, salted and unsalted', async () => {
    for (const limit of [4, 25, 40]) {
      const saltedPages = await pages(salted, { order: 'key-desc', limit });
      expect(saltedPages.flat()).toEqual(DESCENDING);
      for (const page of saltedPages.slice(0, -1)) expect(page).toHaveLength(limit);
      expect((await pages(unsalted, { order: 'key-desc', limit })).flat()).toEqual(DESCENDING);
    }
    const prefix = await pages(salted, { where: { userId: 'u1' }, order: 'key-desc', limit: 4 });
    expect(prefix.flat()).toEqual(DESCENDING.filter((id) => id.startsWith('u1#')));
  });

  it('a reversed cursor is refused by a forward query and the other way round', async () => {
    const down = await salted.page({ order: 'key-desc', limit: 5 });
    const up = await salted.page({ limit: 5 });
    await expect(salted.page({ limit: 5, cursor: down.cursor })).rejects.toThrow(/belongs to another query/);
    await expect(salted.page({ order: 'key-desc', limit: 5, cursor: up.cursor })).rejects.toThrow(
      /belongs to another query/,
    );
  });
});
