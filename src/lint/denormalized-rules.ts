import type { LintDraft, LintRule } from './lint-finding.js';

/**
 * A `@Denormalized` copy whose rows `propagate` can find only by scanning the whole dependent table:
 * it is refused at run time unless `allowFullScan`, so say it at design time.
 * @internal
 */
export const propagationFullScan: LintRule = {
  id: 'propagation-full-scan',
  principle:
    'Row keys designed around the queries you run: a denormalized copy is kept fresh by reading the rows that hold ' +
    'it, which is one key range only when the key starts with the source key.',
  check(schema) {
    const seen = new Set<string>();
    const drafts: LintDraft[] = [];
    for (const copy of schema.denormalized) {
      if (copy.strategy.kind !== 'full-scan' || seen.has(copy.sourceName)) continue;
      seen.add(copy.sourceName);
      drafts.push({
        severity: 'warning',
        property: copy.property,
        message: `${schema.name}.${copy.property}: propagate(${copy.sourceName}) must scan the whole table: ${copy.strategy.reason}`,
        fix: `start ${schema.name}'s key with the ${copy.sourceName} key, or accept full scans (propagate with { allowFullScan: true }) and suppress this rule with that reason`,
      });
    }
    return drafts;
  },
};
