import type { GcRule } from '../model/gc-rule.js';
import { SchemaSyncError, ValidationError } from '../errors/errors.js';

/**
 * The `rule` option of `@google-cloud/bigtable` 7.x (`createTable` families,
 * `createFamily`, `family.setMetadata`). Without `union: true` the members form
 * an INTERSECTION; `rule` nests one more rule.
 *
 */
export interface ClientGcRuleOption {
  versions?: number;
  age?: { seconds: number; nanos: number };
  union?: boolean;
  rule?: ClientGcRuleOption;
}

/**
 * A `gcRule` as the admin API returns it (`table.getMetadata()` column
 * families): a protobuf object with a `rule` discriminator; `maxAge.seconds` is
 * a string; `null` means no rule.
 *
 */
export interface ClientGcRuleMeta {
  maxNumVersions?: number | null;
  maxAge?: { seconds?: number | string | { toString(): string } | null; nanos?: number | null } | null;
  union?: { rules?: ClientGcRuleMeta[] | null } | null;
  intersection?: { rules?: ClientGcRuleMeta[] | null } | null;
  rule?: string | null;
}

/**
 * Converts a rule to the client's `rule` option. The option holds at most one
 * `age`, one `versions` and one nested `rule` per level, so longer groups are
 * chained through same-kind nesting (equal under `gcRulesEqual`). Throws
 * `ValidationError` for a group holding two or more groups of the other kind,
 * which the option cannot express.
 *
 */
export function toClientGcRule(rule: GcRule): ClientGcRuleOption {
  switch (rule.kind) {
    case 'maxVersions':
      return { versions: rule.count };
    case 'maxAge':
      return { age: toDuration(rule.seconds) };
    default: {
      const members = membersOf(rule.kind, rule.rules);
      if (members.length === 1) return toClientGcRule(members[0] as GcRule);
      if (members.length === 0) throw unsupported(rule, 'it has no member rules');
      return group(rule, rule.kind, members);
    }
  }
}

function membersOf(kind: 'union' | 'intersection', rules: readonly GcRule[]): GcRule[] {
  return rules.flatMap((r) => {
    let member = r;
    while ((member.kind === 'union' || member.kind === 'intersection') && member.rules.length === 1)
      member = member.rules[0] as GcRule;
    return member.kind === kind ? membersOf(kind, member.rules) : [member];
  });
}

function group(whole: GcRule, kind: 'union' | 'intersection', members: readonly GcRule[]): ClientGcRuleOption {
  const out: ClientGcRuleOption = kind === 'union' ? { union: true } : {};
  const rest = [...members];
  const versions = rest.findIndex((r) => r.kind === 'maxVersions');
  if (versions >= 0) out.versions = (rest.splice(versions, 1)[0] as { count: number }).count;
  const age = rest.findIndex((r) => r.kind === 'maxAge');
  if (age >= 0) out.age = toDuration((rest.splice(age, 1)[0] as { seconds: number }).seconds);
  if (rest.length === 1) out.rule = toClientGcRule(rest[0] as GcRule);
  else if (rest.length > 1) {
    if (versions < 0 && age < 0)
      throw unsupported(whole, `a ${kind} may hold at most one nested ${kind === 'union' ? 'intersection' : 'union'}`);
    out.rule = group(whole, kind, rest);
  }
  return out;
}

function toDuration(seconds: number): { seconds: number; nanos: number } {
  const whole = Math.floor(seconds);
  return { seconds: whole, nanos: Math.round((seconds - whole) * 1e9) };
}

function unsupported(rule: GcRule, why: string): ValidationError {
  return new ValidationError(
    `GC rule ${JSON.stringify(rule)} cannot be written with the client's rule option: ${why}. Fix: simplify the rule.`,
    {
      rule,
    },
  );
}

/**
 * Converts an admin-API `gcRule` to a {@link GcRule}; `null`, `undefined` and
 * an empty rule give `undefined`. Throws `SchemaSyncError` for an unknown shape.
 *
 */
export function fromClientGcRule(meta: ClientGcRuleMeta | null | undefined): GcRule | undefined {
  if (meta === null || meta === undefined) return undefined;
  const kind = meta.rule ?? detectKind(meta);
  switch (kind) {
    case undefined:
      return undefined;
    case 'maxNumVersions':
      return { kind: 'maxVersions', count: Number(meta.maxNumVersions ?? 0) };
    case 'maxAge': {
      const seconds = Number(String(meta.maxAge?.seconds ?? 0)) + (meta.maxAge?.nanos ?? 0) / 1e9;
      return { kind: 'maxAge', seconds };
    }
    case 'union':
    case 'intersection': {
      const rules = (meta[kind]?.rules ?? []).map(fromClientGcRule).filter((r): r is GcRule => r !== undefined);
      return { kind, rules };
    }
    default:
      throw new SchemaSyncError(`unrecognised GC rule from the instance: ${JSON.stringify(meta)}`, { gcRule: meta });
  }
}

function detectKind(meta: ClientGcRuleMeta): string | undefined {
  if (meta.maxNumVersions !== undefined && meta.maxNumVersions !== null) return 'maxNumVersions';
  if (meta.maxAge) return 'maxAge';
  if (meta.union) return 'union';
  if (meta.intersection) return 'intersection';
  return undefined;
}
