import { describe, expect, it } from 'vitest';
import { MetadataError } from '../../../src/errors/index.js';
import type { Duration, GcPolicy } from '../../../src/model/declarations.js';
import { formatDuration, parseDuration } from '../../../src/metadata/gc-rule.js';
import { describeGcRule, gcRuleFromPolicy, gcRulesEqual } from '../../../src/metadata/gc-rule.js';
import type { GcRule } from '../../../src/model/gc-rule.js';

const v = (count: number): GcRule => ({ kind: 'maxVersions', count });
const a = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });
const union = (...rules: GcRule[]): GcRule => ({ kind: 'union', rules });
const inter = (...rules: GcRule[]): GcRule => ({ kind: 'intersection', rules });

function metadataError(fn: () => unknown): MetadataError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MetadataError);
    return err as MetadataError;
  }
  throw new Error('expected a MetadataError');
}

describe('parseDuration', () => {
  it.each([
    ['30d', 30 * 86_400],
    ['12h', 12 * 3_600],
    ['15m', 900],
    ['90s', 90],
    [1, 1],
    [3_600, 3_600],
  ] as [Duration, number][])('%s → %d seconds', (input, seconds) => {
    expect(parseDuration('Reading', 'm', input)).toBe(seconds);
  });

  it.each([
    0,
    -5,
    1.5,
    Number.NaN,
    Infinity,
    '0d',
    '-1d',
    '1.5h',
    '10',
    '10w',
    ' 1d',
    '1D',
    '',
    '01d',
    400_000_000_000,
  ])('rejects %s naming the entity and the family', (input) => {
    const err = metadataError(() => parseDuration('Reading', 'measurements', input as Duration));
    expect(err.message).toContain('Reading');
    expect(err.message).toContain("@Family('measurements')");
    expect(err.message).toContain('Fix:');
  });

  it('rejects non-string, non-number values', () => {
    expect(() => parseDuration('Reading', 'm', { d: 1 } as unknown as Duration)).toThrow(MetadataError);
  });
});

describe('formatDuration', () => {
  it('uses the largest exact unit', () => {
    expect([86_400 * 30, 3_600, 5_400, 90, 1.5].map(formatDuration)).toEqual(['30d', '1h', '90m', '90s', '1.5s']);
  });
});

describe('gcRuleFromPolicy', () => {
  const from = (policy: unknown): GcRule | undefined => gcRuleFromPolicy('Reading', 'm', policy as GcPolicy);

  it('returns undefined without a policy or with an empty one', () => {
    expect(from(undefined)).toBeUndefined();
    expect(from({})).toBeUndefined();
  });

  it('maps single rules', () => {
    expect(from({ maxVersions: 5 })).toEqual(v(5));
    expect(from({ maxAge: '1d' })).toEqual(a(86_400));
  });

  it('combines both as a union by default, maxVersions first', () => {
    expect(from({ maxAge: '1d', maxVersions: 2 })).toEqual(union(v(2), a(86_400)));
    expect(from({ maxVersions: 2, maxAge: 60, mode: 'union' })).toEqual(union(v(2), a(60)));
  });

  it('combines both as an intersection on request', () => {
    expect(from({ maxVersions: 2, maxAge: 60, mode: 'intersection' })).toEqual(inter(v(2), a(60)));
  });

  it.each([
    [{ maxVersions: 0 }, 'maxVersions'],
    [{ maxVersions: 1.5 }, 'maxVersions'],
    [{ maxVersions: '3' }, 'maxVersions'],
    [{ maxVersions: 2 ** 31 }, 'maxVersions'],
    [{ maxAge: '3 days' }, 'maxAge'],
    [{ maxVersions: 1, mode: 'union' }, 'pointless'],
    [{ maxAge: '1d', mode: 'intersection' }, 'pointless'],
    [{ mode: 'union' }, 'pointless'],
    [{ maxVersions: 1, maxAge: 1, mode: 'both' }, 'mode'],
    [{ maxVersion: 1 }, 'unknown option(s) maxVersion'],
    [null, 'not an object'],
    [5, 'not an object'],
    [[], 'not an object'],
  ])('rejects %j (%s)', (policy, fragment) => {
    const err = metadataError(() => from(policy));
    expect(err.message).toContain("Reading: @Family('m')");
    expect(err.message).toContain(fragment);
    expect(err.entity).toBe('Reading');
  });
});

describe('gcRulesEqual', () => {
  it('compares structurally', () => {
    expect(gcRulesEqual(undefined, undefined)).toBe(true);
    expect(gcRulesEqual(v(1), v(1))).toBe(true);
    expect(gcRulesEqual(v(1), v(2))).toBe(false);
    expect(gcRulesEqual(a(60), v(60))).toBe(false);
    expect(gcRulesEqual(v(1), undefined)).toBe(false);
    expect(gcRulesEqual(union(v(1), a(60)), inter(v(1), a(60)))).toBe(false);
  });

  it('ignores member order within unions and intersections', () => {
    expect(gcRulesEqual(union(v(1), a(60)), union(a(60), v(1)))).toBe(true);
    expect(gcRulesEqual(inter(v(1), union(a(1), v(2))), inter(union(v(2), a(1)), v(1)))).toBe(true);
  });

  it('flattens same-kind nesting and one-member groups', () => {
    expect(gcRulesEqual(union(v(3), union(a(60), v(1))), union(a(60), v(1), v(3)))).toBe(true);
    expect(gcRulesEqual(union(v(3)), v(3))).toBe(true);
    expect(gcRulesEqual(union(v(3), inter(a(60), v(1))), union(v(3), a(60), v(1)))).toBe(false);
  });

  it('counts repeated members', () => {
    expect(gcRulesEqual(union(v(1), v(1), a(5)), union(v(1), a(5)))).toBe(false);
  });
});

describe('describeGcRule', () => {
  it('gives human text', () => {
    expect(describeGcRule(v(5))).toBe('max 5 versions');
    expect(describeGcRule(v(1))).toBe('max 1 version');
    expect(describeGcRule(a(30 * 86_400))).toBe('max age 30d');
    expect(describeGcRule(union(v(5), a(86_400)))).toBe('union(max 5 versions, max age 1d)');
    expect(describeGcRule(inter(v(2), a(90)))).toBe('intersection(max 2 versions, max age 90s)');
    expect(describeGcRule(undefined)).toBe('none');
  });
});
