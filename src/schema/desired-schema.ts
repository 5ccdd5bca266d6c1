import type { ActualFamily } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { MetadataError } from '../errors/errors.js';
import { describeGcRule, gcRulesEqual } from '../metadata/gc-rule.js';

/**
 * One table as the declared entities want it: the union of their families.
 *
 */
export interface DesiredTable {
  table: string;
  /** Sorted by name. */
  families: ActualFamily[];
  /** Entity names declaring the table, in input order. */
  entities: string[];
}

interface FamilyOwner {
  family: ActualFamily;
  entity: string;
}

/**
 * Merges entity schemas into desired tables (sorted by table id). Entities that
 * share a table contribute their families; the same family declared twice must
 * carry the same GC rule, otherwise a `MetadataError` names both entities.
 *
 */
export function desiredTables(schemas: readonly EntitySchema[]): DesiredTable[] {
  const tables = new Map<string, { entities: string[]; families: Map<string, FamilyOwner> }>();
  for (const schema of schemas) {
    let entry = tables.get(schema.table);
    if (!entry) {
      entry = { entities: [], families: new Map() };
      tables.set(schema.table, entry);
    }
    if (!entry.entities.includes(schema.name)) entry.entities.push(schema.name);
    for (const family of schema.families) {
      const known = entry.families.get(family.name);
      if (!known) {
        entry.families.set(family.name, { family: { name: family.name, gc: family.gc }, entity: schema.name });
      } else if (!gcRulesEqual(known.family.gc, family.gc)) {
        throw conflict(schema.table, family.name, known, { family, entity: schema.name });
      }
    }
  }
  return [...tables.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([table, entry]) => ({
      table,
      families: [...entry.families.values()].map((o) => o.family).sort((a, b) => compare(a.name, b.name)),
      entities: entry.entities,
    }));
}

function conflict(table: string, family: string, first: FamilyOwner, second: FamilyOwner): MetadataError {
  const a = `gc "${describeGcRule(first.family.gc)}" on ${first.entity}`;
  const b = `gc "${describeGcRule(second.family.gc)}" on ${second.entity}`;
  return new MetadataError(
    second.entity,
    undefined,
    `two entities share table "${table}" with conflicting families: @Family('${family}') has ${a} but ${b}`,
    `declare the same gc on @Family('${family}') in both ${first.entity} and ${second.entity}, or use different family names`,
  );
}

/**
 * Code-unit order, independent of locale.
 * @internal
 */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
