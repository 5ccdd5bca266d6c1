import type { GcPolicy, Duration } from '../model/declarations.js';
import type { GcRule } from '../model/gc-rule.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';

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

const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;

/**
 * Largest max age a protobuf `Duration` can carry (10,000 years).
 */
const MAX_DURATION_SECONDS = 315_576_000_000;

/**
 * Parses a `@Family` GC `maxAge` into whole seconds. Accepts `'30d'`, `'12h'`,
 * `'15m'`, `'90s'` or a positive integer number of seconds.
 * @internal
 */
export function parseDuration(entity: string, family: string, value: Duration): number {
  const seconds = toSeconds(value);
  if (seconds === undefined || seconds <= 0 || seconds > MAX_DURATION_SECONDS) {
    throw new MetadataError(
      entity,
      undefined,
      `@Family('${family}') gc.maxAge ${preview(value)} is not a valid duration`,
      `use a positive whole number of seconds or a string such as '30d', '12h', '15m' or '90s' (at most ${MAX_DURATION_SECONDS} seconds)`,
    );
  }
  return seconds;
}

function toSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^([1-9][0-9]{0,11})([dhms])$/.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/**
 * Formats seconds with the largest unit that divides them exactly.
 * @internal
 */
export function formatDuration(seconds: number): string {
  if (Number.isInteger(seconds) && seconds > 0) {
    for (const unit of ['d', 'h', 'm'] as const) {
      if (seconds % UNIT_SECONDS[unit] === 0) return `${seconds / UNIT_SECONDS[unit]}${unit}`;
    }
  }
  return `${seconds}s`;
}
