import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { lintEntity } from '../../../src/lint/lint-entity.js';
import { propagationFullScan } from '../../../src/lint/denormalized-rules.js';
import { noGcRule, tooManyFamilies, versionsExceedFamily } from '../../../src/lint/family-rules.js';
import { keyTooLong, leadingTimestamp, unboundedStringKey } from '../../../src/lint/key-rules.js';
import { javaHashcodeMultipleOf31, javaHashcodePowerOfTwo, saltFewValues } from '../../../src/lint/salt-rules.js';

const rules = [
  leadingTimestamp,
  saltFewValues,
  javaHashcodePowerOfTwo,
  javaHashcodeMultipleOf31,
  unboundedStringKey,
  keyTooLong,
  noGcRule,
  versionsExceedFamily,
  tooManyFamilies,
  propagationFullScan,
];

describe('lint principles', () => {
  it.each(rules.map((r) => [r.id, r.principle]))(
    '%s names its principle first and explains it, without pointing at sources a user never saw',
    (_, principle) => {
      expect(principle).toMatch(/^[A-Z][^:.]{3,60}: \S/);
      expect(principle).not.toMatch(/\bseeds?\b/i);
    },
  );

  it('names the principle behind salting, and says the evenness bound without a source', () => {
    expect(saltFewValues.principle).toMatch(/hash-salted buckets/i);
    @Entity({ table: 't' })
    @KeyPart(0, { literal: 'event' })
    @Salt({ buckets: 8, on: ['kind'] })
    @Family('d', { gc: { maxVersions: 1 } })
    class Few {
      @KeyPart(1, { type: 'uint', width: 1 }) kind!: number;
      @KeyPart(2, { type: 'string', maxLength: 8 }) id!: string;
    }
    const [finding] = lintEntity(Few);
    expect(finding?.code).toBe('salt-few-values');
    expect(finding?.message).not.toMatch(/\bseeds?\b/i);
    expect(finding?.message).toMatch(/under 1\.5 is good enough/);
  });
});
