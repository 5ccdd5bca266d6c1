import type { GcPolicy } from '../model/declarations.js';
import type { GcRule } from '../model/gc-rule.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import { formatDuration, parseDuration } from './duration.js';

const POLICY_KEYS = new Set(['maxVersions', 'maxAge', 'mode']);
const MAX_VERSIONS_LIMIT = 2_147_483_647;

/**
 * Turns a `@Family` `gc` policy into a normalised {@link GcRule}. `maxVersions`
 * comes before `maxAge` so equal policies give structurally equal rules.
 * @internal
 */
export function gcRuleFromPolicy(entity: string, family: string, policy: GcPolicy | undefined): GcRule | undefined {
  if (policy === undefined) return undefined;
  const fail = (problem: string, fix: string): MetadataError =>
    new MetadataError(entity, undefined, `@Family('${family}') ${problem}`, fix);
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) {
    throw fail(
      `gc ${preview(policy)} is not an object`,
      'pass { maxVersions?, maxAge?, mode? }, e.g. { maxVersions: 5 }',
    );
  }
  const unknown = Object.keys(policy).filter((key) => !POLICY_KEYS.has(key));
  if (unknown.length > 0) {
    throw fail(`gc has unknown option(s) ${unknown.join(', ')}`, 'use only maxVersions, maxAge and mode');
  }
  const rules: GcRule[] = [];
  if (policy.maxVersions !== undefined) {
    const count = policy.maxVersions;
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_VERSIONS_LIMIT) {
      throw fail(
        `gc.maxVersions ${preview(count)} is not a positive integer`,
        'use a whole number of versions such as 1 or 5',
      );
    }
    rules.push({ kind: 'maxVersions', count });
  }
  if (policy.maxAge !== undefined)
    rules.push({ kind: 'maxAge', seconds: parseDuration(entity, family, policy.maxAge) });
  const mode = policy.mode;
  if (mode !== undefined && mode !== 'union' && mode !== 'intersection') {
    throw fail(
      `gc.mode ${preview(mode)} is not 'union' or 'intersection'`,
      "use mode: 'union' (the default) or 'intersection'",
    );
  }
  if (mode !== undefined && rules.length < 2) {
    throw fail(
      `gc.mode '${mode}' is pointless with ${rules.length === 0 ? 'no rule' : 'a single rule'}`,
      'remove mode, or set both maxVersions and maxAge',
    );
  }
  if (rules.length === 0) return undefined;
  if (rules.length === 1) return rules[0];
  return { kind: mode ?? 'union', rules };
}

/**
 * Canonical form: nested groups of the same kind flattened (union and
 * intersection are associative), one-member groups replaced by their member,
 * members sorted.
 * @internal
 */
export function gcRuleKey(rule: GcRule | undefined): string {
  if (rule === undefined) return 'none';
  switch (rule.kind) {
    case 'maxVersions':
      return `v${rule.count}`;
    case 'maxAge':
      return `a${rule.seconds}`;
    default: {
      const members = flatten(rule.kind, rule.rules).map(gcRuleKey).sort();
      return members.length === 1 ? (members[0] as string) : `${rule.kind}(${members.join(',')})`;
    }
  }
}

function flatten(kind: 'union' | 'intersection', rules: readonly GcRule[]): GcRule[] {
  return rules.flatMap((r) => (r.kind === kind ? flatten(kind, r.rules) : [r]));
}

/**
 * Structural equality, ignoring member order within a union or intersection
 * (and nesting of same-kind groups, which the client's write format introduces).
 * @internal
 */
export function gcRulesEqual(a: GcRule | undefined, b: GcRule | undefined): boolean {
  return gcRuleKey(a) === gcRuleKey(b);
}

/**
 * Human-readable text of a rule, for change descriptions and error messages.
 * @internal
 */
export function describeGcRule(rule: GcRule | undefined): string {
  if (rule === undefined) return 'none';
  switch (rule.kind) {
    case 'maxVersions':
      return `max ${rule.count} version${rule.count === 1 ? '' : 's'}`;
    case 'maxAge':
      return `max age ${formatDuration(rule.seconds)}`;
    default:
      return `${rule.kind}(${rule.rules.map(describeGcRule).join(', ')})`;
  }
}
