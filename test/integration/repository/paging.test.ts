import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range, ValidationError, type BigtableMapper, type Repository, type ScanQuery } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper } from '../../fixtures/entities.js';

const E = makeEntities('page');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;

let mapper: BigtableMapper;
let events: Repository<SaltedEvent>;

const USERS = Array.from({ length: 25 }, (_, i) => `user-${i}`);
const PER_USER = 40; // 1,000 rows
const keyOf = (e: SaltedEvent) => `${e.userId}#${String(e.seq).padStart(6, '0')}`;

beforeAll(async () => {
  mapper = openMapper([E.SaltedEvent]);
  await mapper.sync();
  events = mapper.getRepository(E.SaltedEvent);
  await events.saveMany(
    USERS.flatMap((userId) =>
      Array.from({ length: PER_USER }, (_, seq) =>
        Object.assign(new E.SaltedEvent(), { userId, seq, payload: `${userId}/${seq}` }),
      ),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.salted]));

/** Reads every page of a query; returns the pages' items in delivery order and the page count. */
async function readAllPages(
  query: ScanQuery<SaltedEvent> & { limit: number },
): Promise<{ items: SaltedEvent[]; pages: number[] }> {
  const items: SaltedEvent[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1_000; guard++) {
    const page = await events.page({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    items.push(...page.items);
    pages.push(page.items.length);
    expect(page.items.length).toBeLessThanOrEqual(query.limit);
    cursor = page.cursor;
    if (cursor === undefined) return { items, pages };
  }
  throw new Error('paging did not terminate');
}

describe('cursor paging over 1,000 salted rows (8 buckets), page size 37', () => {
  it('ordered: visits every row exactly once, in key order', async () => {
    const { items, pages } = await readAllPages({ limit: 37 });
    const keys = items.map(keyOf);
    expect(keys).toHaveLength(1_000);
    expect(new Set(keys).size).toBe(1_000);
    expect(keys).toEqual([...keys].sort());
    expect(pages.slice(0, -1).every((n) => n === 37)).toBe(true);
    const scanned = await lastValueFrom(events.scan({}).pipe(toArray()));
    expect(keys).toEqual(scanned.map(keyOf));
    expect(items.every((e) => e.payload === `${e.userId}/${e.seq}`)).toBe(true);
  });

  it('unordered: visits every row exactly once', async () => {
    const { items, pages } = await readAllPages({ limit: 37, order: 'none' });
    const keys = items.map(keyOf);
    expect(keys).toHaveLength(1_000);
    expect(new Set(keys).size).toBe(1_000);
    const expected = USERS.flatMap((u) =>
      Array.from({ length: PER_USER }, (_, s) => `${u}#${String(s).padStart(6, '0')}`),
    );
    expect([...keys].sort()).toEqual(expected.sort());
    expect(pages.reduce((a, b) => a + b, 0)).toBe(1_000);
  });

  it('unordered with a small concurrency: still every row exactly once', async () => {
    const { items } = await readAllPages({ limit: 37, order: 'none', concurrency: 2 });
    expect(items).toHaveLength(1_000);
    expect(new Set(items.map(keyOf)).size).toBe(1_000);
  });

  it('pages of a prefix and a range query', async () => {
    const prefix = await readAllPages({ where: { userId: 'user-7' }, limit: 37 });
    expect(prefix.items.map((e) => e.seq)).toEqual(Array.from({ length: PER_USER }, (_, i) => i));
    expect(prefix.pages).toEqual([37, 3]);
    const ranged = await readAllPages({
      where: { userId: 'user-7', seq: range({ gte: 5, lt: 12 }) },
      limit: 3,
      order: 'none',
    });
    expect(ranged.items.map((e) => e.seq).sort((a, b) => a - b)).toEqual([5, 6, 7, 8, 9, 10, 11]);
  });

  it('rejects a cursor used with a different query', async () => {
    const first = await events.page({ limit: 37 });
    expect(first.cursor).toBeDefined();
    const cursor = first.cursor as string;
    await expect(events.page({ limit: 37, cursor, where: { userId: 'user-1' } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(events.page({ limit: 37, cursor, order: 'none' })).rejects.toBeInstanceOf(ValidationError);
    await expect(events.page({ limit: 37, cursor, select: ['payload'] })).rejects.toBeInstanceOf(ValidationError);
    // Same query, another page size: fine.
    expect((await events.page({ limit: 10, cursor })).items[0]).toBeDefined();
    const unordered = await events.page({ limit: 37, order: 'none' });
    await expect(events.page({ limit: 37, cursor: unordered.cursor as string })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      events.page({ limit: 37, order: 'none', cursor: unordered.cursor as string, where: { userId: 'user-2' } }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('rejects a tampered or garbage cursor', async () => {
    const { cursor } = await events.page({ limit: 37 });
    const text = cursor as string;
    const i = Math.floor(text.length / 2);
    const flipped = `${text.slice(0, i)}${text[i] === 'A' ? 'B' : 'A'}${text.slice(i + 1)}`;
    await expect(events.page({ limit: 37, cursor: flipped })).rejects.toBeInstanceOf(ValidationError);
    await expect(events.page({ limit: 37, cursor: text.slice(0, -4) })).rejects.toBeInstanceOf(ValidationError);
    await expect(events.page({ limit: 37, cursor: 'not a cursor' })).rejects.toBeInstanceOf(ValidationError);
    // A re-sealed cursor with an edited key still fails its checksum.
    const envelope = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { d: { key: string } };
    envelope.d.key = Buffer.from('user-9#000001').toString('base64');
    await expect(
      events.page({ limit: 37, cursor: Buffer.from(JSON.stringify(envelope)).toString('base64url') }),
    ).rejects.toBeInstanceOf(ValidationError);
    // scan() and iterate() validate cursors too.
    await expect(lastValueFrom(events.scan({ cursor: flipped }).pipe(toArray()))).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
