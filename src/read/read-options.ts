import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { EntityProperty, KeyParts, KeyProperty } from '../metadata/compile-key-plan.js';
import { hydratePlan, type HydratePlan } from './hydrate-plan.js';

/**
 * What a read fetches. `S` is the union of the selected properties, inferred
 * from `select`.
 * @example
 * ```ts
 * { select: ['temperature'], versions: 3 }
 * ```
 */
export interface ReadOptions<T = unknown, S extends EntityProperty<T> = EntityProperty<T>> {
  /** Properties to read (key parts are always decoded from the key). Default: every column. */
  select?: readonly S[];
  /** Versions to read for versioned columns (capped at each column's declared count). Default: the declared count. */
  versions?: number;
}

/**
 * What a read with `select` returns: the key parts (named by the entity's
 * {@link KeyParts} marker) and the selected properties `S`. Without a
 * `select`, or without the marker (the key parts are then unknown to the
 * type), the whole entity `T`.
 * @example
 * ```ts
 * const r = await readings.findOne(key, { select: ['temperature'] });
 * // r: Selected<Reading, 'temperature'> = Pick<Reading, 'sensorId' | 'ts' | 'temperature'> | undefined
 * ```
 */
export type Selected<T, S extends EntityProperty<T>> = typeof KeyParts extends keyof T
  ? [EntityProperty<T>] extends [S]
    ? T
    : Pick<T, S | KeyProperty<T>>
  : T;

/** The names of {@link ReadOptions}. @internal */
export const READ_OPTION_NAMES: readonly string[] = Object.keys({ select: true, versions: true } satisfies Record<
  keyof ReadOptions,
  true
>);

/** Validated read options: the columns to fetch and how many versions of each. @internal */
export interface ResolvedRead {
  readonly columns: readonly ColumnSchema[];
  /** Versions per column property. */
  readonly versions: Readonly<Record<string, number>>;
  /** How `hydrate` reads the columns. */
  readonly plan: HydratePlan;
}

/**
 * Validates `select` and `versions` against the schema before anything is sent.
 * @internal
 */
export function resolveRead(
  schema: EntitySchema,
  options: { readonly select?: readonly string[]; readonly versions?: number } = {},
): ResolvedRead {
  const { select, versions } = options;
  if (versions !== undefined && (typeof versions !== 'number' || !Number.isInteger(versions) || versions < 1)) {
    throw new ValidationError(
      `${schema.name}: versions ${preview(versions)} must be a positive integer. Fix: pass versions: 1 or more`,
      { entity: schema.name },
    );
  }
  let columns: readonly ColumnSchema[] = schema.columns;
  if (select !== undefined) {
    if (!Array.isArray(select))
      throw new ValidationError(`${schema.name}: select must be an array of property names`, { entity: schema.name });
    columns = select.flatMap((property) => {
      if (schema.key.properties.includes(property) || property === schema.cellTimestamp) return [];
      const column = typeof property === 'string' ? schema.columnsByProperty[property] : undefined;
      if (column === undefined) {
        throw new ValidationError(
          `${schema.name}.${typeof property === 'string' ? property : preview(property)}: cannot select an unknown property. Fix: select from ${[...schema.key.properties, ...schema.columns.map((c) => c.property)].join(', ')}`,
          { entity: schema.name, property },
        );
      }
      return [column];
    });
  }
  const perColumn: Record<string, number> = {};
  for (const c of columns) perColumn[c.property] = c.versioned ? Math.min(versions ?? c.versions, c.versions) : 1;
  return { columns, versions: perColumn, plan: hydratePlan(schema, columns) };
}
