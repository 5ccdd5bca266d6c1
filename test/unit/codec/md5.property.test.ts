import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md5Bucket, md5Digest } from '../../../src/codec/hash-presets.js';
import { propertyRuns } from '../../support/property-runs.js';

/** Seed 002's definition, with BigInt: the digest as a 128-bit big-endian integer, modulo `buckets`. */
function referenceBucket(input: string, buckets: number): number {
  const hex = createHash('md5').update(input, 'utf8').digest('hex');
  return Number(BigInt(`0x${hex}`) % BigInt(buckets));
}

describe('md5 presets without BigInt', () => {
  it('md5Digest equals a createHash digest, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (input) => {
        expect(md5Digest(input).equals(createHash('md5').update(input, 'utf8').digest())).toBe(true);
      }),
    );
  });

  it('md5Bucket equals the 128-bit remainder for every bucket count, small or beyond the exact-double range', () => {
    const buckets = fc.oneof(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 2 ** 20 - 2, max: 2 ** 20 + 2 }),
      fc.integer({ min: 1, max: 2 ** 31 }),
    );
    fc.assert(
      fc.property(fc.string(), buckets, (input, n) => {
        expect(md5Bucket(input, n)).toBe(referenceBucket(input, n));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
