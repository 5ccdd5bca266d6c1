import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { Repository } from '../../../src/repository/repository.js';
import { encodeCursor } from '../../../src/scan/cursor.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';
import { range } from '../../../src/scan/scan-query.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { propertyRuns } from '../../support/property-runs.js';

const CUTOFF = new Date('2024-01-01T00:00:00.000Z');

@Entity({ table: 'clicks' })
@Salt({ buckets: 4 })
@Family('c')
class Click {
  @KeyPart(0, { type: 'string' }) user!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'c', type: 'int' }) v?: number;
}

@Entity({ table: 'readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'm', type: 'int' }) value?: number;
}

/** Forward-only salt: old rows unsalted, newer rows in 3 buckets. */
@Entity({ table: 'logs' })
@Salt({ buckets: 3, since: { component: 'ts', from: CUTOFF } })
@Family('l')
class Log {
  @KeyPart(0, { type: 'string' }) host!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-s' }) ts!: Date;
  @Column({ family: 'l', type: 'string' }) line?: string;
}

const clickSchema = compileEntity(Click);
const clickArb = fc.uniqueArray(
  fc.record({ user: fc.constantFrom('a', 'b', 'a#', 'ab', 'a%', 'zz'), n: fc.nat(999) }),
  {
    maxLength: 40,
    selector: (c) => `${c.user}|${c.n}`,
  },
);

/** A repository over a fake driver seeded with `clicks`. */
function clicksRepo(clicks: readonly { user: string; n: number }[]): { repo: Repository<Click>; driver: FakeDriver } {
  const driver = new FakeDriver({ yieldInCalls: false });
  const entities = clicks.map((c) => Object.assign(new Click(), c, { v: c.n }));
  driver.seed(...entities.map((e) => compileSave(clickSchema, e, { now: 1 })));
  return { repo: new Repository(driver, clickSchema), driver };
}

/** Logical key of a click: the order of an ordered scan. */
const logicalOf = (c: { user: string; n: number }): string => {
  const text = compileSave(clickSchema, Object.assign(new Click(), { user: c.user, n: c.n, v: 0 }), {
    now: 1,
  }).rowKeyText;
  return text.slice(text.indexOf('#') + 1);
};
const descending = (keys: readonly string[]): string[] =>
  [...keys].sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a)));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function pageThrough<T extends object>(
  repo: Repository<T>,
  query: ScanQuery<T> & { limit: number },
  maxPages: number,
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.page({ ...query, cursor });
    pages.push(page.items);
    cursor = page.cursor;
    if (pages.length > maxPages) throw new Error(`paging did not end after ${maxPages} pages`);
  } while (cursor !== undefined);
  return pages;
}

describe("order: 'key-desc' plans", () => {
  it('shows the direction in the plan and in its scope', () => {
    const forward = planScan(clickSchema, { where: { user: 'a' } });
    const reversed = planScan(clickSchema, { where: { user: 'a' }, order: 'key-desc' });
    expect(reversed.order).toBe('key-desc');
    expect(reversed.sources).toEqual(forward.sources);
    expect(reversed.scope).not.toBe(forward.scope);
  });

  it("rejects any other order with a ValidationError that lists 'key-desc'", () => {
    expect(() => planScan(clickSchema, { order: 'desc' as never })).toThrow(ValidationError);
    expect(() => planScan(clickSchema, { order: 'desc' as never })).toThrow(/'key', 'key-desc' or 'none'/);
  });

  it('a cursor ends every bucket just before segment + lastKey, exclusive; starts unchanged', () => {
    const query: ScanQuery<Click> = { where: { user: 'a' }, order: 'key-desc' };
    const base = planScan(clickSchema, query);
    const cursor = encodeCursor({ kind: 'ordered', lastKey: Buffer.from('a#007'), scope: base.scope });
    const resumed = planScan(clickSchema, { ...query, cursor });
    expect(resumed.sources.map((s) => [s.range.start, s.range.end])).toEqual(
      base.sources.map((s) => [s.range.start, { key: Buffer.from(`${s.segment}a#007`), inclusive: false }]),
    );
    const below = encodeCursor({ kind: 'ordered', lastKey: Buffer.from('a#'), scope: base.scope });
    expect(planScan(clickSchema, { ...query, cursor: below }).sources).toEqual([]);
    const above = encodeCursor({ kind: 'ordered', lastKey: Buffer.from('b'), scope: base.scope });
    expect(planScan(clickSchema, { ...query, cursor: above }).sources).toEqual(base.sources);
  });

  it('a cursor of one direction is rejected by a query of the other', async () => {
    const { repo } = clicksRepo([1, 2, 3].map((n) => ({ user: 'u', n })));
    const down = await repo.page({ order: 'key-desc', limit: 1 });
    const up = await repo.page({ limit: 1 });
    await expect(repo.page({ limit: 1, cursor: down.cursor })).rejects.toThrow(/belongs to another query/);
    await expect(repo.page({ order: 'key-desc', limit: 1, cursor: up.cursor })).rejects.toBeInstanceOf(ValidationError);
    await expect(repo.page({ order: 'none', limit: 1, cursor: down.cursor })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("order: 'key-desc' scans (fake driver)", () => {
  it('reads every bucket reversed and merges them largest logical key first', async () => {
    await fc.assert(
      fc.asyncProperty(clickArb, async (clicks) => {
        const { repo, driver } = clicksRepo(clicks);
        const seen = await collect(repo.iterate({ order: 'key-desc' }));
        expect(seen.map(logicalOf)).toEqual(descending(clicks.map(logicalOf)));
        expect(driver.reads.every((r) => r.request.reversed === true)).toBe(true);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('limit takes the largest keys, each bucket read with the limit', async () => {
    await fc.assert(
      fc.asyncProperty(clickArb, fc.integer({ min: 1, max: 8 }), async (clicks, limit) => {
        const { repo, driver } = clicksRepo(clicks);
        const seen = await collect(repo.iterate({ order: 'key-desc', limit }));
        expect(seen.map(logicalOf)).toEqual(descending(clicks.map(logicalOf)).slice(0, limit));
        expect(driver.reads.every((r) => r.request.limit === limit)).toBe(true);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('an unsalted range is one reversed read carrying the limit', async () => {
    const driver = new FakeDriver({ yieldInCalls: false });
    const schema = compileEntity(Reading);
    const entities = Array.from({ length: 10 }, (_, n) =>
      Object.assign(new Reading(), { sensorId: 's1', n, value: n }),
    );
    driver.seed(...entities.map((e) => compileSave(schema, e, { now: 1 })));
    const repo = new Repository(driver, schema);
    const seen = await collect(
      repo.iterate({ where: { sensorId: 's1', n: range({ lt: 8 }) }, order: 'key-desc', limit: 3 }),
    );
    expect(seen.map((r) => r.n)).toEqual([7, 6, 5]);
    expect(driver.reads.map((r) => [r.request.reversed, r.request.limit])).toEqual([[true, 3]]);
  });

  it('pages concatenate to the reversed full scan, each row once (salted)', async () => {
    await fc.assert(
      fc.asyncProperty(
        clickArb,
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<ScanQuery<Click>['where']>(undefined, { user: 'a' }),
        async (clicks, limit, where) => {
          const { repo } = clicksRepo(clicks);
          const full = await collect(repo.iterate({ where, order: 'key-desc' }));
          const pages = await pageThrough(repo, { where, order: 'key-desc', limit }, clicks.length + 5);
          expect(pages.flat().map(logicalOf)).toEqual(full.map(logicalOf));
          for (const p of pages.slice(0, -1)) expect(p).toHaveLength(limit);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('pages over a forward-only salt visit both layouts once, in descending logical order', async () => {
    const logArb = fc.uniqueArray(
      fc.record({ host: fc.constantFrom('00', '01', 'h', 'web'), at: fc.integer({ min: -50, max: 50 }) }),
      { maxLength: 30, selector: (l) => `${l.host}|${l.at}` },
    );
    const schema = compileEntity(Log);
    await fc.assert(
      fc.asyncProperty(logArb, fc.integer({ min: 1, max: 6 }), async (logs, limit) => {
        const driver = new FakeDriver({ yieldInCalls: false });
        const entities = logs.map((l) =>
          Object.assign(new Log(), {
            host: l.host,
            ts: new Date(CUTOFF.getTime() + l.at * 1000),
            line: `${l.host}@${l.at}`,
          }),
        );
        driver.seed(...entities.map((e) => compileSave(schema, e, { now: 1 })));
        const repo = new Repository(driver, schema);
        const pages = await pageThrough(repo, { order: 'key-desc', limit }, entities.length + 5);
        const expected = [...logs]
          .sort((a, b) => (a.host === b.host ? b.at - a.at : a.host < b.host ? 1 : -1))
          .map((l) => `${l.host}@${l.at}`);
        expect(pages.flat().map((e) => e.line)).toEqual(expected);
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
