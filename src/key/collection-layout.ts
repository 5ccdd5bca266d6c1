import { MetadataError, ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { EntitySchema, KeyComponentSchema, KeyPlan, SaltSchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import type { CollectionRuleId } from '../model/lint-rule.js';
import { describeKeyLayout, joinLogicalKey, type KeySchema } from './logical-key.js';
import { orderedLogicalKey } from './ordered-key.js';

/*
 * The key layout of an entity collection: several entities on one table whose keys start with the same
 * key parts (the shared prefix) followed by a class-level literal, the member's discriminator. One prefix
 * scan then reads a whole aggregate, and a row's kind is known from its key alone (docs/collections.md).
 */

/**
 * One member of a collection as declared: its name in the collection, its compiled schema, and whether
 * a prefix holds many of its rows (`[Order]`) or at most one (`Customer`).
 * @internal
 */
export interface CollectionMemberInput {
  readonly name: string;
  readonly schema: EntitySchema;
  readonly many: boolean;
}

/**
 * A member of a checked collection: what the scan needs to tell its rows from the others'.
 * @internal
 */
export interface CollectionMember extends CollectionMemberInput {
  /** The literal after the shared prefix. */
  readonly discriminator: string;
  /** The key bytes right after the shared prefix that mark a row of this member: the discriminator and its separator (or terminator). */
  readonly marker: Buffer;
  /** The discriminator is the member's last key part: the key ends right after {@link marker}. */
  readonly endsKey: boolean;
}

/**
 * A checked collection: its members and the key schema of their shared prefix (its key parts, separator,
 * key format and the members' common salt).
 * @internal
 */
export interface CollectionLayout {
  readonly name: string;
  readonly table: string;
  readonly prefix: KeySchema;
  readonly members: readonly CollectionMember[];
}

/**
 * What keeps a set of entities from being one collection, or makes it fragile: a rule id, the member and
 * its entity (and key part) at fault, the problem and its fix.
 * @internal
 */
export interface CollectionProblem {
  readonly code: CollectionRuleId;
  readonly severity: 'error' | 'warning';
  readonly member: string;
  readonly entity: string;
  readonly property?: string;
  readonly problem: string;
  readonly fix: string;
}

/** The field of a collection's `read()` result that reports the rows of no member: no member may take its name. */
const UNKNOWN_ROWS_FIELD = 'unknownRows';

/**
 * Reads the `members` argument of `mapper.collection()` (and `lintCollection()`): member names to entity
 * classes, a class in a one-element array for "many". Each class is compiled by `compile`. Throws a
 * `ValidationError` for anything else, naming the member and the fix.
 * @internal
 */
export function collectionMembers(
  name: unknown,
  members: unknown,
  compile: (entity: Constructor) => EntitySchema,
): CollectionMemberInput[] {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ValidationError(
      `collection: the name must be non-empty text, got ${preview(name)}. Fix: name the aggregate, e.g. mapper.collection('customerAggregate', { ... })`,
      { argument: 'name' },
    );
  }
  if (members === null || typeof members !== 'object' || Array.isArray(members) || Object.keys(members).length < 2) {
    throw new ValidationError(
      `${name}: a collection takes an object of at least two members, got ${preview(members)}. Fix: pass e.g. { customer: Customer, orders: [Order] }`,
      { collection: name, argument: 'members' },
    );
  }
  return Object.entries(members).map(([member, given]): CollectionMemberInput => {
    if (member === UNKNOWN_ROWS_FIELD) {
      throw new ValidationError(
        `${name}: "${UNKNOWN_ROWS_FIELD}" is where read() reports the rows of no member, so it cannot name a member. Fix: rename the member`,
        { collection: name, member },
      );
    }
    const many = Array.isArray(given);
    const entity: unknown = many ? (given.length === 1 ? given[0] : undefined) : given;
    if (typeof entity !== 'function') {
      throw new ValidationError(
        `${name}.${member}: a member is an entity class, or one in a one-element array for many rows, got ${preview(given)}. Fix: pass ${member}: Entity or ${member}: [Entity]`,
        { collection: name, member },
      );
    }
    return { name: member, schema: compile(entity as Constructor), many };
  });
}

/**
 * Checks the members of a collection and returns its layout. Throws `MetadataError` for the first
 * problem of severity `error` (see {@link collectionProblems}), naming `Entity.property` and the fix.
 * @internal
 */
export function compileCollectionLayout(name: string, members: readonly CollectionMemberInput[]): CollectionLayout {
  const error = collectionProblems(members).find((p) => p.severity === 'error');
  if (error !== undefined)
    throw new MetadataError(
      error.entity,
      error.property,
      `in collection "${name}" (member "${error.member}"), ${error.problem}`,
      error.fix,
    );
  const first = members[0] as CollectionMemberInput;
  const key = first.schema.key;
  const shared = discriminatorIndex(key);
  const components = key.components.slice(0, shared);
  const plan: KeyPlan = {
    format: key.format,
    separator: key.separator,
    components,
    properties: components.flatMap((c) => (c.kind === 'property' ? [c.property] : [])),
    salt: key.salt,
  };
  return Object.freeze({
    name,
    table: first.schema.table,
    prefix: Object.freeze({ name, key: Object.freeze(plan) }),
    members: Object.freeze(members.map((m) => Object.freeze(withMarker(m, shared)))),
  });
}

/**
 * Every problem of a set of members, errors and warnings, in member order: a member on another table
 * (`collection-table`), another key format, separator or leading key parts (`collection-key-prefix`),
 * no discriminator, a discriminator used twice, or an "at most one" member whose key goes on after its
 * discriminator (`collection-discriminator`), another salt, a salt over key parts after the shared prefix,
 * or a salt migration in progress (`collection-salt`), and in text keys a discriminator that begins
 * another (`collection-discriminator-prefix`, a warning).
 * @internal
 */
export function collectionProblems(members: readonly CollectionMemberInput[]): CollectionProblem[] {
  const problems: CollectionProblem[] = [];
  const reference = members.find((m) => discriminatorIndex(m.schema.key) >= 0) ?? members[0];
  if (reference === undefined) return problems;
  const report = (
    member: CollectionMemberInput,
    code: CollectionRuleId,
    problem: string,
    fix: string,
    property?: string,
  ): void => {
    problems.push({
      code,
      severity: code === 'collection-discriminator-prefix' ? 'warning' : 'error',
      member: member.name,
      entity: member.schema.name,
      ...(property === undefined ? {} : { property }),
      problem,
      fix,
    });
  };
  const byDiscriminator = new Map<string, CollectionMemberInput>();
  for (const member of members) {
    const found = keyProblem(member, reference);
    if (found !== undefined) {
      report(member, found.code, found.problem, found.fix, found.property);
      continue;
    }
    const { key } = member.schema;
    const at = discriminatorIndex(key);
    const literal = literalAt(key, at);
    const other = byDiscriminator.get(literal);
    if (other !== undefined)
      report(
        member,
        'collection-discriminator',
        `its discriminator "${literal}" is also ${other.schema.name}'s (member "${other.name}"), so their rows cannot be told apart`,
        `give ${member.schema.name} a literal of its own: @KeyPart(${at}, { literal: '${suggestLiteral(member.name)}' })`,
      );
    byDiscriminator.set(literal, member);
    if (!member.many && at < key.components.length - 1)
      report(
        member,
        'collection-discriminator',
        `it is an "at most one" member, but its key goes on after its discriminator "${literal}" (${describeKeyLayout(member.schema)}), so one prefix can hold several of its rows`,
        `declare it as many ({ ${member.name}: [${member.schema.name}] }), or end its key with the literal`,
      );
    const salt = saltProblem(member, reference, at);
    if (salt !== undefined) report(member, 'collection-salt', salt.problem, salt.fix);
  }
  for (const [literal, member] of byDiscriminator) {
    if (member.schema.key.format !== 'text') continue;
    for (const [longer, other] of byDiscriminator)
      if (longer !== literal && longer.startsWith(literal))
        report(
          other,
          'collection-discriminator-prefix',
          `its discriminator "${longer}" begins with ${member.schema.name}'s "${literal}", so a prefix written by hand as text (a cbt or Key Visualizer prefix "…${member.schema.key.separator}${literal}") also covers ${other.schema.name}'s rows`,
          `give discriminators that are no prefix of each other, e.g. "${literal}" and "${suggestLiteral(other.name)}"`,
        );
  }
  return problems;
}

type KeyProblem = Pick<CollectionProblem, 'code' | 'problem' | 'fix' | 'property'>;

/** The table, format, separator, discriminator and shared prefix of a member against the reference member's. */
function keyProblem(member: CollectionMemberInput, reference: CollectionMemberInput): KeyProblem | undefined {
  const { schema } = member;
  const ref = reference.schema;
  if (schema.table !== ref.table)
    return {
      code: 'collection-table',
      problem: `it is on table "${schema.table}", but ${ref.name} (member "${reference.name}") is on "${ref.table}"`,
      fix: `declare @Entity({ table: '${ref.table}' }) on ${schema.name}, or leave it out of the collection`,
    };
  if (schema.key.format !== ref.key.format)
    return {
      code: 'collection-key-prefix',
      problem: `its keyFormat is '${schema.key.format}', but ${ref.name}'s is '${ref.key.format}'`,
      fix: `give every member the same @Entity keyFormat`,
    };
  if (schema.key.separator !== ref.key.separator)
    return {
      code: 'collection-key-prefix',
      problem: `its key separator is "${schema.key.separator}", but ${ref.name}'s is "${ref.key.separator}"`,
      fix: `give every member the same @Entity separator`,
    };
  const at = discriminatorIndex(schema.key);
  if (at < 0) {
    const shared = Math.max(discriminatorIndex(ref.key), 1);
    return {
      code: 'collection-discriminator',
      problem: `it has no discriminator: no class-level literal key part follows its leading key parts (${describeKeyLayout(schema)})`,
      fix: `add @KeyPart(${shared}, { literal: '${suggestLiteral(member.name)}' }) to the class after the key parts it shares with ${ref.name}, and number the key parts after it from ${shared + 1}`,
    };
  }
  return prefixProblem(member, reference, at);
}

/** The first key part where a member's shared prefix differs from the reference member's. */
function prefixProblem(
  member: CollectionMemberInput,
  reference: CollectionMemberInput,
  at: number,
): KeyProblem | undefined {
  const ours = member.schema.key.components.slice(0, at);
  const theirs = reference.schema.key.components.slice(0, discriminatorIndex(reference.schema.key));
  const ref = reference.schema.name;
  const fix = `begin ${member.schema.name}'s key with the same key parts as ${ref}'s (same names, types and options), then its literal`;
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i];
    const b = theirs[i];
    if (a !== undefined && b !== undefined && describeComponent(a) === describeComponent(b)) continue;
    const property = a?.kind === 'property' ? a.property : b?.kind === 'property' ? b.property : undefined;
    return {
      code: 'collection-key-prefix',
      problem: `its key part ${i} is ${a === undefined ? `its discriminator "${literalAt(member.schema.key, at)}"` : describeComponent(a)}, but ${ref}'s is ${b === undefined ? `its discriminator "${literalAt(reference.schema.key, theirs.length)}"` : describeComponent(b)}`,
      fix,
      ...(property === undefined ? {} : { property }),
    };
  }
  return undefined;
}

/** A member's salt against the reference member's: the same buckets, hash, `on` and segment, within the shared prefix, settled. */
function saltProblem(
  member: CollectionMemberInput,
  reference: CollectionMemberInput,
  shared: number,
): Pick<CollectionProblem, 'problem' | 'fix'> | undefined {
  const salt = member.schema.key.salt;
  const other = reference.schema.key.salt;
  const ref = reference.schema.name;
  if (salt?.since !== undefined || salt?.previous !== undefined)
    return {
      problem: `its @Salt ${salt.since !== undefined ? 'since' : 'previous'} is a migration in progress, so one aggregate's rows can be in two layouts`,
      fix:
        salt.since !== undefined
          ? 'finish the forward-only migration and remove since before reading the collection'
          : `run mapper.resalt(${member.schema.name}) and remove previous before reading the collection`,
    };
  if (salt === undefined && other === undefined) return undefined;
  if (salt === undefined || other === undefined)
    return {
      problem: `it is ${salt === undefined ? 'not salted' : 'salted'}, but ${ref} is ${other === undefined ? 'not' : 'salted'}`,
      fix: 'salt every member alike, or none',
    };
  if (salt.prefixLength > shared)
    return {
      problem: `its @Salt on [${salt.on.join(', ')}] reaches past the key parts the members share, so one aggregate would spread over buckets`,
      fix: `salt on shared key parts only, e.g. @Salt({ buckets: ${salt.buckets}, on: [${member.schema.key.components
        .slice(0, shared)
        .flatMap((c) => (c.kind === 'property' ? [`'${c.property}'`] : []))
        .join(', ')}] })`,
    };
  const differs = saltDifference(salt, other);
  if (differs === undefined) return undefined;
  return {
    problem: `its @Salt ${differs}, unlike ${ref}'s, so their rows of one aggregate would land in different buckets`,
    fix: `give every member the same @Salt (buckets, hash, on and format)`,
  };
}

/** Inputs a custom hash is tried on: two custom hashes that agree on all of them are taken to be the same. */
const HASH_PROBES = ['', '0', '1', 'a', 'c1', 'c10', 'customer-42', '00#x', 'zzzzzzzz', '\u00e9t\u00e9'];

function saltDifference(salt: SaltSchema, other: SaltSchema): string | undefined {
  if (salt.buckets !== other.buckets) return `has ${salt.buckets} buckets, not ${other.buckets}`;
  if (salt.hash !== other.hash) return `hashes with ${salt.hash}, not ${other.hash}`;
  if (salt.on.join('\u0000') !== other.on.join('\u0000') || salt.prefixLength !== other.prefixLength)
    return `is on [${salt.on.join(', ')}], not [${other.on.join(', ')}]`;
  if (salt.width !== other.width || salt.separator !== other.separator)
    return `writes its segment with width ${salt.width} and separator "${salt.separator}", not ${other.width} and "${other.separator}"`;
  if (salt.hash === 'custom' && HASH_PROBES.some((input) => salt.bucketOf(input) !== other.bucketOf(input)))
    return 'has a custom hash that gives other buckets';
  return undefined;
}

/** The position of a key's discriminator: the first literal after its first property part; -1 when none. */
function discriminatorIndex(key: KeyPlan): number {
  const firstProperty = key.components.findIndex((c) => c.kind === 'property');
  if (firstProperty < 0) return -1;
  return key.components.findIndex((c, i) => i > firstProperty && c.kind === 'literal');
}

function literalAt(key: KeyPlan, at: number): string {
  const component = key.components[at];
  return component?.kind === 'literal' ? component.literal : '';
}

/** A key part as compared between members: a literal's text, or a property's name, type and codec options. */
function describeComponent(component: KeyComponentSchema): string {
  if (component.kind === 'literal') return `the literal "${component.literal}"`;
  const { codec } = component;
  const options = [
    codec.type,
    codec.width === undefined ? undefined : `width ${codec.width}`,
    codec.descending ? 'descending' : undefined,
    codec.format === undefined ? undefined : `format ${codec.format}`,
    codec.maxLength === undefined ? undefined : `maxLength ${codec.maxLength}`,
    codec.verbatim === undefined ? undefined : 'verbatim',
    codec.verbatim?.charset === undefined ? undefined : `charset ${codec.verbatim.charset}`,
  ].filter((o) => o !== undefined);
  return `${component.property} (${options.join(', ')})`;
}

/** A member with the bytes that mark its rows after the shared prefix. */
function withMarker(member: CollectionMemberInput, shared: number): CollectionMember {
  const { key } = member.schema;
  const literal = literalAt(key, shared);
  const endsKey = shared === key.components.length - 1;
  const component = key.components[shared] as KeyComponentSchema;
  const marker =
    key.format === 'ordered-code'
      ? orderedLogicalKey({ name: member.schema.name, key: { ...key, components: [component] } }, [literal], endsKey)
      : Buffer.from(joinLogicalKey(key.separator, [literal], endsKey), 'utf8');
  return { ...member, discriminator: literal, marker, endsKey };
}

/** A literal to suggest for a member: its name, singular and lowercase (`orders` → `order`). */
function suggestLiteral(member: string): string {
  const lower = member.toLowerCase();
  return lower.length > 1 && lower.endsWith('s') ? lower.slice(0, -1) : lower;
}
