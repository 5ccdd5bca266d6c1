import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveSaltHash, SALT_HASH_PRESETS } from '../../../src/codec/hash-presets.js';
import { javaStringHashCode } from '../../../src/codec/hash-presets.js';

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
);
const bucketCount = fc.integer({ min: 1, max: 1000 });
const nonNegativePresets = SALT_HASH_PRESETS.filter((p) => p !== 'java-string-hashcode-signed');

function independentJavaHash(s: string): bigint {
  const units = Buffer.from(s, 'utf16le');
  let h = 0n;
  for (let i = 0; i < units.length; i += 2) h = BigInt.asIntN(32, h * 31n + BigInt(units.readUInt16LE(i)));
  return h;
}

describe('hash preset properties', () => {
  it('every bucket is one of allBuckets', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SALT_HASH_PRESETS), anyText, bucketCount, (preset, input, n) => {
        const { bucketOf, allBuckets } = resolveSaltHash('P', preset, n);
        expect(allBuckets).toContain(bucketOf(input));
      }),
    );
  });

  it('md5 agrees with BigInt of the hex digest mod N (seed 002 Python)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), bucketCount, (input, n) => {
        const hex = createHash('md5').update(Buffer.from(input, 'utf8')).digest('hex');
        expect(resolveSaltHash('P', 'md5', n).bucketOf(input)).toBe(Number(BigInt(`0x${hex}`) % BigInt(n)));
      }),
    );
  });

  it('md5-int32 agrees with abs(int32 % N) computed in BigInt (seed 002 Java)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), bucketCount, (input, n) => {
        const hex = createHash('md5').update(Buffer.from(input, 'utf8')).digest('hex');
        const int32 = BigInt.asIntN(32, BigInt(`0x${hex.slice(0, 8)}`));
        const remainder = int32 % BigInt(n);
        expect(resolveSaltHash('P', 'md5-int32', n).bucketOf(input)).toBe(
          Number(remainder < 0n ? -remainder : remainder),
        );
      }),
    );
  });

  it('javaStringHashCode agrees with a BigInt fold over UTF-16 units', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        expect(BigInt(javaStringHashCode(input))).toBe(independentJavaHash(input));
      }),
    );
  });

  it('floor-mod presets and custom hashes are never negative', () => {
    fc.assert(
      fc.property(fc.constantFrom(...nonNegativePresets), anyText, bucketCount, (preset, input, n) => {
        expect(resolveSaltHash('P', preset, n).bucketOf(input)).toBeGreaterThanOrEqual(0);
      }),
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), bucketCount, (value, n) => {
        const bucket = resolveSaltHash('P', () => value, n).bucketOf('x');
        expect(bucket >= 0 && bucket < n && Object.is(bucket, bucket + 0)).toBe(true);
        expect((BigInt(value) - BigInt(bucket)) % BigInt(n)).toBe(0n);
      }),
    );
  });

  it('the signed preset keeps the sign of the hash and agrees with the floor-mod preset modulo N', () => {
    fc.assert(
      fc.property(anyText, bucketCount, (input, n) => {
        const signed = resolveSaltHash('P', 'java-string-hashcode-signed', n).bucketOf(input);
        const floor = resolveSaltHash('P', 'java-string-hashcode', n).bucketOf(input);
        const hash = javaStringHashCode(input);
        expect(signed === 0 || Math.sign(signed) === Math.sign(hash)).toBe(true);
        expect(Math.abs(signed)).toBeLessThan(n);
        expect(signed < 0 ? signed + n : signed).toBe(floor);
      }),
    );
  });
});
