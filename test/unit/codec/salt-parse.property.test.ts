import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { SALT_HASH_PRESETS } from '../../../src/codec/hash-presets.js';
import { bucketText, parseSaltSegment } from '../../../src/key/salt.js';
import type { SaltSchema } from '../../../src/metadata/entity-schema.js';
import { keyComponents } from './salt-fixtures.js';
import { propertyRuns } from '../../support/property-runs.js';

/** `parseSaltSegment` as it was before it read the bucket while scanning: `Number` of the digits, then a `bucketText` round trip. */
function referenceParse(salt: SaltSchema, physicalKeyText: string): { bucket: number; rest: string } | undefined {
  const signed = (salt.allBuckets[0] ?? 0) < 0 && physicalKeyText.startsWith('-');
  const start = signed ? 1 : 0;
  let end = start;
  while (end < physicalKeyText.length && physicalKeyText.charCodeAt(end) >= 48 && physicalKeyText.charCodeAt(end) <= 57)
    end++;
  if (end === start || !physicalKeyText.startsWith(salt.separator, end)) return undefined;
  const magnitude = Number(physicalKeyText.slice(start, end));
  const bucket = signed ? -magnitude : magnitude;
  if (bucket < (salt.allBuckets[0] ?? 0) || bucket > salt.buckets - 1) return undefined;
  const segment = physicalKeyText.slice(0, end + salt.separator.length);
  if (bucketText(salt, bucket) !== segment) return undefined;
  return { bucket, rest: physicalKeyText.slice(segment.length) };
}

const saltArb = fc
  .record({
    buckets: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 1000 })),
    hash: fc.constantFrom(...SALT_HASH_PRESETS),
    width: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
    separator: fc.constantFrom('#', '-', '::', '|'),
  })
  .map(({ buckets, hash, width, separator }) =>
    compileSalt('Prop', { buckets, hash, format: { width, separator } }, keyComponents('id'), '#'),
  );

/** Key texts around the salt segment: canonical ones, padded or unpadded digits, `-0`, long digit runs, a missing separator. */
const textArb = (salt: SaltSchema): fc.Arbitrary<string> => {
  const rest = fc.string({ unit: fc.constantFrom('a', '0', '#', '-', ':', '|'), maxLength: 6 });
  const sign = fc.constantFrom('', '', '-', '+');
  const digits = fc.oneof(
    fc.integer({ min: 0, max: salt.buckets + 2 }).map(String),
    fc
      .tuple(fc.nat({ max: 18 }), fc.integer({ min: 0, max: salt.buckets + 2 }))
      .map(([zeros, n]) => '0'.repeat(zeros) + String(n)),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 22 }),
  );
  const separator = fc.constantFrom(salt.separator, salt.separator, '', '#', ':');
  return fc.oneof(
    fc.tuple(fc.constantFrom(...salt.allBuckets), rest).map(([bucket, r]) => bucketText(salt, bucket) + r),
    fc.tuple(sign, digits, separator, rest).map((parts) => parts.join('')),
  );
};

describe('parseSaltSegment (digits read while scanning)', () => {
  it('returns what the Number + bucketText round trip returns', () => {
    fc.assert(
      fc.property(
        saltArb.chain((salt) => fc.tuple(fc.constant(salt), textArb(salt))),
        ([salt, text]) => {
          expect(parseSaltSegment(salt, text)).toEqual(referenceParse(salt, text));
        },
      ),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('rejects non-canonical segments', () => {
    const salt = compileSalt('Prop', { buckets: 8 }, keyComponents('id'), '#');
    expect(parseSaltSegment(salt, '07#x')).toEqual({ bucket: 7, rest: 'x' });
    expect(parseSaltSegment(salt, '7#x')).toBeUndefined();
    expect(parseSaltSegment(salt, '007#x')).toBeUndefined();
    const wide = compileSalt('Prop', { buckets: 200, format: { width: 1 } }, keyComponents('id'), '#');
    expect(parseSaltSegment(wide, '0#x')).toEqual({ bucket: 0, rest: 'x' });
    expect(parseSaltSegment(wide, '00#x')).toBeUndefined();
    expect(parseSaltSegment(wide, '150#x')).toEqual({ bucket: 150, rest: 'x' });
    expect(parseSaltSegment(wide, '050#x')).toBeUndefined();
    const signed = compileSalt(
      'Prop',
      { buckets: 4, hash: 'java-string-hashcode-signed', format: { width: 1, separator: '-' } },
      keyComponents('id'),
      '#',
    );
    expect(parseSaltSegment(signed, '-3-x')).toEqual({ bucket: -3, rest: 'x' });
    expect(parseSaltSegment(signed, '-0-x')).toBeUndefined();
  });
});
