import { afterAll, describe, expect, it } from 'vitest';
import { BigtableMapper, ValidationError, range } from '../../../src/index.js';
import type { Repository, ScanQuery } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { Click, Event } from './shard-entities.js';

const driver = new FakeDriver({ sampleEvery: 9 });
const mapper = new BigtableMapper({ driver, entities: [Event, Click] });
afterAll(() => mapper.close());
driver.seed(
  ...Array.from({ length: 400 }, (_, i) =>
    compileSave(compileEntity(Event), Object.assign(new Event(), { tenant: `t${i % 4}`, n: i, v: i }), { now: 1 }),
  ),
  ...Array.from({ length: 240 }, (_, i) =>
    compileSave(compileEntity(Click), Object.assign(new Click(), { user: `u${i % 13}`, n: i, v: i }), { now: 1 }),
  ),
);
const events = mapper.getRepository(Event);
const clicks = mapper.getRepository(Click);

/** Every item, and the most reads that were open (started, neither ended nor cancelled) at any item. */
async function collect<T>(items: AsyncIterable<T>): Promise<{ items: T[]; open: number }> {
  const out: T[] = [];
  let open = 0;
  const start = driver.reads.length;
  for await (const item of items) {
    out.push(item);
    open = Math.max(open, driver.reads.slice(start).filter((r) => !r.ended && !r.cancelled).length);
  }
  return { items: out, open };
}

const keyOf = (e: { n: number }): number => e.n;

describe('parallel scans', () => {
  const cases: [string, Repository<Event> | Repository<Click>, ScanQuery<Event>][] = [
    ['unsalted, key order', events, {}],
    ['unsalted, a where and a limit', events, { where: { tenant: 't2', n: range({ gte: 30 }) }, limit: 57 }],
    ['unsalted, descending', events, { order: 'key-desc' }],
    ['salted, key order', clicks, {}],
    ['salted, descending with a limit', clicks, { order: 'key-desc', limit: 100 }],
  ];

  it.each(cases)('%s: the same rows in the same order as the sequential scan', async (_, repo, query) => {
    const sequential = (await collect((repo as Repository<Event>).iterate(query))).items.map(keyOf);
    for (const parallelism of [2, 4, 64]) {
      const calls = driver.callsOf('sampleRowKeys').length;
      const { items, open } = await collect((repo as Repository<Event>).iterate({ ...query, parallelism }));
      expect(items.map(keyOf)).toEqual(sequential);
      expect(driver.callsOf('sampleRowKeys').length).toBe(calls + 1);
      expect(open).toBeGreaterThan(1); // the pieces were read concurrently...
      expect(open).toBeLessThanOrEqual(Math.max(parallelism, repo === clicks ? 4 : 1)); // ...within the bound
    }
  });

  it("order 'none' reads every row once, at most parallelism reads at a time", async () => {
    const all = (await collect(events.iterate())).items.map(keyOf).sort((a, b) => a - b);
    const { items, open } = await collect(events.iterate({ order: 'none', parallelism: 3 }));
    expect(items.map(keyOf).sort((a, b) => a - b)).toEqual(all);
    expect(open).toBeLessThanOrEqual(3);
    expect(open).toBeGreaterThan(1);
  });

  it('pages resume exactly with cursors, in key order and unordered', async () => {
    for (const order of ['key', 'none'] as const) {
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await clicks.page({
          order,
          parallelism: 4,
          limit: 37,
          ...(cursor === undefined ? {} : { cursor }),
        });
        seen.push(...page.items.map(keyOf));
        cursor = page.cursor;
      } while (cursor !== undefined);
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 240 }, (_, i) => i));
    }
  });

  it('leaving the loop early cancels every read', async () => {
    const start = driver.reads.length;
    let taken = 0;
    for await (const _ of events.iterate({ parallelism: 8 })) if (++taken === 50) break;
    const reads = driver.reads.slice(start);
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((r) => r.ended || r.cancelled)).toBe(true);
  });

  it('planScan shows parallelism; a value outside 1 to 64 is a ValidationError naming the entity', () => {
    expect(events.planScan({ parallelism: 8 }).parallelism).toBe(8);
    expect(events.planScan().parallelism).toBe(1);
    for (const parallelism of [0, 65, 2.5, '4', Number.NaN]) {
      let error: unknown;
      try {
        events.planScan({ parallelism: parallelism as number });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(String(error)).toMatch(
        /^ValidationError: Event: parallelism must be an integer from 1 to 64, got .*\. Fix:/,
      );
    }
  });

  it('a table without samples is read by one stream', async () => {
    const small = new FakeDriver({ sampleEvery: 1_000 });
    const repo = new BigtableMapper({ driver: small, entities: [Event] }).getRepository(Event);
    small.seed(compileSave(compileEntity(Event), Object.assign(new Event(), { tenant: 'a', n: 1, v: 1 }), { now: 1 }));
    expect((await collect(repo.iterate({ parallelism: 8 }))).items.map(keyOf)).toEqual([1]);
    expect(small.reads).toHaveLength(1);
  });
});
