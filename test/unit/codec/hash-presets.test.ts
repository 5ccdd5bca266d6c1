import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MetadataError, ValidationError } from '../../../src/errors/errors.js';
import { isSaltHashPreset, resolveSaltHash, SALT_HASH_PRESETS } from '../../../src/codec/hash-presets.js';
import {
  floorMod,
  javaRemainder,
  javaStringHashCode,
  javaStringHashSignedBucket,
} from '../../../src/codec/hash-presets.js';
import { md5Bucket, md5Digest, md5Int32Bucket } from '../../../src/codec/hash-presets.js';
import type { SaltHashPreset } from '../../../src/model/declarations.js';

describe('java hash helpers', () => {
  it('computes String.hashCode() over UTF-16 code units with int32 overflow', () => {
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('a')).toBe(97);
    expect(javaStringHashCode('Aa')).toBe(javaStringHashCode('BB'));
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
    expect(javaStringHashCode('😀')).toBe(0xd83d * 31 + 0xde00);
  });

  it('keeps the sign with javaRemainder and never returns -0', () => {
    expect(javaRemainder(-7, 4)).toBe(-3);
    expect(Object.is(javaRemainder(-8, 4), 0)).toBe(true);
    expect(Object.is(javaStringHashSignedBucket('row-3929', 10), 0)).toBe(true);
  });

  it('floorMod is never negative and never -0', () => {
    expect(floorMod(-7, 4)).toBe(1);
    expect(floorMod(7, 4)).toBe(3);
    expect(Object.is(floorMod(-8, 4), 0)).toBe(true);
  });
});

describe('md5 helpers', () => {
  it('hashes the UTF-8 bytes, a lone surrogate as U+FFFD', () => {
    const md5Of = (bytes: number[]) => createHash('md5').update(Buffer.from(bytes)).digest();
    expect(md5Digest('a').toString('hex')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(md5Digest('é').equals(md5Of([0xc3, 0xa9]))).toBe(true);
    expect(md5Digest('\ud800').equals(md5Of([0xef, 0xbf, 0xbd]))).toBe(true);
  });

  it('md5Int32Bucket is the absolute truncated remainder of the first 4 bytes', () => {
    // md5('') = d41d8cd9…: 0xd41d8cd9 as int32 is -736260903
    expect(md5Int32Bucket('', 10)).toBe(3);
    expect(md5Bucket('', 16)).toBe(0x7e % 16);
  });
});

describe('resolveSaltHash', () => {
  it('defaults to md5', () => {
    const hash = resolveSaltHash('Event', undefined, 10);
    expect(hash.name).toBe('md5');
    expect(hash.bucketOf('event#2026-02-17T10:00:01')).toBe(md5Bucket('event#2026-02-17T10:00:01', 10));
  });

  it('lists 0..N-1, or -(N-1)..N-1 for the signed preset', () => {
    for (const preset of SALT_HASH_PRESETS.filter((p) => p !== 'java-string-hashcode-signed')) {
      expect(resolveSaltHash('E', preset, 4).allBuckets).toEqual([0, 1, 2, 3]);
    }
    const signed = resolveSaltHash('E', 'java-string-hashcode-signed', 4);
    expect(signed.allBuckets).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(resolveSaltHash('E', 'java-string-hashcode-signed', 10).allBuckets).toHaveLength(19);
    expect(resolveSaltHash('E', 'java-string-hashcode-signed', 1).allBuckets).toEqual([0]);
    expect(signed.bucketOf('user42-web-1719223200')).toBe(-2);
    expect(Object.isFrozen(signed)).toBe(true);
    expect(Object.isFrozen(signed.allBuckets)).toBe(true);
  });

  it.each([0, -1, 1001, 2.5, Number.NaN, '8' as unknown as number])(
    'rejects buckets %s with a MetadataError',
    (buckets) => {
      expect(() => resolveSaltHash('Event', 'md5', buckets)).toThrow(MetadataError);
      expect(() => resolveSaltHash('Event', 'md5', buckets)).toThrow(
        /^Event: @Salt buckets must be an integer from 1 to 1000.*Fix:/,
      );
    },
  );

  it('accepts 1 and 1000 buckets', () => {
    expect(resolveSaltHash('E', 'md5', 1).bucketOf('x')).toBe(0);
    expect(resolveSaltHash('E', 'md5', 1000).allBuckets).toHaveLength(1000);
  });

  it('rejects an unknown preset, naming the presets', () => {
    const call = () => resolveSaltHash('Event', 'sha1' as SaltHashPreset, 8);
    expect(call).toThrow(MetadataError);
    expect(call).toThrow(/Event: @Salt hash "sha1" is not a known preset\. Fix: use one of 'md5', 'md5-int32'/);
  });

  it('maps a custom hash by floor modulo', () => {
    const hash = resolveSaltHash('Event', (s) => -s.length, 4);
    expect(hash.name).toBe('custom');
    expect(hash.allBuckets).toEqual([0, 1, 2, 3]);
    expect(hash.bucketOf('abc')).toBe(1);
    expect(Object.is(hash.bucketOf('abcd'), 0)).toBe(true);
  });

  it.each([1.5, Number.NaN, Infinity, 2 ** 53, '3', undefined])(
    'rejects a custom hash result %s at use, naming the entity',
    (value) => {
      const hash = resolveSaltHash('Event', () => value as number, 4);
      expect(() => hash.bucketOf('k1')).toThrow(ValidationError);
      expect(() => hash.bucketOf('k1')).toThrow(
        /^Event: the custom @Salt hash returned .* for "k1", not a safe integer\. Fix:/,
      );
    },
  );

  it('recognises preset names', () => {
    expect(isSaltHashPreset('md5-int32')).toBe(true);
    expect(isSaltHashPreset('MD5')).toBe(false);
    expect(isSaltHashPreset(undefined)).toBe(false);
  });
});
