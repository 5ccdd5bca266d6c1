import type { GcRule } from '../model/gc-rule.js';
import type { LintDraft, LintRule } from './lint-finding.js';

/**
 * Default of `LintOptions.maxFamilies`: Bigtable's schema-design guidance of
 * up to about 100 column families per table.
 * @internal
 */
export const DEFAULT_MAX_FAMILIES = 100;

const GC_PRINCIPLE =
  'Garbage collection on every column family: a rule of max versions or max age (e.g. keep the last 5 versions) ' +
  'bounds storage and retention, and a column never holds more versions than its family keeps.';

/**
 * A family with no GC rule keeps every version of every cell forever.
 * @internal
 */
export const noGcRule: LintRule = {
  id: 'no-gc-rule',
  principle: GC_PRINCIPLE,
  check(schema) {
    return (
      schema.families
        // An aggregate family keeps one cell per column (and takes no gc rule).
        .filter((f) => f.gc === undefined && f.aggregate === undefined)
        .map((f): LintDraft => ({
          severity: 'warning',
          family: f.name,
          message:
            `${schema.name}: family '${f.name}' has no garbage-collection rule, so every version of every cell is kept ` +
            `forever and each save adds one`,
          fix: `@Family('${f.name}', { gc: { maxVersions: 1 } }), or { maxAge: '30d' } for time-bounded data`,
        }))
    );
  },
};

/**
 * A column hydrating more versions than its family's GC rule keeps: the extra
 * versions are collected (and `hydrate` drops them already).
 * @internal
 */
export const versionsExceedFamily: LintRule = {
  id: 'versions-exceed-family',
  principle: GC_PRINCIPLE,
  check(schema) {
    const drafts: LintDraft[] = [];
    for (const column of schema.columns) {
      if (!column.versioned) continue;
      const gc = schema.families.find((f) => f.name === column.family)?.gc;
      const kept = gc === undefined ? Infinity : versionsKept(gc);
      if (column.versions <= kept) continue;
      drafts.push({
        severity: 'warning',
        property: column.property,
        message:
          `${schema.name}.${column.property}: the column asks for ${column.versions} versions, but family ` +
          `'${column.family}' keeps at most ${kept}, so it never holds more than ${kept}`,
        fix:
          `@Column({ family: '${column.family}', versions: ${kept} }) ${column.property}, or raise ` +
          `@Family('${column.family}', { gc: { maxVersions: ${column.versions} } })`,
      });
    }
    return drafts;
  },
};

/**
 * More column families than the threshold (default: Bigtable's ~100).
 * @internal
 */
export const tooManyFamilies: LintRule = {
  id: 'too-many-families',
  principle:
    "Few column families: group columns that are read together into one family; Bigtable's schema-design guide " +
    'advises at most about 100 per table.',
  check(schema, options) {
    const count = schema.families.length;
    if (count <= options.maxFamilies) return [];
    return [
      {
        severity: 'warning',
        message:
          `${schema.name}: ${count} column families, more than ${options.maxFamilies}` +
          (options.maxFamilies === DEFAULT_MAX_FAMILIES ? ", Bigtable's documented guidance per table" : ''),
        fix: 'merge families whose columns are read together into one @Family, and tell them apart by qualifier',
      },
    ];
  },
};

/** Most versions of a column the rule can leave: a union keeps the least of its parts, an intersection the most. */
function versionsKept(rule: GcRule): number {
  switch (rule.kind) {
    case 'maxVersions':
      return rule.count;
    case 'maxAge':
      return Infinity;
    case 'union':
      return Math.min(...rule.rules.map(versionsKept));
    case 'intersection':
      return Math.max(...rule.rules.map(versionsKept));
  }
}
