import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import { LINT_RULE_IDS, type LintRuleId, type LintSuppression } from '../model/lint-rule.js';
import { DEFAULT_MAX_FAMILIES, noGcRule, tooManyFamilies, versionsExceedFamily } from './family-rules.js';
import { keyTooLong, leadingTimestamp, unboundedStringKey } from './key-rules.js';
import { propagationFullScan } from './denormalized-rules.js';
import type { LintFinding, LintOptions, LintRule } from './lint-finding.js';
import { javaHashcodeMultipleOf31, javaHashcodePowerOfTwo, saltFewValues } from './salt-rules.js';

/** Every rule by id (the `Record` makes the compiler check none is missing); run in `LINT_RULE_IDS` order. */
const RULES: Readonly<Record<LintRuleId, LintRule>> = {
  'leading-timestamp': leadingTimestamp,
  'salt-few-values': saltFewValues,
  'java-hashcode-power-of-two': javaHashcodePowerOfTwo,
  'java-hashcode-multiple-of-31': javaHashcodeMultipleOf31,
  'unbounded-string-key': unboundedStringKey,
  'key-too-long': keyTooLong,
  'no-gc-rule': noGcRule,
  'versions-exceed-family': versionsExceedFamily,
  'too-many-families': tooManyFamilies,
  'propagation-full-scan': propagationFullScan,
};

/** Most families `maxFamilies` may allow: Bigtable's hard limit per table. */
const MAX_FAMILIES_LIMIT = 1000;

/**
 * Checks an entity's key and family design against Bigtable's key-design
 * principles (docs/key-design-tools.md lists the rules): leading timestamps
 * without salt, salts over too few values, Java `hashCode` salts with bucket
 * counts that bunch, string key parts without `maxLength`, keys that can pass
 * 4 KiB, families without GC, versions a family does not keep, too many
 * families, `@Denormalized` copies whose propagation must scan the whole table. Returns plain JSON findings, empty when the design passes;
 * findings the entity suppresses with a reason (`@Entity({ lint: { ignore } })`)
 * are left out unless `includeSuppressed`. Pure: it reads only the compiled
 * schema.
 *
 * @example
 * ```ts
 * @Entity({ table: 'readings' })
 * @Family('m', { gc: { maxVersions: 1 } })
 * class Reading {
 *   @KeyPart(0, { type: 'timestamp' }) ts!: Date;
 *   @KeyPart(1, { type: 'string', maxLength: 64 }) sensorId!: string;
 * }
 * lintEntity(Reading).map((f) => f.code); // ['leading-timestamp']
 * ```
 */
export function lintEntity(entity: Constructor | EntitySchema, options: LintOptions = {}): LintFinding[] {
  const schema = typeof entity === 'function' ? compileEntity(entity) : entity;
  const maxFamilies = resolveMaxFamilies(options.maxFamilies);
  const findings: LintFinding[] = [];
  const used = new Set<LintSuppression>();
  for (const rule of LINT_RULE_IDS.map((id) => RULES[id])) {
    for (const draft of rule.check(schema, { maxFamilies })) {
      const full: LintFinding = {
        code: rule.id,
        severity: draft.severity,
        entity: schema.name,
        ...withTarget(draft),
        message: draft.message,
        principle: rule.principle,
        fix: draft.fix,
      };
      const suppression = suppressionOf(schema.lintSuppressions, rule.id, draft.property ?? draft.family);
      if (suppression === undefined) findings.push(full);
      else {
        used.add(suppression);
        if (options.includeSuppressed === true) findings.push({ ...full, suppressed: suppression.reason });
      }
    }
  }
  for (const s of schema.lintSuppressions) if (!used.has(s)) findings.push(unusedSuppression(schema.name, s));
  return findings;
}

/**
 * {@link lintEntity} of each entity, findings concatenated in entity order.
 *
 * @example
 * ```ts
 * const errors = lintEntities([Reading, Sensor]).filter((f) => f.severity === 'error');
 * if (errors.length > 0) process.exitCode = 1;
 * ```
 */
export function lintEntities(entities: Iterable<Constructor | EntitySchema>, options: LintOptions = {}): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const entity of entities) findings.push(...lintEntity(entity, options));
  return findings;
}

function resolveMaxFamilies(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_FAMILIES;
  if (!Number.isInteger(value) || value < 1 || value > MAX_FAMILIES_LIMIT) {
    throw new ValidationError(
      `lintEntity: maxFamilies ${preview(value)} is not an integer from 1 to ${MAX_FAMILIES_LIMIT}. ` +
        `Fix: leave it out for Bigtable's guidance of ${DEFAULT_MAX_FAMILIES}, or pass your team's limit.`,
      { maxFamilies: preview(value) },
    );
  }
  return value;
}

/** The draft's property or family, present only when set (findings stay minimal JSON). */
function withTarget(draft: { property?: string; family?: string }): { property?: string; family?: string } {
  return {
    ...(draft.property === undefined ? {} : { property: draft.property }),
    ...(draft.family === undefined ? {} : { family: draft.family }),
  };
}

/** The suppression of this rule for this target, else one for the whole entity. */
function suppressionOf(
  suppressions: readonly LintSuppression[],
  rule: LintRuleId,
  target: string | undefined,
): LintSuppression | undefined {
  return (
    suppressions.find((s) => s.rule === rule && s.target !== undefined && s.target === target) ??
    suppressions.find((s) => s.rule === rule && s.target === undefined)
  );
}

function unusedSuppression(entity: string, s: LintSuppression): LintFinding {
  const where = s.target === undefined ? `'${s.rule}'` : `'${s.rule}' on ${s.target}`;
  return {
    code: 'unused-suppression',
    severity: 'info',
    entity,
    ...(s.target === undefined ? {} : { property: s.target }),
    message: `${entity}: lint.ignore suppresses ${where}, but the rule finds nothing there`,
    principle: 'A suppression documents a known exception; one that matches nothing hides the next real finding.',
    fix: `remove ${where} from @Entity({ lint: { ignore } })`,
  };
}
