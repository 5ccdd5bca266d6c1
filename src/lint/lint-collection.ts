import { compileEntity } from '../metadata/compile-entity.js';
import { collectionMembers, collectionProblems } from '../key/collection-layout.js';
import type { CollectionRuleId } from '../model/lint-rule.js';
import type { Constructor } from '../model/declarations.js';
import type { LintFinding } from './lint-finding.js';

/** The key-design principle behind each collection rule. */
const PRINCIPLES: Readonly<Record<CollectionRuleId, string>> = {
  'collection-table':
    'One table per aggregate: a collection is read with one scan of one table, so every member must be stored in it.',
  'collection-key-prefix':
    'Related rows share a key prefix: rows sort by key, so only kinds whose keys begin with the same key parts, encoded alike, sit next to each other under one prefix.',
  'collection-discriminator':
    "A row's kind is in its key: a literal of its own right after the shared prefix tells each row's kind without reading its cells, and an at-most-one member's key ends there.",
  'collection-salt':
    'One aggregate, one bucket: members salted alike on the shared key parts keep a whole aggregate in one bucket, so one range reads it.',
  'collection-discriminator-prefix':
    'Kinds that do not overlap as text: in text keys a discriminator that begins another makes a prefix of one kind written by hand (cbt, Key Visualizer, a census) also match the other.',
};

/**
 * Checks that entities can be one collection (`mapper.collection()`, docs/collections.md), without a
 * mapper: the members are on one table, share their leading key parts (names, types, options,
 * separator, key format) and their salt (on shared key parts only, no migration in progress), and each
 * follows them with a distinct class-level literal, its discriminator; an at-most-one member's key ends
 * there. These are `error` findings, which `mapper.collection()` throws as `MetadataError`. In text keys,
 * a discriminator that begins another (`order`, `orders`) is a `warning`. Returns plain JSON findings,
 * empty when the members pass; `members` is what `mapper.collection()` takes.
 *
 * @example
 * ```ts
 * const findings = lintCollection('customerAggregate', { customer: Customer, orders: [Order], addresses: [Address] });
 * findings.map((f) => f.code); // [] when the collection is sound
 * ```
 */
export function lintCollection(
  name: string,
  members: Readonly<Record<string, Constructor | readonly [Constructor]>>,
): LintFinding[] {
  const inputs = collectionMembers(name, members, (entity) => compileEntity(entity));
  return collectionProblems(inputs).map((p): LintFinding => ({
    code: p.code,
    severity: p.severity,
    entity: p.entity,
    ...(p.property === undefined ? {} : { property: p.property }),
    message: `${p.property === undefined ? p.entity : `${p.entity}.${p.property}`}: in collection "${name}" (member "${p.member}"), ${p.problem}`,
    principle: PRINCIPLES[p.code],
    fix: p.fix,
  }));
}
