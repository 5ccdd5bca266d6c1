import { describe, expect, it } from 'vitest';
import { compileSalt } from '../../../src/metadata/compile-salt.js';
import { md5Bucket } from '../../../src/codec/hash-presets.js';
import {
  bucketCounts,
  bucketText,
  evenness,
  parseSaltSegment,
  saltInput,
  saltSegment,
  scanSegments,
} from '../../../src/key/salt.js';
import { ValidationError } from '../../../src/errors/errors.js';
import { keyComponents } from './salt-fixtures.js';

const postKey = keyComponents('userId', 'site', 'ts:timestamp');
const eventKey = keyComponents('=event', 'source', 'ts:timestamp');
const whole = compileSalt('Event', { buckets: 10 }, eventKey, '#');
const partial = compileSalt('Post', { buckets: 4, on: ['userId', 'site'] }, postKey, '-');
const seed003 = compileSalt(
  'Post',
  { buckets: 4, hash: 'java-string-hashcode-signed', format: { width: 1, separator: '-' } },
  postKey,
  '-',
);
const from = new Date('2024-06-01T00:00:00.000Z');
const migrating = compileSalt(
  'Post',
  { buckets: 4, on: ['userId', 'site'], since: { component: 'ts', from } },
  postKey,
  '-',
);

describe('saltInput', () => {
  it('joins the leading components, literals included, without a trailing separator', () => {
    expect(saltInput(whole, ['event', 'web', '2026-02-17T10:00:01'], '#')).toBe('event#web#2026-02-17T10:00:01');
    expect(saltInput(partial, ['user42', 'web', '1719223200'], '-')).toBe('user42-web');
  });

  it('rejects too few components, naming the salted properties', () => {
    const call = () => saltInput(partial, ['user42'], '-', 'Post');
    expect(call).toThrow(ValidationError);
    expect(call).toThrow(
      /^Post: the salt bucket is computed from userId, site, but only 1 of the 2 leading key components were given\. Fix:/,
    );
  });
});

describe('bucketText', () => {
  it('zero-pads to the width and appends the separator', () => {
    expect(bucketText(whole, 7)).toBe('07#');
    expect(bucketText(compileSalt('E', { buckets: 1000 }, eventKey, '#'), 7)).toBe('007#');
    expect(bucketText(compileSalt('E', { buckets: 16, format: { width: 1 } }, eventKey, '#'), 15)).toBe('15#');
  });

  it('prefixes negative buckets of the signed preset with a minus', () => {
    expect(bucketText(seed003, -3)).toBe('-3-');
    expect(bucketText(seed003, 3)).toBe('3-');
    const padded = compileSalt('Post', { buckets: 4, hash: 'java-string-hashcode-signed' }, postKey, '#');
    expect(bucketText(padded, -3)).toBe('-03#');
  });

  it.each([10, -1, 1.5, Number.NaN])('rejects bucket %s outside allBuckets', (bucket) => {
    expect(() => bucketText(whole, bucket)).toThrow(ValidationError);
    expect(() => bucketText(whole, bucket)).toThrow(/is not one of 0\.\.9/);
  });
});

describe('saltSegment', () => {
  it('is the bucket text of the md5 of the logical key', () => {
    const parts = ['event', 'web', '2026-02-17T10:00:01'];
    expect(saltSegment(whole, parts, '#')).toBe(`0${md5Bucket('event#web#2026-02-17T10:00:01', 10)}#`);
  });

  it('writes negative prefixes for the signed preset, like seed 003', () => {
    expect(saltSegment(seed003, ['user42', 'web', '1719223200'], '-')).toBe('-2-');
  });

  it('leaves rows before the since cutoff unsalted and salts rows at or after it', () => {
    const parts = ['user42', 'web', '2024-05-31T23:59:59.999Z'];
    expect(saltSegment(migrating, parts, '-', new Date('2024-05-31T23:59:59.999Z'))).toBe('');
    expect(saltSegment(migrating, parts, '-', from)).toBe(saltSegment(partial, parts, '-'));
    expect(saltSegment(migrating, parts, '-', new Date('2030-01-01T00:00:00Z'))).toMatch(/^0\d-$/);
  });

  it.each([undefined, new Date('nope')])(
    'rejects a missing or invalid since value (%s), naming Entity.component',
    (value) => {
      const call = () => saltSegment(migrating, ['user42', 'web', 'x'], '-', value, 'Post');
      expect(call).toThrow(ValidationError);
      expect(call).toThrow(
        /^Post\.ts: .* is not a valid Date, and @Salt since needs it .*Fix: pass ts as a valid Date\./,
      );
    },
  );

  it('ignores the since value when since is not declared', () => {
    expect(saltSegment(partial, ['u', 's', 't'], '-')).toBe(saltSegment(partial, ['u', 's', 't'], '-', new Date(0)));
  });
});

describe('parseSaltSegment', () => {
  it('round-trips the salt segment of a key', () => {
    const parts = ['event', 'web', '2026-02-17T10:00:01'];
    const physical = saltSegment(whole, parts, '#') + parts.join('#');
    expect(parseSaltSegment(whole, physical)).toEqual({
      bucket: whole.bucketOf(parts.join('#')),
      rest: 'event#web#2026-02-17T10:00:01',
    });
    expect(parseSaltSegment(seed003, '-3-user42-web-1')).toEqual({ bucket: -3, rest: 'user42-web-1' });
    expect(parseSaltSegment(seed003, '3-')).toEqual({ bucket: 3, rest: '' });
  });

  it.each(['event#web', '7#event', '007#event', '10#event', '-1#event', '07event', '', '#07'])(
    'rejects %j for width 2, 10 buckets',
    (text) => {
      expect(parseSaltSegment(whole, text)).toBeUndefined();
    },
  );

  it.each(['-0-x', '04-x', '-4-x', '--1-x', '4x'])('rejects %j for the signed preset with 4 buckets', (text) => {
    expect(parseSaltSegment(seed003, text)).toBeUndefined();
  });
});

describe('scanSegments', () => {
  it('prunes to one bucket when the salted components are fixed', () => {
    expect(scanSegments(partial, ['user42', 'web'], '-')).toEqual(['01-']);
    expect(scanSegments(partial, ['user42', 'web', '1719223200'], '-')).toHaveLength(1);
    expect(
      scanSegments(compileSalt('E', { buckets: 8, on: ['source'] }, eventKey, '#'), ['event', 'web'], '#'),
    ).toHaveLength(1);
  });

  it('fans out to every bucket otherwise', () => {
    expect(scanSegments(partial, ['user42'], '-')).toEqual(['00-', '01-', '02-', '03-']);
    expect(scanSegments(whole, ['event', 'web'], '#')).toHaveLength(10);
    expect(scanSegments(whole, [], '#')).toHaveLength(10);
  });

  it('covers all 2N-1 prefixes of the signed preset', () => {
    expect(scanSegments(seed003, ['user42'], '-')).toEqual(['-3-', '-2-', '-1-', '0-', '1-', '2-', '3-']);
  });
});

describe('bucketCounts and evenness', () => {
  it('counts every bucket, empty ones as 0', () => {
    const counts = bucketCounts(seed003, ['a', 'b']);
    expect(counts.size).toBe(7);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(2);
    expect(evenness(counts).ratio).toBe(Infinity);
  });

  it('spreads sequential keys evenly over md5 buckets', () => {
    const inputs = Array.from(
      { length: 10_000 },
      (_, i) => `event#web-server#2026-02-17T10:00:${String(i).padStart(6, '0')}`,
    );
    const result = evenness(bucketCounts(whole, inputs));
    expect(result.min).toBeGreaterThan(0);
    expect(result.ratio).toBeLessThan(1.5);
  });

  it('computes min, max and max/min', () => {
    expect(
      evenness(
        new Map([
          [0, 10],
          [1, 12],
        ]),
      ),
    ).toEqual({ min: 10, max: 12, ratio: 1.2 });
    expect(() => evenness(new Map())).toThrow(ValidationError);
  });
});
