import type { ActualFamily, RowKeySchema } from '../model/driver.js';
import type { EntitySchema, FamilySchema } from '../metadata/entity-schema.js';
import { marksWrites, RESALT_FAMILY } from '../metadata/resalt-mark.js';
import { MetadataError } from '../errors/errors.js';
import { describeGcRule, gcRulesEqual } from '../metadata/gc-rule.js';
import { describeRowKeySchema, rowKeySchemaOf } from './row-key-schema.js';

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
  /** The row key schema a new table is created with (`keyFormat: 'ordered-code'` entities); `undefined` for none. */
  rowKeySchema?: RowKeySchema;
}

interface FamilyOwner {
  family: ActualFamily;
  entity: string;
}

/**
 * Merges entity schemas into desired tables (sorted by table id). Entities that
 * share a table contribute their families; the same family declared twice must
 * carry the same GC rule and aggregate, otherwise a `MetadataError` names both entities.
 *
 */
export function desiredTables(schemas: readonly EntitySchema[]): DesiredTable[] {
  const tables = new Map<string, { entities: string[]; families: Map<string, FamilyOwner>; keys: KeyOwner[] }>();
  for (const schema of schemas) {
    let entry = tables.get(schema.table);
    if (!entry) {
      entry = { entities: [], families: new Map(), keys: [] };
      tables.set(schema.table, entry);
    }
    if (!entry.entities.includes(schema.name)) {
      entry.entities.push(schema.name);
      entry.keys.push({
        entity: schema.name,
        schema: rowKeySchemaOf(schema),
        ordered: schema.key.format === 'ordered-code',
      });
    }
    for (const family of familiesOf(schema)) {
      const known = entry.families.get(family.name);
      if (!known) {
        const { name, gc, aggregate } = family;
        const actual = aggregate === undefined ? { name, gc } : { name, gc, aggregate };
        entry.families.set(family.name, { family: actual, entity: schema.name });
      } else if (!gcRulesEqual(known.family.gc, family.gc) || known.family.aggregate !== family.aggregate) {
        throw conflict(schema.table, family.name, known, { family, entity: schema.name });
      }
    }
  }
  return [...tables.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([table, entry]) => {
      const families = [...entry.families.values()].map((o) => o.family).sort((a, b) => compare(a.name, b.name));
      const rowKeySchema = tableRowKeySchema(table, entry.keys, families);
      return { table, families, entities: entry.entities, ...(rowKeySchema === undefined ? {} : { rowKeySchema }) };
    });
}

interface KeyOwner {
  entity: string;
  schema: RowKeySchema | undefined;
  ordered: boolean;
}

/**
 * The one row key schema of a table's entities. GoogleSQL fails a query that
 * reads key fields on any row whose key does not decode, so every entity of
 * the table must have the same schema (or none have one); its field names must
 * not be family names or `_key`/`_timestamp`. Throws `MetadataError`.
 */
function tableRowKeySchema(
  table: string,
  keys: readonly KeyOwner[],
  families: readonly ActualFamily[],
): RowKeySchema | undefined {
  const [first] = keys;
  if (first === undefined || !keys.some((k) => k.ordered)) return undefined;
  for (const other of keys.slice(1)) {
    const a = first.schema === undefined ? 'none' : describeRowKeySchema(first.schema);
    const b = other.schema === undefined ? 'none' : describeRowKeySchema(other.schema);
    if (a !== b || first.ordered !== other.ordered) {
      throw new MetadataError(
        other.entity,
        undefined,
        `shares table "${table}" with ${first.entity}, but their row keys differ (${first.entity}: ${first.ordered ? 'ordered-code' : 'text'} key, row key schema ${a}; ${other.entity}: ${other.ordered ? 'ordered-code' : 'text'} key, row key schema ${b})`,
        'give entities that share a table the same keyFormat and key parts (names and types), or use separate tables',
      );
    }
  }
  const clash = first.schema?.fields.find(
    (f) => f.name === '_key' || f.name === '_timestamp' || families.some((fam) => fam.name === f.name),
  );
  if (clash !== undefined)
    throw new MetadataError(
      first.entity,
      clash.name,
      `row key field "${clash.name}" of table "${table}" has the name of a column family or a reserved column, which the row key schema forbids`,
      'rename the key property or the family',
    );
  return first.schema;
}

function conflict(table: string, family: string, first: FamilyOwner, second: FamilyOwner): MetadataError {
  const a = `${describeAggregate(first.family)}gc "${describeGcRule(first.family.gc)}" on ${first.entity}`;
  const b = `${describeAggregate(second.family)}gc "${describeGcRule(second.family.gc)}" on ${second.entity}`;
  return new MetadataError(
    second.entity,
    undefined,
    `two entities share table "${table}" with conflicting families: @Family('${family}') has ${a} but ${b}`,
    `declare the same gc and aggregate on @Family('${family}') in both ${first.entity} and ${second.entity}, or use different family names`,
  );
}

function describeAggregate(family: { readonly aggregate?: string | undefined }): string {
  return family.aggregate === undefined ? '' : `aggregate '${family.aggregate}' and `;
}

/**
 * Code-unit order, independent of locale.
 * @internal
 */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The entity's families, and while it is re-salted the family of its move marks (one version kept). */
function familiesOf(schema: EntitySchema): readonly FamilySchema[] {
  if (!marksWrites(schema)) return schema.families;
  return [...schema.families, { name: RESALT_FAMILY, gc: { kind: 'maxVersions', count: 1 } }];
}
