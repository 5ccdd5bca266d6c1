import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { censusOf, encodeRowKey, evenness } from '../../../src/tools.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { ValidationError } from '../../../src/errors/errors.js';

const CUTOFF = new Date('2024-01-01T00:00:00.000Z');

@Entity({ table: 'views' })
@Salt({ buckets: 4, on: ['userId'], since: { component: 'at', from: CUTOFF } })
@Family('v', { gc: { maxVersions: 1 } })
class View {
  @KeyPart(0, { type: 'string', maxLength: 32 }) userId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
}

const schema = compileEntity(View);
const row = (userId: string, at: Date, bytes: number) => ({ key: encodeRowKey(schema, { userId, at }).key, bytes });
const after = new Date('2024-06-01T00:00:00.000Z');
const before = new Date('2023-06-01T00:00:00.000Z');

describe('censusOf', () => {
  it('tallies rows and bytes per salt bucket, unsalted rows apart, and per first key component', () => {
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => row(`u${i % 8}`, new Date(after.getTime() + i), 100)),
      row('u0', before, 7),
    ];
    const census = censusOf(View, rows);
    expect(census).toMatchObject({ entity: 'View', rows: 41, bytes: 4007, unsalted: { rows: 1, bytes: 7 } });
    const bySalt = new Map<number, number>([0, 1, 2, 3].map((b) => [b, 0]));
    for (let i = 0; i < 40; i++) {
      const bucket = schema.key.salt?.bucketOf(`u${i % 8}`) as number;
      bySalt.set(bucket, (bySalt.get(bucket) ?? 0) + 1);
    }
    expect(census.buckets.map((b) => [b.bucket, b.rows, b.bytes])).toEqual(
      [...bySalt].map(([b, n]) => [b, n, n * 100]),
    );
    const e = evenness(bySalt);
    expect(census.evenness?.rows).toEqual({ min: e.min, max: e.max, ratio: Number.isFinite(e.ratio) ? e.ratio : null });
    expect(census.prefixes.map((p) => [p.prefix, p.rows])).toEqual([
      ['u0', 6],
      ...['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'].map((u) => [u, 5]),
    ]);
    expect(JSON.parse(JSON.stringify(census))).toEqual(census);
  });

  it('groups by more components on request, and folds prefixes past maxPrefixes into otherPrefixes', () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(`u${i}`, after, 1));
    const census = censusOf(View, rows, { maxPrefixes: 3 });
    expect(census.prefixes).toHaveLength(3);
    expect(census.otherPrefixes).toEqual({ prefixes: 7, rows: 7, bytes: 7 });
    const two = censusOf(View, [row('u1', after, 1), row('u1', new Date(after.getTime() + 1), 1)], {
      prefixComponents: 2,
    });
    expect(two.prefixes).toHaveLength(2);
  });

  it('rejects rows that are not { key: bytes, bytes: size } and bad options', () => {
    expect(() => censusOf(View, [{ key: 'abc' as never, bytes: 1 }])).toThrow(ValidationError);
    expect(() => censusOf(View, [{ key: new Uint8Array(1), bytes: -1 }])).toThrow(ValidationError);
    expect(() => censusOf(View, [{ key: new Uint8Array(1), bytes: Number.NaN }])).toThrow(ValidationError);
    expect(() => censusOf(View, [], { maxPrefixes: 0 })).toThrow(ValidationError);
    expect(() => censusOf(View, [], { prefixComponents: 1.5 })).toThrow(ValidationError);
  });
});
