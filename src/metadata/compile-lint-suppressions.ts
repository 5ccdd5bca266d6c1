import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import { LINT_RULE_IDS, type LintRuleId, type LintSuppression } from '../model/lint-rule.js';

/**
 * Validates `@Entity({ lint: { ignore } })` and returns its suppressions in
 * rule order. Every reason must be non-empty text (an unexplained exception is
 * the thing a linter exists to prevent), every rule a known id and every
 * target one of `names` (the entity's key properties, columns, cell timestamp
 * and families). Throws `MetadataError` naming the entity and the fix.
 * @internal
 */
export function compileLintSuppressions(
  entity: string,
  lint: unknown,
  names: ReadonlySet<string>,
): readonly LintSuppression[] {
  if (lint === undefined) return Object.freeze([]);
  const fail = (problem: string, fix: string): MetadataError => new MetadataError(entity, undefined, problem, fix);
  const example = "write lint: { ignore: { 'no-gc-rule': 'why the rule does not apply' } }";
  if (!isPlainObject(lint)) throw fail(`@Entity lint must be an object, got ${preview(lint)}`, example);
  const unknownKey = Object.keys(lint).find((key) => key !== 'ignore');
  if (unknownKey !== undefined) throw fail(`@Entity lint has an unknown option ${preview(unknownKey)}`, example);
  const ignore = lint.ignore;
  if (ignore === undefined) return Object.freeze([]);
  if (!isPlainObject(ignore)) throw fail(`@Entity lint.ignore must be an object, got ${preview(ignore)}`, example);
  const suppressions: LintSuppression[] = [];
  for (const rule of Object.keys(ignore)) {
    if (!isRuleId(rule)) {
      throw fail(
        `@Entity lint.ignore names the unknown rule ${preview(rule)}`,
        `use one of ${LINT_RULE_IDS.map((id) => `'${id}'`).join(', ')}`,
      );
    }
    const value = ignore[rule];
    if (typeof value === 'string') {
      suppressions.push(
        Object.freeze({ rule, target: undefined, reason: checkReason(entity, rule, undefined, value) }),
      );
      continue;
    }
    if (!isPlainObject(value) || Object.keys(value).length === 0) {
      throw fail(
        `@Entity lint.ignore['${rule}'] must be a reason or { property or family: reason }, got ${preview(value)}`,
        `write '${rule}': 'why it does not apply', or '${rule}': { name: 'why' }`,
      );
    }
    for (const [target, reason] of Object.entries(value)) {
      if (!names.has(target)) {
        throw fail(
          `@Entity lint.ignore['${rule}'] names ${preview(target)}, which is not a key property, column or family of ${entity}`,
          `use one of ${[...names].map((n) => `'${n}'`).join(', ')}, or a plain reason for the whole entity`,
        );
      }
      suppressions.push(Object.freeze({ rule, target, reason: checkReason(entity, rule, target, reason) }));
    }
  }
  const order = (s: LintSuppression): number => LINT_RULE_IDS.indexOf(s.rule);
  return Object.freeze(suppressions.sort((a, b) => order(a) - order(b)));
}

function checkReason(entity: string, rule: LintRuleId, target: string | undefined, reason: unknown): string {
  if (typeof reason === 'string' && reason.trim() !== '') return reason.trim();
  const where = target === undefined ? `'${rule}'` : `'${rule}'.${target}`;
  throw new MetadataError(
    entity,
    target,
    `@Entity lint.ignore[${where}] has no reason (got ${preview(reason)})`,
    'say why the rule does not apply, e.g. "ids are random UUIDs, at most 36 characters"',
  );
}

function isRuleId(value: string): value is LintRuleId {
  return (LINT_RULE_IDS as readonly string[]).includes(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
