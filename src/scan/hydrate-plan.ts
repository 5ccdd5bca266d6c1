import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { GcRule } from '../model/gc-rule.js';
import { inheritedName } from './own-cells.js';

/**
 * A selected column with its family's GC rule, looked up once per column list
 * instead of once per row.
 * @internal
 * @example
 * ```ts
 * const { column, rule } = hydratePlan(schema, read.columns).columns[0];
 * ```
 */
export interface ColumnHydration {
  readonly column: ColumnSchema;
  /** The family's GC rule; `undefined` when the family has none (every cell is live). */
  readonly rule: GcRule | undefined;
  /** The family or a qualifier is named like an `Object.prototype` member: look cells up as own properties only. */
  readonly inherited: boolean;
  /** The column's cell times count toward `@CellTimestamp` (a `@Denormalized` copy's do not: they carry the time they were copied). */
  readonly stamps: boolean;
}

/**
 * A read's columns prepared for {@link hydrate}, in read order.
 * @internal
 * @example
 * ```ts
 * for (const { column, rule } of hydratePlan(schema, read.columns).columns) use(column, rule);
 * ```
 */
export interface HydratePlan {
  readonly schema: EntitySchema;
  readonly columns: readonly ColumnHydration[];
}

const plans = new WeakMap<readonly ColumnSchema[], HydratePlan>();

/**
 * The plan of a column list, built once and then reused: a read of every
 * column passes the schema's own `columns` array, so all such reads share one
 * plan; a `select` gets a plan on its first row. Another schema with the same
 * list gets a fresh plan.
 * @internal
 * @example
 * ```ts
 * const plan = hydratePlan(schema, resolveRead(schema, { select: ['temperature'] }).columns);
 * ```
 */
export function hydratePlan(schema: EntitySchema, columns: readonly ColumnSchema[]): HydratePlan {
  const cached = plans.get(columns);
  if (cached !== undefined && cached.schema === schema) return cached;
  const rules = gcRulesOf(schema);
  const copies = new Set(schema.denormalized.map((copy) => copy.property));
  const plan: HydratePlan = {
    schema,
    columns: columns.map((column) => ({
      column,
      rule: rules.get(column.family),
      inherited: namesInherited(column),
      stamps: !copies.has(column.property),
    })),
  };
  plans.set(columns, plan);
  return plan;
}

/** Whether any name a column reads cells under is an `Object.prototype` member. */
function namesInherited(column: ColumnSchema): boolean {
  return (
    inheritedName(column.family) ||
    inheritedName(column.qualifier) ||
    (column.fields ?? []).some((field) => inheritedName(field.qualifier))
  );
}

const gcRules = new WeakMap<EntitySchema, ReadonlyMap<string, GcRule | undefined>>();

/** Each family's GC rule by family name, built once per schema. */
function gcRulesOf(schema: EntitySchema): ReadonlyMap<string, GcRule | undefined> {
  let rules = gcRules.get(schema);
  if (rules === undefined) {
    rules = new Map(schema.families.map((f) => [f.name, f.gc]));
    gcRules.set(schema, rules);
  }
  return rules;
}
