import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, ValidationError, range } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { planKeySources, planScan } from '../../../src/scan/plan-scan.js';
import { checksum, cutShards, type ScanShard } from '../../../src/scan/shards.js';
import type { ScanSource } from '../../../src/scan/scan-plan.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { propertyRuns } from '../../support/property-runs.js';
import { Click, Event } from './shard-entities.js';

@Entity({ table: 'moving' })
@Salt({ buckets: 4, previous: { buckets: 2 } })
@Family('d')
class Moving {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'int' }) v?: number;
}

const eventSchema = compileEntity(Event);
const clickSchema = compileEntity(Click);
const driver = new FakeDriver({ yieldInCalls: false, sampleEvery: 7 });
const mapper = new BigtableMapper({ driver, entities: [Event, Click] });
afterAll(() => mapper.close());

const events = Array.from({ length: 300 }, (_, i) => Object.assign(new Event(), { tenant: `t${i % 3}`, n: i, v: i }));
const clicks = Array.from({ length: 200 }, (_, i) => Object.assign(new Click(), { user: `u${i % 11}`, n: i, v: i }));
driver.seed(...events.map((e) => compileSave(eventSchema, e, { now: 1 })));
driver.seed(...clicks.map((c) => compileSave(clickSchema, c, { now: 1 })));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('planShards and reading one shard (in memory)', () => {
  it('reads every row of an unsalted table exactly once across the shards, each shard in key order', async () => {
    const repo = mapper.getRepository(Event);
    const shards = await mapper.planShards(Event, { shards: 5 });
    expect(shards).toHaveLength(5);
    expect(shards.map((s) => s.index)).toEqual([0, 1, 2, 3, 4]);
    const parts = await Promise.all(shards.map((shard) => collect(repo.iterate({ shard }))));
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    const read = parts.flat().map((e) => `${e.tenant}/${e.n}`);
    const all = (await collect(repo.iterate())).map((e) => `${e.tenant}/${e.n}`);
    expect(read).toEqual(all); // shard i's rows all sort before shard i + 1's
    expect(driver.callsOf('sampleRowKeys')).toContainEqual({ method: 'sampleRowKeys', table: 'events' });
  });

  it('narrows a where, and follows salt buckets for a salted entity', async () => {
    const where = { tenant: 't1', n: range({ gte: 50, lt: 250 }) };
    const repo = mapper.getRepository(Event);
    const shards = await repo.planShards({ shards: 3, where });
    const read = (await Promise.all(shards.map((shard) => collect(repo.iterate({ where, shard }))))).flat();
    expect(read.map((e) => e.n)).toEqual(
      events.filter((e) => e.tenant === 't1' && e.n >= 50 && e.n < 250).map((e) => e.n),
    );

    const clickRepo = mapper.getRepository(Click);
    const byBucket = await mapper.planShards(Click, { shards: 2 });
    // 4 buckets cut at the samples: each shard holds whole buckets or runs of them.
    expect(byBucket.flatMap((s) => s.ranges.map((r) => r.source))).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    const clicked = (
      await Promise.all(byBucket.map((shard) => collect(clickRepo.iterate({ shard, order: 'none' }))))
    ).flat();
    expect(clicked.map((c) => c.n).sort((a, b) => a - b)).toEqual(clicks.map((c) => c.n));
  });

  it('pages within a shard with cursors, and an empty shard reads nothing', async () => {
    const repo = mapper.getRepository(Event);
    const [first] = await repo.planShards({ shards: 2 });
    const expected = (await collect(repo.iterate({ shard: first as ScanShard }))).map((e) => e.n);
    const paged: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.page({
        shard: first as ScanShard,
        limit: 40,
        ...(cursor === undefined ? {} : { cursor }),
      });
      paged.push(...page.items.map((e) => e.n));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(expected);

    const many = await repo.planShards({ shards: 200 }); // more shards than samples
    expect(many.filter((s) => s.ranges.length === 0).length).toBeGreaterThan(0);
    const empty = many.find((s) => s.ranges.length === 0) as ScanShard;
    expect(await collect(repo.iterate({ shard: empty }))).toEqual([]);
  });

  it('rows written after the plan still fall in exactly one shard', async () => {
    const late = new FakeDriver({ yieldInCalls: false, sampleEvery: 5 });
    const repo = new BigtableMapper({ driver: late, entities: [Event] }).getRepository(Event);
    const write = (from: number, to: number) =>
      late.seed(
        ...Array.from({ length: to - from }, (_, i) =>
          compileSave(eventSchema, Object.assign(new Event(), { tenant: `t${(from + i) % 5}`, n: from + i, v: 1 }), {
            now: 1,
          }),
        ),
      );
    write(0, 100);
    const shards = await repo.planShards({ shards: 4 });
    write(100, 250); // keys before, between and after the samples the plan was cut at
    const read = (await Promise.all(shards.map((shard) => collect(repo.iterate({ shard }))))).flat();
    expect(read.map((e) => e.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('rejects a bad shard count before any call', async () => {
    driver.clearCalls();
    for (const shards of [0, -1, 1.5, 10_001, '4', undefined])
      await expect(mapper.planShards(Event, { shards } as never)).rejects.toThrow(
        /shards must be an integer from 1 to 10000/,
      );
    expect(driver.callsOf('sampleRowKeys')).toHaveLength(0);
  });

  it('refuses an entity being re-salted, whose unmoved rows two shards could both read', async () => {
    const moving = new BigtableMapper({ driver: new FakeDriver(), entities: [Moving] });
    await expect(moving.planShards(Moving, { shards: 2 })).rejects.toThrow(
      /^Moving\.planShards: the entity is being re-salted .*Fix: finish mapper\.resalt\(Moving\)/,
    );
    await moving.close();
  });
});

describe('a shard read back is checked', () => {
  const samples = [10, 20, 30].map((n) => ({ key: Buffer.from(`t1#${String(n).padStart(4, '0')}`), offsetBytes: n }));
  const sources = planKeySources(eventSchema, { tenant: 't1' });
  const shards = cutShards(eventSchema, 'events', sources, samples, 2);
  const shard = shards[1] as ScanShard;
  const read = (value: unknown, where: unknown = { tenant: 't1' }) =>
    planScan(eventSchema, { where: where as never, shard: value as ScanShard });

  it('a shard of another where, entity or table is a ValidationError', () => {
    expect(read(shard).sources).toHaveLength(1);
    expect(caught(() => read(shard, { tenant: 't2' }))).toBeInstanceOf(ValidationError);
    expect(String(caught(() => read(shard, {})))).toMatch(/planned for another where/);
    const click = cutShards(clickSchema, 'clicks', planKeySources(clickSchema, {}), [], 1)[0];
    expect(String(caught(() => read(click)))).toMatch(/planned for Click on table "clicks"/);
  });

  it('an edited shard is a ValidationError, even with its checksum recomputed, never a wider read', () => {
    expect(String(caught(() => read({ ...shard, ranges: [{ source: 0, start: null, end: null }] })))).toMatch(
      /checksum/,
    );
    // A forged shard whose range reaches outside the query's: the bounds are checked, not only the checksum.
    const outside = cutShards(eventSchema, 'events', sources, [{ key: Buffer.from('t9'), offsetBytes: 0 }], 1)[0];
    expect(outside?.ranges).toEqual([{ source: 0, start: null, end: null }]);
    const wide = cutShards(
      eventSchema,
      'events',
      [{ ...(sources[0] as ScanSource), range: { start: { key: Buffer.from(''), inclusive: true }, end: undefined } }],
      [{ key: Buffer.from('t0'), offsetBytes: 0 }],
      2,
    );
    const forged = { ...(wide[1] as ScanShard), scope: shard.scope };
    expect(String(caught(() => read(resealed(forged))))).toMatch(/reaches outside the query's key range/);
  });

  it('anything that is not a shard object is a ValidationError naming the entity and the fix', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({ kind: fc.constant('bigtable-mapper.shard'), v: fc.anything(), ranges: fc.anything() }),
          fc.constantFrom(...Object.keys(shard)).map((field) => {
            const copy: Record<string, unknown> = { ...shard };
            delete copy[field];
            return copy;
          }),
          fc
            .tuple(fc.constantFrom(...Object.keys(shard)), fc.anything())
            .map(([field, value]) => ({ ...shard, [field]: value })),
        ),
        (value) => {
          fc.pre(value !== undefined && JSON.stringify(value) !== JSON.stringify(shard));
          const error = caught(() => read(value));
          expect(error).toBeInstanceOf(ValidationError);
          expect(String(error)).toMatch(
            /^ValidationError: Event: invalid shard: .*Fix: pass one of the objects mapper\.planShards\(\) returned/,
          );
        },
      ),
      { numRuns: propertyRuns(1000) },
    );
  });
});

/** A shard with its checksum made to match its (edited) fields, as anyone could. */
function resealed(shard: ScanShard): ScanShard {
  const { check: _, ...fields } = shard;
  return { ...shard, check: checksum(fields) };
}
