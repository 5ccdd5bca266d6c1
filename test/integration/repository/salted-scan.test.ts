import { createHash } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range, type BigtableMapper, type Repository, type ScanQuery } from '../../../src/index.js';
import { closeMapper, makeEntities, openMapper, plain, rawKeys } from '../../fixtures/entities.js';

const E = makeEntities('salt');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;
type PlainEvent = InstanceType<typeof E.PlainEvent>;
type PageView = InstanceType<typeof E.PageView>;
type Seed003Event = InstanceType<typeof E.Seed003Event>;

let mapper: BigtableMapper;
let salted: Repository<SaltedEvent>;
let unsalted: Repository<PlainEvent>;
let views: Repository<PageView>;
let seed003: Repository<Seed003Event>;

function all<T extends object>(repo: Repository<T>, query: ScanQuery<T> = {}): Promise<T[]> {
  return lastValueFrom(repo.scan(query).pipe(toArray()));
}

/** Scans both tables with the same query and returns plain copies of the entities. */
async function both(
  query: ScanQuery<SaltedEvent>,
): Promise<{ salted: Record<string, unknown>[]; unsalted: Record<string, unknown>[] }> {
  const [a, b] = await Promise.all([all(salted, query), all(unsalted, query as ScanQuery<PlainEvent>)]);
  return { salted: a.map(plain), unsalted: b.map(plain) };
}

const USERS = Array.from({ length: 13 }, (_, i) => `u${i}`); // u1 is a string prefix of u10, u11, u12
const SEQS = 40;
const ROWS = USERS.length * SEQS; // 520
const event = (userId: string, seq: number) => ({ userId, seq, payload: `p-${userId}-${seq}`, n: seq * userId.length });
const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const ka = `${String(a['userId'])}#${String(a['seq']).padStart(6, '0')}`;
  const kb = `${String(b['userId'])}#${String(b['seq']).padStart(6, '0')}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

const SITES = ['web', 'app', 'api'];
const PV_USERS = ['u1', 'u2', 'u3'];
const PV_BASE = Date.UTC(2024, 5, 24, 10, 0, 0);
const pvAt = (i: number) => new Date(PV_BASE + i * 1_000);

const S3_USERS = ['user42', 'user7', 'alice'];
const S3_BASE = Date.UTC(2024, 5, 24, 10, 0, 0);
/** Weekly steps: nearby times share the hash's sign, spread ones reach every prefix from -3 to 3. */
const s3At = (i: number) => new Date(S3_BASE + i * (7 * 86_400_000 + 137));

beforeAll(async () => {
  mapper = openMapper([E.SaltedEvent, E.PlainEvent, E.PageView, E.Seed003Event]);
  await mapper.sync();
  salted = mapper.getRepository(E.SaltedEvent);
  unsalted = mapper.getRepository(E.PlainEvent);
  views = mapper.getRepository(E.PageView);
  seed003 = mapper.getRepository(E.Seed003Event);
  const rows = USERS.flatMap((u) => Array.from({ length: SEQS }, (_, s) => event(u, s)));
  await salted.saveMany(
    rows.map((r) => Object.assign(new E.SaltedEvent(), r)),
    { batchSize: 100 },
  );
  await unsalted.saveMany(
    rows.map((r) => Object.assign(new E.PlainEvent(), r)),
    { batchSize: 100 },
  );
  await views.saveMany(
    PV_USERS.flatMap((userId) =>
      SITES.flatMap((site) =>
        Array.from({ length: 20 }, (_, i) =>
          Object.assign(new E.PageView(), { userId, site, at: pvAt(i), path: `/${userId}/${site}/${i}` }),
        ),
      ),
    ),
  );
  await seed003.saveMany(
    S3_USERS.flatMap((userId) =>
      Array.from({ length: 30 }, (_, i) =>
        Object.assign(new E.Seed003Event(), { userId, at: s3At(i), action: `${userId}:${i}` }),
      ),
    ),
  );
});

afterAll(() => closeMapper(mapper, [E.tables.salted, E.tables.plain, E.tables.pageViews, E.tables.seed003]));

describe('salted entity (8 md5 buckets) vs the identical unsalted entity', () => {
  it('stores keys as NN#<logical key>, bucket = md5(logical key) mod 8, spread over all 8 buckets', async () => {
    const keys = await rawKeys(mapper, E.tables.salted);
    expect(keys).toHaveLength(ROWS);
    const buckets = new Set<string>();
    for (const key of keys) {
      const match = /^(\d\d)#(.+)$/.exec(key);
      expect(match, key).not.toBeNull();
      const [, bucket, logical] = match as unknown as [string, string, string];
      const expected = BigInt(`0x${createHash('md5').update(logical, 'utf8').digest('hex')}`) % 8n;
      expect(Number(bucket), key).toBe(Number(expected));
      buckets.add(bucket);
    }
    expect([...buckets].sort()).toEqual(['00', '01', '02', '03', '04', '05', '06', '07']);
    // Physical order is by bucket, so the scan below has real merging to do.
    const logicalOrder = keys.map((k) => k.slice(3));
    expect(logicalOrder).not.toEqual([...logicalOrder].sort());
  });

  it('whole-table scan: same entities in the same (logical key) order', async () => {
    const r = await both({});
    expect(r.unsalted).toHaveLength(ROWS);
    expect(r.salted).toEqual(r.unsalted);
    expect(r.salted[0]).toEqual(event('u0', 0));
  });

  it('prefix scan: same entities in the same order (u1 never returns u10..u12)', async () => {
    const r = await both({ where: { userId: 'u1' } });
    expect(r.salted).toEqual(r.unsalted);
    expect(r.salted.map((e) => e['seq'])).toEqual(Array.from({ length: SEQS }, (_, i) => i));
    expect(new Set(r.salted.map((e) => e['userId']))).toEqual(new Set(['u1']));
  });

  it('range scans: same entities in the same order', async () => {
    const r1 = await both({ where: { userId: 'u3', seq: range({ gte: 10, lt: 25 }) } });
    expect(r1.salted).toEqual(r1.unsalted);
    expect(r1.salted.map((e) => e['seq'])).toEqual(Array.from({ length: 15 }, (_, i) => i + 10));
    const r2 = await both({ where: { userId: range({ gt: 'u1', lte: 'u2' }) } });
    expect(r2.salted).toEqual(r2.unsalted);
    expect([...new Set(r2.salted.map((e) => e['userId']))]).toEqual(['u10', 'u11', 'u12', 'u2']);
  });

  it("order: 'none' returns the same set, each row once", async () => {
    for (const where of [
      undefined,
      { userId: 'u7' },
      { userId: 'u5', seq: range({ gt: 30 }) },
    ] as ScanQuery<SaltedEvent>['where'][]) {
      const [loose, ordered] = await Promise.all([
        all(salted, { where, order: 'none', concurrency: 3 }),
        all(unsalted, { where } as ScanQuery<PlainEvent>),
      ]);
      expect(loose.length).toBe(ordered.length);
      expect(loose.map(plain).sort(byKey)).toEqual(ordered.map(plain));
    }
  });

  it('limit 10 over 8 buckets returns the 10 smallest keys', async () => {
    const r = await both({ limit: 10 });
    expect(r.salted).toEqual(r.unsalted);
    expect(r.salted.map((e) => e['seq'])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const p = await both({ where: { userId: 'u9' }, limit: 10 });
    expect(p.salted).toEqual(p.unsalted);
    expect(p.salted).toHaveLength(10);
  });

  it('plans one range per bucket, and a point key reads one row', async () => {
    expect(salted.planScan({}).sources.map((s) => s.segment)).toEqual([
      '00#',
      '01#',
      '02#',
      '03#',
      '04#',
      '05#',
      '06#',
      '07#',
    ]);
    expect(unsalted.planScan({}).sources).toHaveLength(1);
    expect(plain((await salted.findOne({ userId: 'u4', seq: 17 }))!)).toEqual(event('u4', 17));
  });
});

describe('partial-key salting (on: userId, site)', () => {
  it('plans one source when both salted parts are fixed, 8 otherwise', () => {
    expect(views.planScan({ where: { userId: 'u1', site: 'web' } }).sources).toHaveLength(1);
    expect(views.planScan({ where: { userId: 'u1', site: 'web', at: range({ gte: pvAt(5) }) } }).sources).toHaveLength(
      1,
    );
    expect(views.planScan({ where: { userId: 'u1' } }).sources).toHaveLength(8);
    expect(views.planScan({ where: { userId: 'u1', site: range({ gte: 'b' }) } }).sources).toHaveLength(8);
    expect(views.planScan({}).sources).toHaveLength(8);
  });

  it('stores every row of one (userId, site) in the one planned bucket', async () => {
    const keys = await rawKeys(mapper, E.tables.pageViews);
    expect(keys).toHaveLength(PV_USERS.length * SITES.length * 20);
    for (const userId of PV_USERS) {
      for (const site of SITES) {
        const [source] = views.planScan({ where: { userId, site } }).sources;
        const rows = keys.filter((k) => k.slice(3).startsWith(`${userId}#${site}#`));
        expect(rows).toHaveLength(20);
        expect(new Set(rows.map((k) => k.slice(0, 3)))).toEqual(new Set([source!.segment]));
      }
    }
  });

  it('the one-bucket scan and the fan-out scan both return the right rows, in key order', async () => {
    const one = await all(views, { where: { userId: 'u2', site: 'web' } });
    expect(one.map((v) => v.path)).toEqual(Array.from({ length: 20 }, (_, i) => `/u2/web/${i}`));
    const ranged = await all(views, { where: { userId: 'u2', site: 'web', at: range({ gt: pvAt(4), lte: pvAt(7) }) } });
    expect(ranged.map((v) => v.path)).toEqual(['/u2/web/5', '/u2/web/6', '/u2/web/7']);
    const fanOut = await all(views, { where: { userId: 'u2' } });
    expect(fanOut.map((v) => v.path)).toEqual(
      ['api', 'app', 'web'].flatMap((site) => Array.from({ length: 20 }, (_, i) => `/u2/${site}/${i}`)),
    );
    expect(fanOut.every((v) => v.at instanceof Date)).toBe(true);
  });
});

describe("seed 003's layout: signed Java hashCode, '-' separators, unpadded bucket", () => {
  function javaHashCode(s: string): number {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    return h;
  }
  /** Exactly seed 003: `int prefix = rowKey.hashCode() % saltRange; prefix + "-" + rowKey`. */
  const seedKey = (userId: string, at: Date) => {
    const rowKey = `${userId}-${String(at.getTime()).padStart(13, '0')}`;
    const prefix = (javaHashCode(rowKey) % 4) + 0; // Java's % keeps the sign; + 0 turns -0 into 0
    return `${prefix}-${rowKey}`;
  };

  it('writes exactly the keys the seed code would write, negative buckets included', async () => {
    const keys = await rawKeys(mapper, E.tables.seed003);
    const expected = S3_USERS.flatMap((u) => Array.from({ length: 30 }, (_, i) => seedKey(u, s3At(i))));
    expect([...keys].sort()).toEqual([...expected].sort());
    expect(keys.some((k) => k.startsWith('-3-user42-'))).toBe(true);
    const prefixes = new Set(keys.map((k) => (/^(-?\d)-/.exec(k) as RegExpExecArray)[1] as string));
    expect([...prefixes].map(Number).sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
  });

  it('scans every row back from all 7 prefixes (-3..3), in logical order', async () => {
    expect(seed003.planScan({}).sources.map((s) => s.segment)).toEqual(['-3-', '-2-', '-1-', '0-', '1-', '2-', '3-']);
    const rows = await all(seed003);
    expect(rows).toHaveLength(90);
    const expectedOrder = ['alice', 'user42', 'user7'].flatMap((u) =>
      Array.from({ length: 30 }, (_, i) => `${u}:${i}`),
    );
    expect(rows.map((r) => r.action)).toEqual(expectedOrder);
    const mine = await all(seed003, { where: { userId: 'user42' } });
    expect(mine.map((r) => r.action)).toEqual(Array.from({ length: 30 }, (_, i) => `user42:${i}`));
    expect(mine.map((r) => r.at.getTime())).toEqual(Array.from({ length: 30 }, (_, i) => s3At(i).getTime()));
    expect((await seed003.findOne({ userId: 'user7', at: s3At(11) }))!.action).toBe('user7:11');
  });
});
