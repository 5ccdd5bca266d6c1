import { describe, expect, it } from 'vitest';
import { resolveSaltHash, SALT_HASH_PRESETS } from '../../../src/codec/hash-presets.js';
import { javaStringHashCode } from '../../../src/codec/hash-presets.js';
import { saltVectors } from './salt-fixtures.js';

describe("golden salt vectors (computed by the seeds' Python and Java recipes)", () => {
  it('covers every preset at the required bucket counts, with empty, unicode, astral and long inputs', () => {
    for (const preset of SALT_HASH_PRESETS) {
      const counts = new Set(saltVectors.vectors.filter((v) => v.preset === preset).map((v) => v.buckets));
      for (const n of [2, 4, 8, 10, 16, 20, 32, 100]) expect(counts.has(n), `${preset} at ${n}`).toBe(true);
    }
    const inputs = saltVectors.vectors.map((v) => v.input);
    expect(inputs).toContain('');
    expect(inputs.some((s) => s.includes('é'))).toBe(true);
    expect(inputs.some((s) => /[\u4e00-\u9fff]/.test(s))).toBe(true);
    expect(inputs.some((s) => /[\ud800-\udbff]/.test(s))).toBe(true);
    expect(inputs.some((s) => s.length >= 200)).toBe(true);
    expect(saltVectors.vectors.some((v) => v.preset === 'java-string-hashcode-signed' && v.bucket < 0)).toBe(true);
  });

  it.each(SALT_HASH_PRESETS)('%s reproduces every vector', (preset) => {
    const vectors = saltVectors.vectors.filter((v) => v.preset === preset);
    expect(vectors.length).toBeGreaterThan(100);
    for (const v of vectors) {
      const { bucketOf } = resolveSaltHash('Golden', preset, v.buckets);
      expect(bucketOf(v.input), `${preset} ${JSON.stringify(v.input)} mod ${v.buckets}`).toBe(v.bucket);
    }
  });

  it("javaStringHashCode matches Java's String.hashCode()", () => {
    expect(saltVectors.javaHashCodes.length).toBeGreaterThan(10);
    for (const { input, hashCode } of saltVectors.javaHashCodes) {
      expect(javaStringHashCode(input), JSON.stringify(input)).toBe(hashCode);
    }
  });
});
