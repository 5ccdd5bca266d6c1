import type { EntitySchema } from '../metadata/entity-schema.js';
import type { CollectionRuleId, LintRuleId } from '../model/lint-rule.js';

/**
 * How bad a finding is: `error`, a design that will hurt (hotspots, keys
 * Bigtable rejects); `warning`, one that likely will; `info`, worth knowing.
 *
 * @example
 * ```ts
 * const failing = findings.filter((f) => f.severity === 'error');
 * ```
 */
export type LintSeverity = 'error' | 'warning' | 'info';

/**
 * One problem `lintEntity()` found in an entity's key or family design. Plain
 * JSON data: print it, store it, compare it.
 *
 * @example
 * ```ts
 * const f: LintFinding = {
 *   code: 'no-gc-rule',
 *   severity: 'warning',
 *   entity: 'Reading',
 *   family: 'logs',
 *   message: "Reading: family 'logs' has no garbage-collection rule, so every version of every cell is kept forever",
 *   principle: 'Garbage collection on every column family: a rule of max versions or max age bounds storage…',
 *   fix: "@Family('logs', { gc: { maxAge: '30d' } })",
 * };
 * ```
 */
export interface LintFinding {
  /**
   * The rule's id; for `lintEntity()` the key to suppress it with in `@Entity({ lint: { ignore } })`.
   * `unused-suppression` flags a suppression nothing matched; `lintCollection()` findings have the
   * `collection-*` ids.
   */
  readonly code: LintRuleId | CollectionRuleId | 'unused-suppression';
  /** How bad it is. */
  readonly severity: LintSeverity;
  /** The entity class name. */
  readonly entity: string;
  /** The key property or column at fault, when there is one. */
  readonly property?: string;
  /** The column family at fault, when there is one. */
  readonly family?: string;
  /** What is wrong, naming `Entity.property` (or the family). */
  readonly message: string;
  /** The Bigtable key-design principle behind the rule: its name, then why it holds. */
  readonly principle: string;
  /** The concrete decorator change that resolves it. */
  readonly fix: string;
  /** The suppression's reason; present only with `includeSuppressed`, on findings an entity suppresses. */
  readonly suppressed?: string;
}

/**
 * Options of `lintEntity()` and `lintEntities()`.
 *
 * @example
 * ```ts
 * lintEntity(Reading, { maxFamilies: 20, includeSuppressed: true });
 * ```
 */
export interface LintOptions {
  /** Most column families before `too-many-families` fires. Default 100, Bigtable's documented per-table guidance. */
  readonly maxFamilies?: number;
  /** Also return suppressed findings, each with its `suppressed` reason. Default `false`. */
  readonly includeSuppressed?: boolean;
}

/** A rule's finding before the linter names the entity and the principle. @internal */
export type LintDraft = Pick<LintFinding, 'severity' | 'property' | 'family' | 'message' | 'fix'>;

/**
 * One lint rule: its id, the principle it enforces, and its check of a
 * compiled schema.
 * @internal
 */
export interface LintRule {
  readonly id: LintRuleId;
  readonly principle: string;
  readonly check: (schema: LintedSchema, options: Required<Pick<LintOptions, 'maxFamilies'>>) => LintDraft[];
}

/** What the rules read of an `EntitySchema`. @internal */
export type LintedSchema = Pick<
  EntitySchema,
  'name' | 'key' | 'families' | 'columns' | 'denormalized' | 'lintSuppressions'
>;
