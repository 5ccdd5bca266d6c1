import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { bucketCounts, evenness, lintEntity } from '../../../src/tools.js';
import { resolveSaltHash } from '../../../src/codec/hash-presets.js';

describe('salt-few-values', () => {
  it('errors when the hashed part has fewer values than buckets: a one-digit uint over 16 buckets', () => {
    @Entity({ table: 't' })
    @Salt({ buckets: 16, on: ['shard'] })
    @Family('d', { gc: { maxVersions: 1 } })
    class Sharded {
      @KeyPart(0, { type: 'uint', width: 1 }) shard!: number;
      @KeyPart(1, { type: 'string', maxLength: 32 }) id!: string;
    }
    const findings = lintEntity(Sharded).filter((f) => f.code === 'salt-few-values');
    expect(findings).toMatchObject([{ severity: 'error', property: 'shard' }]);
    expect(findings[0]?.message).toContain('only 10 distinct values for 16 buckets, so at least 6 buckets stay empty');
  });

  it('warns when the values fill every bucket but unevenly, with the exact measured spread', () => {
    @Entity({ table: 't' })
    @Salt({ buckets: 8, on: ['shard'] })
    @Family('d', { gc: { maxVersions: 1 } })
    class Sharded {
      @KeyPart(0, { type: 'uint', width: 2 }) shard!: number;
      @KeyPart(1, { type: 'string', maxLength: 32 }) id!: string;
    }
    const salt = resolveSaltHash('Sharded', 'md5', 8);
    const inputs = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
    const expected = evenness(bucketCounts({ ...salt, buckets: 8 } as never, inputs));
    const findings = lintEntity(Sharded).filter((f) => f.code === 'salt-few-values');
    if (expected.ratio < 1.5) expect(findings).toEqual([]);
    else {
      expect(findings).toMatchObject([{ severity: 'warning' }]);
      expect(findings[0]?.message).toContain(`max/min ${expected.ratio.toFixed(2)}`);
    }
  });

  it('counts a constant prefix as one value and stays quiet on parts it cannot bound (strings, timestamps)', () => {
    @Entity({ table: 't' })
    @KeyPart(0, { literal: 'event' })
    @Salt({ buckets: 8, on: ['source'] })
    @Family('d', { gc: { maxVersions: 1 } })
    class Event {
      @KeyPart(1, { type: 'string', maxLength: 32 }) source!: string;
      @KeyPart(2, { type: 'timestamp' }) at!: Date;
    }
    expect(lintEntity(Event)).toEqual([]);
  });
});

/** The sample: 1,000,000 sequential ids zero-padded to 8 digits. */
function sequentialIdRatio(buckets: number): number {
  const hash = resolveSaltHash('Sample', 'java-string-hashcode', buckets);
  const counts = new Map<number, number>(hash.allBuckets.map((b) => [b, 0]));
  for (let i = 0; i < 1_000_000; i++) {
    const bucket = hash.bucketOf(String(i).padStart(8, '0'));
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return evenness(counts).ratio;
}

describe('java-hashcode-power-of-two', () => {
  it('measures 6.38× max/min at 32 buckets on sequential ids, the number the rule quotes', () => {
    expect(sequentialIdRatio(32).toFixed(2)).toBe('6.38');
    @Entity({ table: 't' })
    @Salt({ buckets: 32, hash: 'java-string-hashcode' })
    @Family('d', { gc: { maxVersions: 1 } })
    class Hot {
      @KeyPart(0, { type: 'string', maxLength: 32 }) id!: string;
    }
    const [finding] = lintEntity(Hot);
    expect(finding).toMatchObject({ code: 'java-hashcode-power-of-two', severity: 'error' });
    expect(finding?.message).toContain('max/min 6.38');
    expect(finding?.fix).toContain("hash: 'md5'");
  });

  it('is only informational where the sample stays even (4 buckets), and silent off powers of two or with md5', () => {
    const entity = (buckets: number, hash: 'java-string-hashcode-signed' | 'md5') => {
      @Entity({ table: 't' })
      @Salt({ buckets, hash })
      @Family('d', { gc: { maxVersions: 1 } })
      class E {
        @KeyPart(0, { type: 'string', maxLength: 32 }) id!: string;
      }
      return E;
    };
    expect(lintEntity(entity(4, 'java-string-hashcode-signed'))).toMatchObject([
      { code: 'java-hashcode-power-of-two', severity: 'info' },
    ]);
    expect(lintEntity(entity(10, 'java-string-hashcode-signed'))).toEqual([]);
    expect(lintEntity(entity(32, 'md5'))).toEqual([]);
  });
});

describe('java-hashcode-multiple-of-31', () => {
  it('errors: hashCode() mod 31 is the last character, so digit-ending keys fill 10 of 31 buckets', () => {
    @Entity({ table: 't' })
    @Salt({ buckets: 31, hash: 'java-string-hashcode' })
    @Family('d', { gc: { maxVersions: 1 } })
    class E {
      @KeyPart(0, { type: 'string', maxLength: 32 }) id!: string;
    }
    const [finding] = lintEntity(E);
    expect(finding).toMatchObject({ code: 'java-hashcode-multiple-of-31', severity: 'error' });
    expect(finding?.message).toContain('min 0, max 100000');
  });
});
