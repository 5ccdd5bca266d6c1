import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableMapper, Repository, ScanQuery } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper } from '../../fixtures/entities.js';

const E = makeEntities('page-end');
type Event = InstanceType<typeof E.SaltedEvent> | InstanceType<typeof E.PlainEvent>;

const LIMIT = 5;
/** Users holding exactly one page, two pages, and two pages plus one row. */
const USERS = { one: LIMIT, two: 2 * LIMIT, twoPlusOne: 2 * LIMIT + 1 } as const;

let mapper: BigtableMapper;
let salted: Repository<InstanceType<typeof E.SaltedEvent>>;
let plain: Repository<InstanceType<typeof E.PlainEvent>>;

beforeAll(async () => {
  mapper = openMapper([E.SaltedEvent, E.PlainEvent]);
  await mapper.sync();
  salted = mapper.getRepository(E.SaltedEvent);
  plain = mapper.getRepository(E.PlainEvent);
  const rows = Object.entries(USERS).flatMap(([userId, count]) =>
    Array.from({ length: count }, (_, seq) => ({ userId, seq, payload: `${userId}/${seq}` })),
  );
  await salted.saveMany(rows.map((r) => salted.create(r)));
  await plain.saveMany(rows.map((r) => plain.create(r)));
});

afterAll(() => closeMapper(mapper, [E.tables.salted, E.tables.plain]));

/** Every page of a query: its size and whether it came with a cursor. */
async function pages(
  repo: Repository<Event>,
  query: ScanQuery<Event> & { limit: number },
): Promise<{ sizes: number[]; cursors: boolean[]; seqs: number[] }> {
  const sizes: number[] = [];
  const cursors: boolean[] = [];
  const seqs: number[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10; guard++) {
    const page = await repo.page({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    sizes.push(page.items.length);
    cursors.push(page.cursor !== undefined);
    seqs.push(...page.items.map((e) => e.seq));
    cursor = page.cursor;
    if (cursor === undefined) return { sizes, cursors, seqs };
  }
  throw new Error('paging did not end');
}

describe('the last page has no cursor once the scan is exhausted', () => {
  const layouts = [
    ['unsalted', () => plain as Repository<Event>],
    ['salted (8 merged buckets)', () => salted as Repository<Event>],
  ] as const;
  const orders = [{ order: 'key' }, { order: 'none' }, { order: 'none', concurrency: 2 }] as const;

  describe.each(layouts)('%s', (_layout, repo) => {
    it.each(orders)('exactly 2 × limit rows: two full pages, the second without a cursor (%o)', async (order) => {
      const run = await pages(repo(), { where: { userId: 'two' }, limit: LIMIT, ...order });
      expect(run.sizes).toEqual([LIMIT, LIMIT]);
      expect(run.cursors).toEqual([true, false]);
      expect([...run.seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 2 * LIMIT }, (_, i) => i));
    });

    it.each(orders)('2 × limit + 1 rows: a last page of one row without a cursor (%o)', async (order) => {
      const run = await pages(repo(), { where: { userId: 'twoPlusOne' }, limit: LIMIT, ...order });
      expect(run.sizes).toEqual([LIMIT, LIMIT, 1]);
      expect(run.cursors).toEqual([true, true, false]);
      expect([...run.seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 2 * LIMIT + 1 }, (_, i) => i));
    });

    it.each(orders)('exactly limit rows: one page without a cursor (%o)', async (order) => {
      const run = await pages(repo(), { where: { userId: 'one' }, limit: LIMIT, ...order });
      expect(run.sizes).toEqual([LIMIT]);
      expect(run.cursors).toEqual([false]);
    });
  });

  it('ordered pages over the whole table keep key order and end without a cursor', async () => {
    const total = USERS.one + USERS.two + USERS.twoPlusOne;
    const run = await pages(salted as Repository<Event>, { limit: total / 2 });
    expect(run.sizes).toEqual([total / 2, total / 2]);
    expect(run.cursors).toEqual([true, false]);
  });
});
