import { describe, expect, it } from 'vitest';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { MetadataError } from '../../../src/errors/errors.js';
import type { SaltOptions } from '../../../src/model/declarations.js';
import { keyComponents } from './salt-fixtures.js';

const postKey = keyComponents('userId', 'site', 'ts:timestamp');
const eventKey = keyComponents('=event', 'source', '=at', 'ts:timestamp', 'seq:uint');

function compilePost(options: Record<string, unknown>) {
  return () => compileSalt('Post', { buckets: 4, ...options } as SaltOptions, postKey, '-');
}

describe('compileSalt defaults', () => {
  it('hashes the whole key with md5 into zero-padded two-digit buckets after the key separator', () => {
    const salt = compileSalt('Post', { buckets: 8 }, postKey, '#');
    expect(salt).toMatchObject({
      buckets: 8,
      on: ['userId', 'site', 'ts'],
      prefixLength: 3,
      hash: 'md5',
      width: 2,
      separator: '#',
      since: undefined,
    });
    expect(salt.allBuckets).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Object.isFrozen(salt)).toBe(true);
    expect(Object.isFrozen(salt.on)).toBe(true);
  });

  it('widens the default to the digits of buckets - 1', () => {
    expect(compileSalt('Post', { buckets: 101 }, postKey, '#').width).toBe(3);
    expect(compileSalt('Post', { buckets: 100 }, postKey, '#').width).toBe(2);
    expect(compileSalt('Post', { buckets: 1 }, postKey, '#').width).toBe(2);
  });

  it('lets format set the width (a minimum, 1 = unpadded like seed 003) and the separator', () => {
    const salt = compileSalt(
      'Post',
      { buckets: 100, hash: 'java-string-hashcode-signed', format: { width: 1, separator: '-' } },
      postKey,
      '#',
    );
    expect(salt).toMatchObject({ width: 1, separator: '-', hash: 'java-string-hashcode-signed' });
    expect(salt.allBuckets).toHaveLength(199);
    expect(compileSalt('Post', { buckets: 4, format: { separator: '::' } }, postKey, '#').separator).toBe('::');
  });

  it('records a custom hash as custom', () => {
    expect(compileSalt('Post', { buckets: 4, hash: (s) => s.length }, postKey, '#').hash).toBe('custom');
  });
});

describe('compileSalt on', () => {
  it('spans the leading run of named properties, literals included', () => {
    expect(compileSalt('Event', { buckets: 4, on: ['source'] }, eventKey, '#')).toMatchObject({
      on: ['source'],
      prefixLength: 2,
    });
    expect(compileSalt('Event', { buckets: 4, on: ['source', 'ts'] }, eventKey, '#')).toMatchObject({
      on: ['source', 'ts'],
      prefixLength: 4,
    });
    expect(compileSalt('Event', { buckets: 4 }, eventKey, '#')).toMatchObject({
      on: ['source', 'ts', 'seq'],
      prefixLength: 5,
    });
  });

  it('accepts the names in any order and stores them in key order', () => {
    expect(compileSalt('Post', { buckets: 4, on: ['site', 'userId'] }, postKey, '-').on).toEqual(['userId', 'site']);
  });

  it('orders components by position', () => {
    const shuffled = [...keyComponents('userId', 'site', 'ts:timestamp')].reverse();
    expect(compileSalt('Post', { buckets: 4, on: ['userId'] }, shuffled, '-').prefixLength).toBe(1);
  });

  it.each([
    [
      { on: [] },
      /^Post: @Salt on must be a non-empty array of key property names, got \[\]\. Fix: list leading key properties/,
    ],
    [{ on: 'userId' }, /@Salt on must be a non-empty array/],
    [
      { on: ['nope'] },
      /^Post\.nope: @Salt on lists "nope", which is not a key part\. Fix: list key properties only \(userId, site, ts\)/,
    ],
    [{ on: ['userId', 'userId'] }, /^Post\.userId: @Salt on lists "userId" twice/],
    [{ on: [7] }, /@Salt on lists 7, which is not a property name/],
    [
      { on: ['site'] },
      /@Salt on \['site'\] is not a leading run of the key properties \(userId, site, ts\).*Fix: use on: \['userId'\] or \['userId', 'site'\] or \['userId', 'site', 'ts'\]/,
    ],
    [{ on: ['userId', 'ts'] }, /not a leading run/],
  ])('rejects %j', (options, message) => {
    expect(compilePost(options)).toThrow(MetadataError);
    expect(compilePost(options)).toThrow(message);
  });

  it('rejects a literal key part', () => {
    const call = () => compileSalt('Event', { buckets: 4, on: ['event'] }, eventKey, '#');
    expect(call).toThrow(MetadataError);
    expect(call).toThrow(/^Event: @Salt on lists "event", which is a literal key part\. Fix: list key properties only/);
  });

  it('rejects a key without properties', () => {
    expect(() => compileSalt('Fixed', { buckets: 4 }, keyComponents('=a'), '#')).toThrow(
      /Fixed: @Salt needs a key property to hash/,
    );
  });
});

describe('compileSalt validation', () => {
  it.each([
    [{ buckets: 0 }, /^Post: @Salt buckets must be an integer from 1 to 1000, got 0/],
    [{ buckets: 1001 }, /buckets must be an integer from 1 to 1000, got 1001/],
    [{ buckets: 2.5 }, /got 2\.5/],
    [{ hash: 'crc32' }, /^Post: @Salt hash "crc32" is not a known preset/],
    [
      { format: { width: 0 } },
      /^Post: @Salt format\.width must be an integer from 1 to 16, got 0\. Fix: omit it for the default of 2 digits/,
    ],
    [{ format: { width: 1.5 } }, /format\.width must be an integer/],
    [{ format: { width: 17 } }, /format\.width must be an integer/],
    [{ format: { separator: '' } }, /@Salt format\.separator must be a non-empty string/],
    [{ format: { separator: '%' } }, /without '%'/],
    [{ format: { separator: '0x' } }, /does not start with a digit, got "0x"/],
    [{ format: 'wide' }, /@Salt format must be an object/],
    [{ format: { widht: 2 } }, /@Salt format has unknown option "widht"\. Fix: use only width, separator/],
    [{ bucket: 4 }, /@Salt has unknown option "bucket"/],
  ])('rejects %j', (options, message) => {
    expect(compilePost(options)).toThrow(MetadataError);
    expect(compilePost(options)).toThrow(message);
  });

  it('rejects a non-object', () => {
    expect(() => compileSalt('Post', 8 as unknown as SaltOptions, postKey, '-')).toThrow(
      /Post: @Salt needs an options object, got 8/,
    );
  });
});

describe('compileSalt since', () => {
  const from = new Date('2024-06-01T00:00:00.000Z');

  it('records the timestamp component, its position and a copy of the cutoff', () => {
    const cutoff = new Date(from);
    const salt = compileSalt(
      'Post',
      { buckets: 4, on: ['userId', 'site'], since: { component: 'ts', from: cutoff } },
      postKey,
      '-',
    );
    expect(salt.since).toEqual({ component: 'ts', position: 2, from });
    cutoff.setUTCFullYear(1999);
    expect(salt.since?.from.toISOString()).toBe('2024-06-01T00:00:00.000Z');
  });

  it.each([
    [
      { component: 'when', from },
      /^Post: @Salt since\.component "when" is not a key property\. Fix: use since: \{ component: 'ts'/,
    ],
    [{ component: 'site', from }, /^Post\.site: @Salt since\.component is a string key part, not a timestamp/],
    [
      { component: 'ts', from: new Date('nope') },
      /^Post\.ts: @Salt since\.from must be a valid Date, got Invalid Date/,
    ],
    [{ component: 'ts', from: '2024-06-01' }, /since\.from must be a valid Date, got "2024-06-01"/],
    [{ component: 'ts', from, until: from }, /@Salt since has unknown option "until"/],
    ['ts', /@Salt since must be \{ component, from \}/],
  ])('rejects %j', (since, message) => {
    expect(compilePost({ since })).toThrow(MetadataError);
    expect(compilePost({ since })).toThrow(message);
  });

  it('says to add a timestamp key part when there is none', () => {
    const key = keyComponents('id');
    expect(() => compileSalt('Tag', { buckets: 2, since: { component: 'id', from } }, key, '#')).toThrow(
      /Fix: add a timestamp @KeyPart, or remove since/,
    );
  });
});
