import {
  COMPILED,
  type ColumnPlan,
  type ColumnSchema,
  type DenormalizedSchema,
  type FamilySchema,
} from './entity-schema.js';
import { inheritedName } from './reserved-names.js';

/**
 * The qualifiers a column's value occupies: one per field for a `flatten`
 * column, else the column's own qualifier.
 * @internal
 */
export function cellQualifiers(column: ColumnSchema): readonly string[] {
  return column[COMPILED].qualifiers;
}

/**
 * A column as `hydrate` reads it for an entity with these families and
 * copies (the compile pass plans every column of its own entity).
 * @internal
 */
export function planColumn(
  entity: { readonly families: readonly FamilySchema[]; readonly denormalized: readonly DenormalizedSchema[] },
  column: ColumnSchema,
): ColumnPlan {
  return {
    column,
    gc: entity.families.find((f) => f.name === column.family)?.gc,
    inherited:
      inheritedName(column.family) ||
      inheritedName(column.qualifier) ||
      column[COMPILED].qualifiers.some(inheritedName),
    copy: entity.denormalized.some((copy) => copy.property === column.property),
  };
}
