/**
 * A `lintEntity()` rule id.
 *
 * @example
 * ```ts
 * const rule: LintRuleId = 'leading-timestamp';
 * ```
 */
export type LintRuleId =
  | 'leading-timestamp'
  | 'salt-few-values'
  | 'java-hashcode-power-of-two'
  | 'java-hashcode-multiple-of-31'
  | 'unbounded-string-key'
  | 'key-too-long'
  | 'no-gc-rule'
  | 'versions-exceed-family'
  | 'too-many-families'
  | 'propagation-full-scan';

/**
 * A `lintCollection()` rule id: what keeps the members of an entity collection
 * readable in one prefix scan (docs/collections.md describes each).
 *
 * @example
 * ```ts
 * const rule: CollectionRuleId = 'collection-discriminator-prefix';
 * ```
 */
export type CollectionRuleId =
  | 'collection-table'
  | 'collection-key-prefix'
  | 'collection-discriminator'
  | 'collection-salt'
  | 'collection-discriminator-prefix';

/** Every rule id once (the `Record` makes the compiler check none is missing or extra), in run order. */
const RULE_ORDER: Readonly<Record<LintRuleId, true>> = {
  'leading-timestamp': true,
  'salt-few-values': true,
  'java-hashcode-power-of-two': true,
  'java-hashcode-multiple-of-31': true,
  'unbounded-string-key': true,
  'key-too-long': true,
  'no-gc-rule': true,
  'versions-exceed-family': true,
  'too-many-families': true,
  'propagation-full-scan': true,
};

/**
 * The ids of the `lintEntity()` rules an entity may suppress, in the order
 * the linter runs them (docs/key-design-tools.md describes each).
 * @internal
 */
export const LINT_RULE_IDS: readonly LintRuleId[] = Object.freeze(Object.keys(RULE_ORDER) as LintRuleId[]);

/**
 * One compiled lint suppression: the rule, the property or family it is
 * limited to (`undefined`: the whole entity), and why.
 *
 * @example
 * ```ts
 * const s: LintSuppression = { rule: 'no-gc-rule', target: 'audit', reason: 'kept forever by law' };
 * ```
 */
export interface LintSuppression {
  /** The suppressed rule. */
  readonly rule: LintRuleId;
  /** Property or family name; `undefined` for every finding of the rule on the entity. */
  readonly target: string | undefined;
  /** Why the finding does not apply. */
  readonly reason: string;
}
