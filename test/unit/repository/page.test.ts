import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { Repository } from '../../../src/repository/repository.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';
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

/** Forward-only salt: old rows unsalted, newer rows in 3 buckets. */
@Entity({ table: 'logs' })
@Salt({ buckets: 3, since: { component: 'ts', from: CUTOFF } })
@Family('l')
class Log {
  @KeyPart(0, { type: 'string' }) host!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-s' }) ts!: Date;
  @Column({ family: 'l', type: 'string' }) line?: string;
}

interface PageRun<T> {
  pages: T[][];
}

async function pageThrough<T extends object>(
  repo: Repository<T>,
  query: ScanQuery<T> & { limit: number },
  maxPages: number,
): Promise<PageRun<T>> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.page({ ...query, cursor });
    pages.push(page.items);
    cursor = page.cursor;
    if (pages.length > maxPages) throw new Error(`paging did not end after ${maxPages} pages`);
  } while (cursor !== undefined);
  return { pages };
}

/** Logical (unsalted) key of an entity, the order of an ordered scan. */
function logicalKey<T>(entity: new () => T, e: T): Buffer {
  const schema = compileEntity(entity);
  const m = compileSave(schema, e, { now: 1 });
  const segment = /^\d+#/.exec(m.rowKeyText)?.[0] ?? '';
  // With a forward-only salt, an unsalted key can look salted; the cutoff decides.
  const salted = !(e instanceof Log) || (e as unknown as Log).ts.getTime() >= CUTOFF.getTime();
  return Buffer.from(salted ? m.rowKeyText.slice(segment.length) : m.rowKeyText);
}

const clickArb = fc.record({ user: fc.constantFrom('a', 'b', 'a#', 'ab', 'a%', 'zz'), n: fc.nat(999) });
const clicksArb = fc.uniqueArray(clickArb, { maxLength: 40, selector: (c) => `${c.user}|${c.n}` });

describe('page() and cursors over a salted table (property)', () => {
  for (const order of ['key', 'none'] as const) {
    it(`visits every row exactly once, order: ${order}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          clicksArb,
          fc.integer({ min: 1, max: 7 }),
          fc.integer({ min: 1, max: 4 }),
          fc.constantFrom<ScanQuery<Click>['where']>(undefined, { user: 'a' }),
          async (clicks, limit, concurrency, where) => {
            const driver = new FakeDriver({ yieldInCalls: false });
            const repo = new Repository(driver, compileEntity(Click));
            const entities = clicks.map((c) => Object.assign(new Click(), c, { v: c.n }));
            driver.seed(...entities.map((e) => compileSave(compileEntity(Click), e, { now: 1 })));
            const expected = entities.filter((e) => where === undefined || e.user === where.user);
            const { pages } = await pageThrough(repo, { where, order, concurrency, limit }, expected.length + 5);
            const seen = pages.flat();
            // every row once
            expect(seen.map((e) => `${e.user}|${e.n}`).sort()).toEqual(expected.map((e) => `${e.user}|${e.n}`).sort());
            expect(seen.every((e) => e instanceof Click && e.v === e.n)).toBe(true);
            // full pages until the last one
            for (const p of pages.slice(0, -1)) expect(p).toHaveLength(limit);
            expect(pages.at(-1)!.length).toBeLessThanOrEqual(limit);
            if (order === 'key') {
              const keys = seen.map((e) => logicalKey(Click, e));
              const sorted = [...keys].sort(Buffer.compare);
              expect(keys).toEqual(sorted);
            }
          },
        ),
        { numRuns: propertyRuns(60) },
      );
    });
  }

  it('resumes after exactly the rows already delivered (ordered, by hand)', async () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Click));
    const entities = ['a', 'b', 'c', 'd', 'e'].map((user, i) => Object.assign(new Click(), { user, n: i, v: i }));
    driver.seed(...entities.map((e) => compileSave(compileEntity(Click), e, { now: 1 })));
    const first = await repo.page({ limit: 2 });
    expect(first.items.map((e) => e.user)).toEqual(['a', 'b']);
    const second = await repo.page({ limit: 2, cursor: first.cursor });
    expect(second.items.map((e) => e.user)).toEqual(['c', 'd']);
    const third = await repo.page({ limit: 2, cursor: second.cursor });
    expect(third.items.map((e) => e.user)).toEqual(['e']);
    expect(third.cursor).toBeUndefined();
    await expect(repo.page({ limit: 2, where: { user: 'a' }, cursor: first.cursor })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('does not mark a bucket finished when the page limit cancelled it after a read-ahead (unordered)', async () => {
    // md5 puts b#896 and zz#221 in bucket 00 and a#000 in bucket 01. Page 1 delivers b and a;
    // zz was read ahead from bucket 00 when the limit cancelled it, so bucket 00 must resume.
    const driver = new FakeDriver({ yieldInCalls: false });
    const repo = new Repository(driver, compileEntity(Click));
    const entities = [
      { user: 'a', n: 0 },
      { user: 'b', n: 896 },
      { user: 'zz', n: 221 },
    ].map((c) => Object.assign(new Click(), c, { v: c.n }));
    driver.seed(...entities.map((e) => compileSave(compileEntity(Click), e, { now: 1 })));
    expect(driver.rows('clicks').map((r) => r.key.toString())).toEqual(['00#b#896', '00#zz#221', '01#a#000']);
    const { pages } = await pageThrough(repo, { order: 'none', concurrency: 2, limit: 2 }, 5);
    expect(
      pages
        .flat()
        .map((e) => e.user)
        .sort(),
    ).toEqual(['a', 'b', 'zz']);
  });

  it('gives no cursor once the scan is exhausted, also when the last page is full', async () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Click));
    driver.seed(
      ...[1, 2].map((n) =>
        compileSave(compileEntity(Click), Object.assign(new Click(), { user: 'u', n, v: n }), { now: 1 }),
      ),
    );
    expect((await repo.page({ limit: 3 })).cursor).toBeUndefined();
    const full = await repo.page({ limit: 2 });
    expect(full.items).toHaveLength(2);
    expect(full.cursor).toBeUndefined();
    const first = await repo.page({ limit: 1 });
    expect(first.cursor).toBeDefined();
    const last = await repo.page({ limit: 1, cursor: first.cursor });
    expect(last.items.map((c) => c.n)).toEqual([2]);
    expect(last.cursor).toBeUndefined();
  });
});

describe('page() over a forward-only salt (since)', () => {
  const before = (s: number) => new Date(CUTOFF.getTime() - s * 1000);
  const after = (s: number) => new Date(CUTOFF.getTime() + s * 1000);
  // Hosts that look like salt segments ('00', '01') make unsalted keys start like salted ones.
  const logArb = fc.uniqueArray(
    fc.record({ host: fc.constantFrom('00', '01', '02', 'h', 'web'), at: fc.integer({ min: -50, max: 50 }) }),
    { maxLength: 30, selector: (l) => `${l.host}|${l.at}` },
  );

  for (const order of ['key', 'none'] as const) {
    it(`visits every row of both layouts exactly once, order: ${order}`, async () => {
      await fc.assert(
        fc.asyncProperty(logArb, fc.integer({ min: 1, max: 6 }), async (logs, limit) => {
          const driver = new FakeDriver({ yieldInCalls: false });
          const repo = new Repository(driver, compileEntity(Log));
          const entities = logs.map((l) =>
            Object.assign(new Log(), {
              host: l.host,
              ts: l.at < 0 ? before(-l.at) : after(l.at),
              line: `${l.host}@${l.at}`,
            }),
          );
          driver.seed(...entities.map((e) => compileSave(compileEntity(Log), e, { now: 1 })));
          const { pages } = await pageThrough(repo, { order, limit }, entities.length + 5);
          const seen = pages.flat();
          expect(seen.map((e) => e.line).sort()).toEqual(entities.map((e) => e.line).sort());
          if (order === 'key') {
            const keys = seen.map((e) => logicalKey(Log, e));
            expect(keys).toEqual([...keys].sort(Buffer.compare));
          }
        }),
        { numRuns: propertyRuns(60) },
      );
    });
  }

  it('reads an old row whose unsalted key looks salted exactly once', async () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Log));
    const old = Object.assign(new Log(), { host: '01', ts: before(10), line: 'old' });
    const m = compileSave(compileEntity(Log), old, { now: 1 });
    expect(m.rowKeyText).toBe('01#1704067190'); // unsalted, but starts like bucket 01's segment
    driver.seed(m);
    const all: string[] = [];
    for await (const e of repo.iterate()) all.push(e.line!);
    expect(all).toEqual(['old']);
  });
});
