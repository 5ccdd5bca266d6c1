import { Family } from '@google-cloud/bigtable/build/src/family.js';
import { describe, expect, it } from 'vitest';
import { SchemaSyncError, ValidationError } from '../../../src/errors/index.js';
import { fromClientGcRule, toClientGcRule } from '../../../src/driver/gc-rule-client.js';
import { gcRulesEqual } from '../../../src/metadata/gc-rule.js';
import type { ClientGcRuleMeta, ClientGcRuleOption } from '../../../src/driver/gc-rule-client.js';
import type { GcRule } from '../../../src/model/gc-rule.js';

const v = (count: number): GcRule => ({ kind: 'maxVersions', count });
const a = (seconds: number): GcRule => ({ kind: 'maxAge', seconds });
const union = (...rules: GcRule[]): GcRule => ({ kind: 'union', rules });
const inter = (...rules: GcRule[]): GcRule => ({ kind: 'intersection', rules });

/** The client's own write-side formatter (pure), which turns the `rule` option into the GcRule proto. */
function formatRule(option: ClientGcRuleOption): ClientGcRuleMeta {
  return Family.formatRule_(option) as ClientGcRuleMeta;
}

describe('toClientGcRule', () => {
  it('writes the client rule option', () => {
    expect(toClientGcRule(v(5))).toEqual({ versions: 5 });
    expect(toClientGcRule(a(3_600))).toEqual({ age: { seconds: 3_600, nanos: 0 } });
    expect(toClientGcRule(union(v(1), a(60)))).toEqual({ union: true, versions: 1, age: { seconds: 60, nanos: 0 } });
    expect(toClientGcRule(inter(v(1), a(60)))).toEqual({ versions: 1, age: { seconds: 60, nanos: 0 } });
    expect(toClientGcRule(a(1.5))).toEqual({ age: { seconds: 1, nanos: 500_000_000 } });
  });

  it('nests a group of the other kind and chains long groups', () => {
    expect(toClientGcRule(union(v(3), inter(a(60), v(1))))).toEqual({
      union: true,
      versions: 3,
      rule: { versions: 1, age: { seconds: 60, nanos: 0 } },
    });
    expect(toClientGcRule(union(a(1), a(2), a(3)))).toEqual({
      union: true,
      age: { seconds: 1, nanos: 0 },
      rule: { union: true, age: { seconds: 2, nanos: 0 }, rule: { age: { seconds: 3, nanos: 0 } } },
    });
  });

  it('unwraps one-member groups', () => {
    expect(toClientGcRule(union(v(2)))).toEqual({ versions: 2 });
  });

  it('refuses rules the option cannot express', () => {
    expect(() => toClientGcRule(union(inter(v(1), a(1)), inter(v(2), a(2))))).toThrow(ValidationError);
    expect(() => toClientGcRule(union())).toThrow(ValidationError);
  });

  it.each([
    v(5),
    a(3_600),
    a(1.5),
    union(v(5), a(86_400)),
    inter(v(5), a(86_400)),
    union(v(3), inter(a(60), v(1))),
    inter(a(60), union(v(1), a(5)), v(9)),
    union(a(1), a(2), v(3), v(4), inter(v(1), a(7))),
  ])('round-trips %j through the client shapes', (rule) => {
    const back = fromClientGcRule(formatRule(toClientGcRule(rule)));
    expect(gcRulesEqual(back, rule)).toBe(true);
  });
});

describe('fromClientGcRule', () => {
  it('reads the admin API shapes', () => {
    expect(fromClientGcRule(null)).toBeUndefined();
    expect(fromClientGcRule(undefined)).toBeUndefined();
    expect(fromClientGcRule({})).toBeUndefined();
    expect(fromClientGcRule({ maxNumVersions: 2, rule: 'maxNumVersions' })).toEqual(v(2));
    expect(fromClientGcRule({ maxAge: { seconds: '3600', nanos: 0 }, rule: 'maxAge' })).toEqual(a(3_600));
    expect(fromClientGcRule({ maxAge: { seconds: '1', nanos: 500_000_000 }, rule: 'maxAge' })).toEqual(a(1.5));
    expect(
      fromClientGcRule({
        union: {
          rules: [
            { maxAge: { seconds: '3600', nanos: 0 }, rule: 'maxAge' },
            { maxNumVersions: 1, rule: 'maxNumVersions' },
          ],
        },
        rule: 'union',
      }),
    ).toEqual(union(a(3_600), v(1)));
    expect(fromClientGcRule({ intersection: { rules: [{ maxNumVersions: 1 }, { maxAge: { seconds: 60 } }] } })).toEqual(
      inter(v(1), a(60)),
    );
  });

  it('accepts Long-like seconds and a missing discriminator', () => {
    expect(fromClientGcRule({ maxAge: { seconds: { toString: () => '86400' } } })).toEqual(a(86_400));
  });

  it('throws SchemaSyncError for an unknown rule kind', () => {
    expect(() => fromClientGcRule({ rule: 'maxSize' })).toThrow(SchemaSyncError);
  });
});
