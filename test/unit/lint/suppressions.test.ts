import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import type { EntityOptions } from '../../../src/model/declarations.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { lintEntity } from '../../../src/tools.js';
import { MetadataError } from '../../../src/errors/errors.js';

function entityWith(lint: unknown) {
  @Entity({ table: 't', lint } as EntityOptions)
  @Family('audit')
  class Ledger {
    @KeyPart(0, { type: 'string' }) account!: string;
    @KeyPart(1, { type: 'string' }) entry!: string;
  }
  return Ledger;
}

const codesOf = (lint: unknown) => lintEntity(entityWith(lint)).map((f) => `${f.code}:${f.property ?? f.family}`);

describe('lint suppressions', () => {
  it('without any, every finding is reported', () => {
    expect(codesOf(undefined)).toEqual([
      'unbounded-string-key:account',
      'unbounded-string-key:entry',
      'no-gc-rule:audit',
    ]);
  });

  it('a reason for a rule suppresses it on the whole entity; one per name only there', () => {
    expect(codesOf({ ignore: { 'no-gc-rule': 'ledger entries are kept forever by law' } })).toEqual([
      'unbounded-string-key:account',
      'unbounded-string-key:entry',
    ]);
    expect(codesOf({ ignore: { 'unbounded-string-key': { entry: 'entry ids are UUIDs' } } })).toEqual([
      'unbounded-string-key:account',
      'no-gc-rule:audit',
    ]);
  });

  it('includeSuppressed returns them too, with the reason', () => {
    const findings = lintEntity(entityWith({ ignore: { 'no-gc-rule': 'kept forever by law' } }), {
      includeSuppressed: true,
    });
    expect(findings.find((f) => f.code === 'no-gc-rule')).toMatchObject({ suppressed: 'kept forever by law' });
  });

  it('reports a suppression that matches nothing, so stale ones do not pile up', () => {
    const findings = lintEntity(
      entityWith({ ignore: { 'leading-timestamp': 'not a time key', 'no-gc-rule': 'kept forever' } }),
    );
    expect(findings.filter((f) => f.code === 'unused-suppression')).toMatchObject([
      {
        severity: 'info',
        message: "Ledger: lint.ignore suppresses 'leading-timestamp', but the rule finds nothing there",
      },
    ]);
  });

  it('needs a reason: an empty or blank one is a MetadataError at compile time', () => {
    for (const reason of ['', '   ', 42, null]) {
      expect(() => compileEntity(entityWith({ ignore: { 'no-gc-rule': reason } })), String(reason)).toThrow(
        MetadataError,
      );
    }
    expect(() => compileEntity(entityWith({ ignore: { 'no-gc-rule': '' } }))).toThrow(
      "Ledger: @Entity lint.ignore['no-gc-rule'] has no reason",
    );
    expect(() => compileEntity(entityWith({ ignore: { 'unbounded-string-key': { entry: ' ' } } }))).toThrow(
      'Ledger.entry:',
    );
  });

  it('rejects unknown rules, unknown names and malformed options', () => {
    const bad = [
      { ignore: { 'leading-timestmp': 'typo' } },
      { ignore: { 'no-gc-rule': { nope: 'no such family' } } },
      { ignore: { 'no-gc-rule': {} } },
      { ignore: ['no-gc-rule'] },
      { ignores: {} },
      'no-gc-rule',
    ];
    for (const lint of bad) expect(() => compileEntity(entityWith(lint)), JSON.stringify(lint)).toThrow(MetadataError);
  });

  it('are compiled onto the frozen schema in rule order', () => {
    const schema = compileEntity(
      entityWith({ ignore: { 'no-gc-rule': 'kept', 'unbounded-string-key': { account: 'IBANs: 34 characters' } } }),
    );
    expect(schema.lintSuppressions).toEqual([
      { rule: 'unbounded-string-key', target: 'account', reason: 'IBANs: 34 characters' },
      { rule: 'no-gc-rule', target: undefined, reason: 'kept' },
    ]);
    expect(Object.isFrozen(schema.lintSuppressions)).toBe(true);
  });
});
