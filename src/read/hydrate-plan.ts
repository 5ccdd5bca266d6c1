import { planColumn } from '../metadata/compile-columns.js';
import { COMPILED, type ColumnPlan, type ColumnSchema, type EntitySchema } from '../metadata/entity-schema.js';

/**
 * A read's columns as `hydrate` reads them, for the schema they were planned
 * against, in read order.
 * @internal
 */
export interface HydratePlan {
  readonly schema: EntitySchema;
  readonly columns: readonly ColumnPlan[];
}

/**
 * The plan of reading `columns` of `schema`, made once per read: a read of
 * every column passes the schema's own `columns` array and gets the plan the
 * compile pass made; a `select` gets the compiled plans of its columns. A
 * column of another schema is planned with this schema's families.
 * @internal
 */
export function hydratePlan(schema: EntitySchema, columns: readonly ColumnSchema[]): HydratePlan {
  const compiled = schema[COMPILED].columns;
  if (columns === schema.columns) return { schema, columns: compiled };
  return {
    schema,
    columns: columns.map((column) => compiled.find((plan) => plan.column === column) ?? planColumn(schema, column)),
  };
}
