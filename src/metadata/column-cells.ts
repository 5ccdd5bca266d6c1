import type { ColumnSchema } from './entity-schema.js';

/**
 * The qualifiers a column's value occupies: one per field for a `flatten`
 * column, else the column's own qualifier.
 *
 * @example
 * ```ts
 * cellQualifiers(schema.columnsByProperty.address); // ['address.street', 'address.city']
 * ```
 * @internal
 */
export function cellQualifiers(column: ColumnSchema): readonly string[] {
  return column.fields === undefined ? [column.qualifier] : column.fields.map((f) => f.qualifier);
}
