import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { SALT_HASH_PRESETS } from '../../../src/codec/hash-presets.js';
import { bucketText, parseSaltSegment, saltSegment, scanSegments } from '../../../src/key/salt.js';
import { keyComponents } from './salt-fixtures.js';

const saltArb = fc
  .record({
    buckets: fc.integer({ min: 1, max: 1000 }),
    hash: fc.constantFrom(...SALT_HASH_PRESETS),
    width: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    separator: fc.constantFrom('#', '-', '_', ':', '::', '|'),
  })
  .map(({ buckets, hash, width, separator }) =>
    compileSalt('Prop', { buckets, hash, format: { width, separator } }, keyComponents('id', 'ts:timestamp'), '#'),
  );

describe('salt segment properties', () => {
  it('parseSaltSegment(bucketText(b) + rest) returns b and rest for every bucket', () => {
    fc.assert(
      fc.property(saltArb, fc.string({ unit: 'binary', maxLength: 30 }), (salt, rest) => {
        const wrong = salt.allBuckets.filter((bucket) => {
          const parsed = parseSaltSegment(salt, bucketText(salt, bucket) + rest);
          return parsed?.bucket !== bucket || parsed.rest !== rest;
        });
        expect(wrong).toEqual([]);
      }),
    );
  });

  it('a salted key parses back to its logical key, and its bucket is the one a pruned scan visits', () => {
    fc.assert(
      fc.property(
        saltArb,
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 10 }),
        (salt, id, ts) => {
          const parts = [id, ts];
          const segment = saltSegment(salt, parts, '#');
          expect(salt.allBuckets).toContain(parseSaltSegment(salt, segment + parts.join('#'))?.bucket);
          expect(parseSaltSegment(salt, segment + parts.join('#'))?.rest).toBe(parts.join('#'));
          expect(scanSegments(salt, parts, '#')).toEqual([segment]);
          expect(scanSegments(salt, [id], '#')).toHaveLength(salt.allBuckets.length);
        },
      ),
    );
  });
});
