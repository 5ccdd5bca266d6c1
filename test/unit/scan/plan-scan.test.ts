import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import type { KeyRange } from '../../../src/model/driver.js';
import { KeyEncodingError, ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { range as keyRange } from '../../../src/scan/scan-query.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import type { ScanPlan, ScanSource } from '../../../src/scan/scan-plan.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';

const NOW_MICROS = 1_700_000_000_000_000;
const CUTOFF = new Date('2024-01-01T00:00:00.000Z');
const DAY = 86_400_000;

@Entity({ table: 'readings' })
@Family('m')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'm', qualifier: 'temp', type: 'float' }) temperature?: number;
  @Column({ family: 'm', type: 'string' }) note?: string;
}

@Entity({ table: 'metrics' })
@Family('m')
class Metric {
  @KeyPart(0, { type: 'string' }) host!: string;
  @KeyPart(1, { type: 'uint', width: 8 }) day!: number;
  @KeyPart(2, { type: 'uint', width: 4 }) seq!: number;
  @Column({ family: 'm', type: 'float' }) value?: number;
}

@Entity({ table: 'feeds' })
@KeyPart(0, { literal: 'feed' })
@Family('d')
class FeedItem {
  @KeyPart(1, { type: 'string' }) user!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

/** Partial-key salt; the custom hash makes buckets readable: length of 'userId#site' mod 4. */
@Entity({ table: 'page-views' })
@Salt({ buckets: 4, on: ['userId', 'site'], hash: (input) => input.length })
@Family('v')
class PageView {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'string' }) site!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path?: string;
}

@Entity({ table: 'page-views-md5' })
@Salt({ buckets: 4, on: ['userId', 'site'] })
@Family('v')
class Md5PageView {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'string' }) site!: string;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path?: string;
}

/** Seed 003's layout: Java hashCode % N keeps its sign, unpadded bucket, '-' separators. */
@Entity({ table: 'seed3', separator: '-' })
@Salt({ buckets: 4, hash: 'java-string-hashcode-signed', format: { width: 1 } })
@Family('d')
class Seed3Row {
  @KeyPart(0, { type: 'string' }) user!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-s' }) ts!: Date;
  @Column({ family: 'd', type: 'string' }) v?: string;
}

/** Forward-only salt: rows at or after CUTOFF are salted, older rows keep unsalted keys. */
@Entity({ table: 'logs' })
@Salt({ buckets: 2, hash: (input) => input.length, since: { component: 'ts', from: CUTOFF } })
@Family('l')
class Log {
  @KeyPart(0, { type: 'string' }) host!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'l', type: 'string' }) line?: string;
}

const b = (text: string): Buffer => Buffer.from(text, 'utf8');
const range = (start: string, startInclusive: boolean, end: string | undefined, endInclusive = false): KeyRange => ({
  start: { key: b(start), inclusive: startInclusive },
  end: end === undefined ? undefined : { key: b(end), inclusive: endInclusive },
});
const source = (id: number, segment: string, layout: 'salted' | 'unsalted', r: KeyRange): ScanSource => ({
  id,
  segment,
  prefix: b(segment),
  layout,
  range: r,
});
const plan = <T>(entity: new () => T, query: ScanQuery<T> = {}): ScanPlan =>
  planScan(compileEntity(entity), query, NOW_MICROS);

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('planScan: unsalted', () => {
  it('plans a key prefix as one source [prefix, prefixEnd(prefix))', () => {
    expect(plan(Reading, { where: { sensorId: 's1' } })).toEqual<ScanPlan>({
      table: 'readings',
      sources: [source(0, '', 'unsalted', range('s1#', true, 's1$'))],
      filter: { kind: 'cellsPerColumn', limit: 1 },
      limit: undefined,
      order: 'key',
      concurrency: 8,
      parallelism: 1,
      scope: expect.any(String) as unknown as string,
      keyCheck: undefined,
    });
  });

  it('escapes the fixed value, so "a" never matches "a#x" or "ab"', () => {
    expect(plan(Reading, { where: { sensorId: 'a#x' } }).sources[0]?.range).toEqual(range('a%23x#', true, 'a%23x$'));
  });

  it('plans the whole table without where', () => {
    expect(plan(Reading).sources).toEqual([source(0, '', 'unsalted', range('', true, undefined))]);
  });

  it('plans a range on the last key part', () => {
    const from = new Date('2023-05-01T00:00:00.000Z');
    const to = new Date('2023-05-02T00:00:00.000Z');
    expect(plan(Reading, { where: { sensorId: 's1', ts: keyRange({ gte: from, lt: to }) } }).sources[0]?.range).toEqual(
      range('s1#2023-05-01T00:00:00.000Z', true, 's1#2023-05-02T00:00:00.000Z', false),
    );
    expect(plan(Reading, { where: { sensorId: 's1', ts: keyRange({ gt: from, lte: to }) } }).sources[0]?.range).toEqual(
      range('s1#2023-05-01T00:00:00.000Z', false, 's1#2023-05-02T00:00:00.000Z', true),
    );
    expect(plan(Reading, { where: { sensorId: 's1', ts: keyRange({ gte: from }) } }).sources[0]?.range).toEqual(
      range('s1#2023-05-01T00:00:00.000Z', true, 's1$'),
    );
    expect(plan(Reading, { where: { sensorId: 's1', ts: keyRange({ lt: to }) } }).sources[0]?.range).toEqual(
      range('s1#', true, 's1#2023-05-02T00:00:00.000Z'),
    );
  });

  it('steps past every row of a bound value on a key part that is not last', () => {
    expect(plan(Metric, { where: { host: 'h', day: keyRange({ gt: 5, lte: 9 }) } }).sources[0]?.range).toEqual(
      range('h#00000005$', true, 'h#00000009$', false),
    );
    expect(plan(Metric, { where: { host: 'h', day: keyRange({ gte: 5, lt: 9 }) } }).sources[0]?.range).toEqual(
      range('h#00000005', true, 'h#00000009', false),
    );
    expect(plan(Metric, { where: { host: 'h', day: 5 } }).sources[0]?.range).toEqual(
      range('h#00000005#', true, 'h#00000005$'),
    );
  });

  it('plans a range on the first key part', () => {
    expect(plan(Reading, { where: { sensorId: keyRange({ gte: 'a', lt: 'c' }) } }).sources[0]?.range).toEqual(
      range('a', true, 'c'),
    );
  });

  it('plans a complete key as a single-key range', () => {
    const ts = new Date('2023-05-01T12:00:00.000Z');
    expect(plan(Reading, { where: { sensorId: 's1', ts } }).sources[0]?.range).toEqual(
      range('s1#2023-05-01T12:00:00.000Z', true, 's1#2023-05-01T12:00:00.000Z', true),
    );
  });

  it('flips bounds on a descending key part (after literals)', () => {
    const t1 = new Date(1_700_000_000_000); // encodes as 9999999999999 - t = 8299999999999
    const t2 = new Date(1_700_000_001_000); // 8299999998999
    expect(plan(FeedItem, { where: { user: 'u', at: keyRange({ gte: t1, lt: t2 }) } }).sources[0]?.range).toEqual(
      range('feed#u#8299999998999', false, 'feed#u#8299999999999', true),
    );
    expect(plan(FeedItem, { where: { user: 'u', at: keyRange({ gt: t1 }) } }).sources[0]?.range).toEqual(
      range('feed#u#', true, 'feed#u#8299999999999', false),
    );
    expect(plan(FeedItem, { where: { user: 'u' } }).sources[0]?.range).toEqual(range('feed#u#', true, 'feed#u$'));
    expect(plan(FeedItem).sources[0]?.range).toEqual(range('feed#', true, 'feed$'));
  });
});

describe('planScan: salted', () => {
  it('fans out to every bucket, prepending the segment; the open end is prefixEnd(segment)', () => {
    expect(plan(PageView).sources).toEqual([
      source(0, '00#', 'salted', range('00#', true, '00$')),
      source(1, '01#', 'salted', range('01#', true, '01$')),
      source(2, '02#', 'salted', range('02#', true, '02$')),
      source(3, '03#', 'salted', range('03#', true, '03$')),
    ]);
  });

  it('fans out a prefix that does not fix the salted parts', () => {
    expect(plan(PageView, { where: { userId: 'u1' } }).sources).toEqual([
      source(0, '00#', 'salted', range('00#u1#', true, '00#u1$')),
      source(1, '01#', 'salted', range('01#u1#', true, '01#u1$')),
      source(2, '02#', 'salted', range('02#u1#', true, '02#u1$')),
      source(3, '03#', 'salted', range('03#u1#', true, '03#u1$')),
    ]);
  });

  it('reads one bucket when the salted parts are fixed (bucket pruning)', () => {
    // 'u1#web'.length % 4 = 2
    expect(plan(PageView, { where: { userId: 'u1', site: 'web' } }).sources).toEqual([
      source(0, '02#', 'salted', range('02#u1#web#', true, '02#u1#web$')),
    ]);
    const at = new Date(1_700_000_000_000);
    expect(plan(PageView, { where: { userId: 'u1', site: 'web', at: keyRange({ gte: at }) } }).sources).toEqual([
      source(0, '02#', 'salted', range('02#u1#web#1700000000000', true, '02#u1#web$')),
    ]);
    expect(plan(PageView, { where: { userId: 'u1', site: 'web', at: keyRange({ lt: at }) } }).sources).toEqual([
      source(0, '02#', 'salted', range('02#u1#web#', true, '02#u1#web#1700000000000')),
    ]);
  });

  it('prunes to the md5 bucket (DESIGN example: user42/web → bucket 3 of 4)', () => {
    // int(hashlib.md5(b'user42#web').hexdigest(), 16) % 4 == 3
    const p = plan(Md5PageView, { where: { userId: 'user42', site: 'web' } });
    expect(p.sources).toEqual([source(0, '03#', 'salted', range('03#user42#web#', true, '03#user42#web$'))]);
    const written = compileSave(
      compileEntity(Md5PageView),
      Object.assign(new Md5PageView(), { userId: 'user42', site: 'web', at: new Date(5), path: '/' }),
      { now: 1 },
    );
    expect(written.rowKeyText).toBe('03#user42#web#0000000000005');
  });

  it('covers all 2N−1 signed buckets of the java-string-hashcode-signed preset', () => {
    const p = plan(Seed3Row);
    expect(p.sources.map((s) => s.segment)).toEqual(['-3-', '-2-', '-1-', '0-', '1-', '2-', '3-']);
    expect(p.sources[0]).toEqual(source(0, '-3-', 'salted', range('-3-', true, '-3.')));
    expect(p.sources[6]).toEqual(source(6, '3-', 'salted', range('3-', true, '3.')));
    expect(plan(Seed3Row, { where: { user: 'user42' } }).sources[1]).toEqual(
      source(1, '-2-', 'salted', range('-2-user42-', true, '-2-user42.')),
    );
  });
});

describe('planScan: forward-only salt (since)', () => {
  const before = new Date(CUTOFF.getTime() - DAY);
  const after = new Date(CUTOFF.getTime() + DAY);

  it('plans the unsalted layout and every bucket', () => {
    expect(plan(Log, { where: { host: 'h' } }).sources).toEqual([
      source(0, '', 'unsalted', range('h#', true, 'h$')),
      source(1, '00#', 'salted', range('00#h#', true, '00#h$')),
      source(2, '01#', 'salted', range('01#h#', true, '01#h$')),
    ]);
  });

  it('keeps only the unsalted layout for a range entirely before the cutoff', () => {
    expect(plan(Log, { where: { host: 'h', ts: keyRange({ lt: CUTOFF }) } }).sources).toEqual([
      source(0, '', 'unsalted', range('h#', true, 'h#2024-01-01T00:00:00.000Z')),
    ]);
    expect(
      plan(Log, {
        where: { host: 'h', ts: keyRange({ gte: before, lte: new Date(CUTOFF.getTime() - 1) }) },
      }).sources.map((s) => s.layout),
    ).toEqual(['unsalted']);
  });

  it('keeps only the buckets for a range entirely at or after the cutoff', () => {
    expect(plan(Log, { where: { host: 'h', ts: keyRange({ gte: CUTOFF }) } }).sources).toEqual([
      source(0, '00#', 'salted', range('00#h#2024-01-01T00:00:00.000Z', true, '00#h$')),
      source(1, '01#', 'salted', range('01#h#2024-01-01T00:00:00.000Z', true, '01#h$')),
    ]);
    expect(
      plan(Log, { where: { host: 'h', ts: keyRange({ gt: new Date(CUTOFF.getTime() - 1) }) } }).sources.map(
        (s) => s.layout,
      ),
    ).toEqual(['salted', 'salted']);
  });

  it('keeps both layouts for a range that spans the cutoff, or ends at it inclusively', () => {
    expect(
      plan(Log, { where: { host: 'h', ts: keyRange({ gte: before, lt: after }) } }).sources.map((s) => s.layout),
    ).toEqual(['unsalted', 'salted', 'salted']);
    expect(plan(Log, { where: { host: 'h', ts: keyRange({ lte: CUTOFF }) } }).sources.map((s) => s.layout)).toEqual([
      'unsalted',
      'salted',
      'salted',
    ]);
    expect(
      plan(Log, { where: { host: 'h', ts: keyRange({ gt: new Date(CUTOFF.getTime() - 2) }) } }).sources.map(
        (s) => s.layout,
      ),
    ).toEqual(['unsalted', 'salted', 'salted']);
  });

  it('reads one key in the layout the row was written with', () => {
    // 'h#2024-01-02T00:00:00.000Z'.length % 2 = 0
    expect(plan(Log, { where: { host: 'h', ts: after } }).sources).toEqual([
      source(0, '00#', 'salted', range('00#h#2024-01-02T00:00:00.000Z', true, '00#h#2024-01-02T00:00:00.000Z', true)),
    ]);
    expect(plan(Log, { where: { host: 'h', ts: before } }).sources).toEqual([
      source(0, '', 'unsalted', range('h#2023-12-31T00:00:00.000Z', true, 'h#2023-12-31T00:00:00.000Z', true)),
    ]);
    const schema = compileEntity(Log);
    expect(
      compileSave(schema, Object.assign(new Log(), { host: 'h', ts: after, line: 'x' }), { now: 1 }).rowKeyText,
    ).toBe('00#h#2024-01-02T00:00:00.000Z');
    expect(
      compileSave(schema, Object.assign(new Log(), { host: 'h', ts: before, line: 'x' }), { now: 1 }).rowKeyText,
    ).toBe('h#2023-12-31T00:00:00.000Z');
  });

  it('plans a full scan over both layouts', () => {
    expect(plan(Log).sources).toEqual([
      source(0, '', 'unsalted', range('', true, undefined)),
      source(1, '00#', 'salted', range('00#', true, '00$')),
      source(2, '01#', 'salted', range('01#', true, '01$')),
    ]);
  });
});

describe('planScan: validation', () => {
  it('rejects where on a non-key property', () => {
    const err = caught(() => plan(Reading, { where: { temperature: 1 } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Reading.temperature: scans can only select rows by key parts (sensorId, ts)');
  });

  it('rejects a gap in the key prefix', () => {
    const err = caught(() => plan(Metric, { where: { host: 'h', seq: 1 } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Metric.seq: comes after day, which is not given');
    expect(caught(() => plan(Metric, { where: { seq: keyRange({ gte: 1 }) } })).message).toContain(
      'Metric.seq: comes after host, which is not given',
    );
  });

  it('rejects a range that is not on the key part right after the fixed ones', () => {
    const err = caught(() => plan(Metric, { where: { host: 'h', seq: keyRange({ gte: 1 }) } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Metric.seq: comes after day, which is not given');
  });

  it('rejects a key part after the range', () => {
    const err = caught(() => plan(Metric, { where: { host: 'h', day: keyRange({ gte: 1 }), seq: 2 } }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Metric.seq: comes after the range on day');
  });

  it('rejects two lower or two upper bounds', () => {
    expect(caught(() => plan(Metric, { where: { host: 'h', day: keyRange({ gt: 1, gte: 2 }) } })).message).toContain(
      'gives both gt and gte',
    );
    expect(caught(() => plan(Metric, { where: { host: 'h', day: keyRange({ lt: 1, lte: 2 }) } })).message).toContain(
      'gives both lt and lte',
    );
  });

  it('rejects a where that is not an object, and key values that do not encode', () => {
    expect(caught(() => plan(Reading, { where: 5 as unknown as object }))).toBeInstanceOf(ValidationError);
    const err = caught(() => plan(Metric, { where: { host: 'h', day: -1 } }));
    expect(err).toBeInstanceOf(KeyEncodingError);
    expect(err.message).toMatch(/^Metric\.day: -1 /);
    expect(caught(() => plan(Metric, { where: { host: 'h', day: keyRange({ gte: 1.5 }) } }))).toBeInstanceOf(
      KeyEncodingError,
    );
  });

  it('validates limit, order and concurrency', () => {
    expect(plan(Reading, { limit: 0 }).limit).toBe(0);
    expect(plan(Reading, { limit: 25 }).limit).toBe(25);
    expect(caught(() => plan(Reading, { limit: -1 }))).toBeInstanceOf(ValidationError);
    expect(caught(() => plan(Reading, { limit: 1.5 }))).toBeInstanceOf(ValidationError);
    expect(plan(Reading, { order: 'none' }).order).toBe('none');
    expect(caught(() => plan(Reading, { order: 'desc' as 'key' }))).toBeInstanceOf(ValidationError);
    expect(plan(Reading, { concurrency: 3 }).concurrency).toBe(3);
    expect(caught(() => plan(Reading, { concurrency: 0 }))).toBeInstanceOf(ValidationError);
    expect(caught(() => plan(Reading, { concurrency: 2.5 }))).toBeInstanceOf(ValidationError);
  });

  it('names the entity in every limit and concurrency error, whatever was wrong with the value', () => {
    for (const limit of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number])
      expect(caught(() => plan(Reading, { limit })).message).toMatch(/^Reading: limit must be a non-negative integer/);
    for (const concurrency of [0, -3, 2.5, 257, Number.NaN])
      expect(caught(() => plan(Reading, { concurrency })).message).toMatch(
        /^Reading: concurrency must be an integer from 1 to 256/,
      );
  });

  it('validates select and versions', () => {
    expect(caught(() => plan(Reading, { select: ['nope' as 'note'] })).message).toContain(
      'Reading.nope: cannot select an unknown property',
    );
    expect(caught(() => plan(Reading, { versions: 0 }))).toBeInstanceOf(ValidationError);
  });

  it('returns a deeply frozen plan', () => {
    const p = plan(PageView, { where: { userId: 'u1' } });
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.sources)).toBe(true);
    expect(Object.isFrozen(p.sources[0]?.range.start)).toBe(true);
    expect(Object.isFrozen(p.filter)).toBe(true);
  });
});

describe('planScan: scope', () => {
  const q: ScanQuery<PageView> = { where: { userId: 'u1' }, select: ['path'] };

  it('is stable for the same query, whatever the page size, concurrency or clock', () => {
    const scope = plan(PageView, q).scope;
    expect(scope).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(plan(PageView, { ...q }).scope).toBe(scope);
    expect(plan(PageView, { ...q, limit: 10 }).scope).toBe(scope);
    expect(plan(PageView, { ...q, concurrency: 2 }).scope).toBe(scope);
    expect(planScan(compileEntity(PageView), q, 1).scope).toBe(scope);
  });

  it('differs for another where, select, versions, order or table', () => {
    const scope = plan(PageView, q).scope;
    expect(plan(PageView, { ...q, where: { userId: 'u2' } }).scope).not.toBe(scope);
    expect(plan(PageView, { ...q, where: { userId: 'u1', site: 'web' } }).scope).not.toBe(scope);
    expect(plan(PageView, { ...q, select: [] }).scope).not.toBe(scope);
    expect(plan(PageView, { ...q, order: 'none' }).scope).not.toBe(scope);
    expect(plan(Md5PageView, q as ScanQuery<Md5PageView>).scope).not.toBe(scope);
  });
});
