import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { range } from '../../../src/scan/scan-query.js';
import type { KeyRange, RowKeySample } from '../../../src/model/driver.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { EntitySchema } from '../../../src/metadata/entity-schema.js';
import { planKeySources, planScan } from '../../../src/scan/plan-scan.js';
import { cutShards } from '../../../src/scan/shards.js';
import type { ScanQuery } from '../../../src/scan/scan-query.js';
import { propertyRuns } from '../../support/property-runs.js';

@Entity({ table: 'events' })
@Family('d')
class Event {
  @KeyPart(0, { type: 'string' }) tenant!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'd', type: 'int' }) v?: number;
}

@Entity({ table: 'clicks' })
@Salt({ buckets: 4, on: ['user'], hash: (input) => input.length })
@Family('d')
class Click {
  @KeyPart(0, { type: 'string' }) user!: string;
  @KeyPart(1, { type: 'uint', width: 3 }) n!: number;
  @Column({ family: 'd', type: 'int' }) v?: number;
}

const NOW = 1_700_000_000_000_000;
const event = compileEntity(Event) as EntitySchema;
const click = compileEntity(Click) as EntitySchema;

const inRange = (key: Buffer, r: KeyRange): boolean => {
  const lo = Buffer.compare(key, r.start.key);
  if (lo < 0 || (lo === 0 && !r.start.inclusive)) return false;
  if (r.end === undefined) return true;
  const hi = Buffer.compare(key, r.end.key);
  return hi < 0 || (hi === 0 && r.end.inclusive);
};

/** Whether range `inner` lies inside range `outer`. */
const within = (inner: KeyRange, outer: KeyRange): boolean => {
  const lo = Buffer.compare(inner.start.key, outer.start.key);
  if (lo < 0 || (lo === 0 && inner.start.inclusive && !outer.start.inclusive)) return false;
  if (outer.end === undefined) return true;
  if (inner.end === undefined) return false;
  const hi = Buffer.compare(inner.end.key, outer.end.key);
  return hi < 0 || (hi === 0 && (!inner.end.inclusive || outer.end.inclusive));
};

/** Keys near the query's bounds: the bounds themselves, their prefixes and extensions, and arbitrary bytes. */
function keysAround(schema: EntitySchema, query: ScanQuery<unknown>): fc.Arbitrary<Buffer> {
  const bounds = planKeySources(schema, query.where).flatMap((s) =>
    s.range.end === undefined ? [s.range.start.key] : [s.range.start.key, s.range.end.key],
  );
  const nearBound = fc
    .tuple(fc.constantFrom(...bounds), fc.uint8Array({ maxLength: 3 }), fc.nat(3))
    .map(([bound, tail, cut]) => {
      const base = bound.subarray(0, Math.max(0, bound.length - cut));
      return Buffer.concat([base, Buffer.from(tail)]);
    });
  const text = fc
    .tuple(fc.constantFrom('', '0#', '1#', '2#', '3#'), fc.constantFrom('a', 'b', 'ab', 'c', 'zz'), fc.nat(999))
    .map(([salt, tenant, n]) => Buffer.from(`${salt}${tenant}#${String(n).padStart(3, '0')}`));
  return fc.oneof(nearBound, fc.constantFrom(...bounds), text, fc.uint8Array({ maxLength: 6 }).map(Buffer.from));
}

const queries: readonly [EntitySchema, ScanQuery<unknown>][] = [
  [event, {}],
  [event, { where: { tenant: 'ab' } }],
  [event, { where: { tenant: 'ab', n: range({ gte: 10, lt: 500 }) } }],
  [event, { where: { tenant: range({ gt: 'a', lte: 'b' }) } }],
  [click, {}],
  [click, { where: { user: 'ab' } }],
  [click, { where: { user: 'ab', n: range({ gt: 0, lte: 999 }) } }],
] as never;

describe('cutShards: the n shards cover the query exactly', () => {
  it.each(queries.map((q, i) => [i, q] as const))('query %i: every row of the query in exactly one shard', (_, q) => {
    const [schema, query] = q;
    const keys = keysAround(schema, query as ScanQuery<unknown>);
    const samples = fc.array(
      fc.tuple(keys, fc.nat()).map(([key, offsetBytes]): RowKeySample => ({ key, offsetBytes })),
      { maxLength: 12 },
    );
    const withEnd = fc
      .tuple(samples, fc.boolean())
      .map(([s, end]) => (end ? [...s, { key: Buffer.alloc(0), offsetBytes: 0 }] : s));
    fc.assert(
      fc.property(
        withEnd,
        fc.integer({ min: 1, max: 20 }),
        fc.array(keys, { maxLength: 30 }),
        fc.constantFrom('key', 'key-desc', 'none'),
        (sampled, n, rows, order) => {
          const whole = planScan(schema, query, NOW);
          const shards = cutShards(schema, schema.table, planKeySources(schema, query.where), sampled, n);
          expect(shards).toHaveLength(n);
          // A JSON round trip is how a worker gets its shard.
          const plans = shards.map((shard) =>
            planScan(schema, { ...query, order, shard: JSON.parse(JSON.stringify(shard)) as never }, NOW),
          );
          for (const key of rows) {
            const inQuery = whole.sources.filter((s) => inRange(key, s.range)).length;
            const inShards = plans.flatMap((p) => p.sources.filter((s) => inRange(key, s.range))).length;
            expect(inShards, key.toString('hex')).toBe(inQuery);
          }
          // Each shard's ranges lie inside the query's, so nothing outside it is read.
          for (const p of plans)
            for (const s of p.sources) expect(whole.sources.some((w) => within(s.range, w.range))).toBe(true);
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('shards are contiguous, in key order, and balanced to within one piece', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 998 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        (cuts, n) => {
          const samples = cuts.map((c) => ({ key: Buffer.from(`ab#${String(c).padStart(3, '0')}`), offsetBytes: c }));
          const shards = cutShards(event, 'events', planKeySources(event, { tenant: 'ab' }), samples, n);
          const sizes = shards.map((s) => s.ranges.length);
          expect(sizes.reduce((a, b) => a + b, 0)).toBe(shards.filter((s) => s.ranges.length > 0).length);
          const pieces = cuts.length + 1;
          const counts = shards.map((s) => {
            const r = s.ranges[0];
            if (r === undefined) return 0;
            const at = (t: string | null, edge: number): number =>
              t === null ? edge : Number(Buffer.from(t, 'base64').toString().slice(3));
            const sorted = [0, ...[...cuts].sort((a, b) => a - b), 1000];
            return sorted.indexOf(at(r.end, 1000)) - sorted.indexOf(at(r.start, 0));
          });
          expect(counts.reduce((a, b) => a + b, 0)).toBe(pieces);
          expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
          // Shard i ends where shard i + 1 starts.
          const bounded = shards.flatMap((s) => s.ranges);
          for (let i = 1; i < bounded.length; i++) expect(bounded[i]?.start).toBe(bounded[i - 1]?.end);
        },
      ),
      { numRuns: propertyRuns(1000) },
    );
  });
});
