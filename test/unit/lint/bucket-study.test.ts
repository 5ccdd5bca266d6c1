import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { bucketCounts, bucketStudy, evenness, type EntitySchema } from '../../../src/tools.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { ValidationError } from '../../../src/errors/errors.js';
import { resolveSaltHash } from '../../../src/codec/hash-presets.js';
import { saltInput } from '../../../src/key/salt.js';
import { encodeKeyComponents } from '../../../src/key/logical-key.js';

@Entity({ table: 'views' })
@Salt({ buckets: 8, on: ['userId'] })
@Family('v', { gc: { maxVersions: 1 } })
class View {
  @KeyPart(0, { type: 'string', maxLength: 32 }) userId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
}

@Entity({ table: 'plain' })
@Family('v', { gc: { maxVersions: 1 } })
class Plain {
  @KeyPart(0, { type: 'string', maxLength: 32 }) id!: string;
}

const keys = Array.from({ length: 2000 }, (_, i) => ({ userId: `user-${i}`, at: new Date(i * 1000) }));

/** The same numbers the slow way: bucketCounts() over each count's salt, then evenness(). */
function expected(schema: EntitySchema, count: number, values: readonly Record<string, unknown>[]) {
  const base = schema.key.salt;
  const salt = base ?? { prefixLength: schema.key.components.length, on: schema.key.properties };
  const hash = resolveSaltHash('x', (base?.hash ?? 'md5') as 'md5', count);
  const counted = { ...salt, buckets: count, bucketOf: hash.bucketOf, allBuckets: hash.allBuckets };
  const inputs = values.map((v) =>
    saltInput(counted as never, encodeKeyComponents(schema, v, 'prefix'), schema.key.separator),
  );
  return evenness(bucketCounts(counted as never, inputs));
}

describe('bucketStudy', () => {
  it("reports, for seed 002's counts by default, the numbers bucketCounts() and evenness() give for the same keys", () => {
    const schema = compileEntity(View);
    const study = bucketStudy(View, keys);
    expect(study).toMatchObject({ entity: 'View', hash: 'md5', on: ['userId'], keys: 2000, threshold: 1.5 });
    expect(study.rows.map((r) => r.buckets)).toEqual([5, 10, 20, 50]);
    for (const row of study.rows) {
      const e = expected(schema, row.buckets, keys);
      expect({ min: row.min, max: row.max, ratio: row.ratio }).toEqual({
        min: e.min,
        max: e.max,
        ratio: Number.isFinite(e.ratio) ? e.ratio : null,
      });
      expect(row.verdict).toBe(e.ratio < 1.5 ? 'good' : 'uneven');
    }
  });

  it('gives the verdict against 1.5 and calls a count with empty buckets uneven (ratio null, JSON-safe)', () => {
    const few = keys.slice(0, 30);
    const study = bucketStudy(View, few, [2, 50]);
    const [two, fifty] = study.rows;
    expect(fifty).toMatchObject({ buckets: 50, min: 0, ratio: null, verdict: 'uneven' });
    expect(fifty?.emptyBuckets).toBeGreaterThanOrEqual(20);
    expect(two?.verdict).toBe((two?.ratio ?? Infinity) < 1.5 ? 'good' : 'uneven');
    expect(JSON.parse(JSON.stringify(study))).toEqual(study);
  });

  it('studies an unsalted entity as md5 over its whole key, and needs only the salted properties', () => {
    const schema = compileEntity(Plain);
    const ids = Array.from({ length: 500 }, (_, i) => ({ id: `id-${i}` }));
    const [row] = bucketStudy(Plain, ids, [10]).rows;
    const e = expected(schema, 10, ids);
    expect(row).toMatchObject({ buckets: 10, min: e.min, max: e.max });
    expect(bucketStudy(View, [{ userId: 'u1' }], [5]).keys).toBe(1);
  });

  it('reads the keys once, lazily, from any iterable', () => {
    let produced = 0;
    function* generate() {
      for (let i = 0; i < 100; i++) {
        produced++;
        yield { userId: `u${i}` };
      }
    }
    expect(bucketStudy(View, generate(), [5, 10]).keys).toBe(100);
    expect(produced).toBe(100);
  });

  it('rejects bad counts and keys with ValidationError', () => {
    for (const counts of [[], [0], [1001], [2.5], Array.from({ length: 65 }, () => 5)]) {
      expect(() => bucketStudy(View, keys, counts), JSON.stringify(counts)).toThrow(ValidationError);
    }
    expect(() => bucketStudy(View, [null as never])).toThrow(ValidationError);
    expect(() => bucketStudy(View, [{ at: new Date() }])).toThrow(ValidationError);
  });
});
