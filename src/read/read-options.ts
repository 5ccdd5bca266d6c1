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
  /**
   * Reads the row as it was at this time: each column's newest versions written at or before it (by cell
   * timestamp, to the millisecond). A row with no cell by then is not found. Not with `between`.
   * @example
   * ```ts
   * await prices.findOne({ sku: 'a' }, { asOf: new Date('2026-11-01T00:00:00Z') });
   * ```
   */
  asOf?: Date;
  /**
   * Reads only cells written in `[from, to)` (by cell timestamp, to the millisecond): each column's newest
   * versions inside the window. A row with no cell inside it is not found. Not with `asOf`.
   * @example
   * ```ts
   * await prices.findOne({ sku: 'a' }, { between: { from: new Date('2026-11-01'), to: new Date('2026-11-02') } });
   * ```
   */
  between?: {
    /** Oldest cell timestamp read (inclusive). */
    readonly from: Date;
    /** Cell timestamps read stop before it (exclusive). */
    readonly to: Date;
  };
}

/**
 * The cell-timestamp window of a read with `asOf` or `between`, in
 * microseconds (whole milliseconds, as Bigtable stores them): `startMicros`
 * inclusive, `endMicros` exclusive; either may be open.
 * @internal
 */
export interface ReadTimeRange {
  readonly startMicros: number | undefined;
  readonly endMicros: number | undefined;
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
export const READ_OPTION_NAMES: readonly string[] = Object.keys({
  select: true,
  versions: true,
  asOf: true,
  between: true,
} satisfies Record<keyof ReadOptions, true>);

/** Validated read options: the columns to fetch and how many versions of each. @internal */
export interface ResolvedRead {
  readonly columns: readonly ColumnSchema[];
  /** Versions per column property. */
  readonly versions: Readonly<Record<string, number>>;
  /** How `hydrate` reads the columns. */
  readonly plan: HydratePlan;
  /** The cell-timestamp window of `asOf` or `between`, when given. */
  readonly timeRange?: ReadTimeRange;
}

/**
 * Validates `select` and `versions` against the schema before anything is sent.
 * @internal
 */
export function resolveRead(
  schema: EntitySchema,
  options: {
    readonly select?: readonly string[];
    readonly versions?: number;
    readonly asOf?: unknown;
    readonly between?: unknown;
  } = {},
): ResolvedRead {
  const { select, versions } = options;
  const timeRange = resolveTimeRange(schema.name, options.asOf, options.between);
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
  return {
    columns,
    versions: perColumn,
    plan: hydratePlan(schema, columns),
    ...(timeRange === undefined ? {} : { timeRange }),
  };
}

/** Bigtable's largest cell timestamp a filter can name, in milliseconds (about the year 292,000). */
const MAX_FILTER_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/**
 * Checks `asOf` and `between` and turns them into a cell-timestamp window:
 * `asOf` is `[0, asOf + 1 ms)`, `between` is `[from, to)`.
 */
function resolveTimeRange(entity: string, asOf: unknown, between: unknown): ReadTimeRange | undefined {
  if (asOf === undefined && between === undefined) return undefined;
  if (asOf !== undefined && between !== undefined)
    throw new ValidationError(
      `${entity}: asOf and between cannot both be given. Fix: pass asOf to read the row as it was at one time, or between for a window of writes`,
      { entity, option: 'asOf' },
    );
  if (asOf !== undefined) {
    const ms = checkTime(entity, 'asOf', asOf);
    return { startMicros: undefined, endMicros: (ms + 1) * 1000 };
  }
  if (between === null || typeof between !== 'object' || Array.isArray(between))
    throw new ValidationError(
      `${entity}: between must be { from: Date, to: Date }, got ${preview(between)}. Fix: pass e.g. between: { from: new Date('2026-11-01'), to: new Date('2026-11-02') }`,
      { entity, option: 'between' },
    );
  const names = Object.keys(between);
  const unknown = names.filter((name) => name !== 'from' && name !== 'to');
  if (unknown.length > 0)
    throw new ValidationError(
      `${entity}: between takes only from and to, got ${unknown.map((name) => JSON.stringify(name)).join(', ')}. Fix: pass between: { from, to }`,
      { entity, option: 'between' },
    );
  const { from, to } = between as { from?: unknown; to?: unknown };
  const fromMs = checkTime(entity, 'between.from', from);
  const toMs = checkTime(entity, 'between.to', to);
  if (fromMs >= toMs)
    throw new ValidationError(
      `${entity}: between.from (${new Date(fromMs).toISOString()}) must be before between.to (${new Date(toMs).toISOString()}); the window is [from, to). Fix: swap them, or make to later`,
      { entity, option: 'between' },
    );
  return { startMicros: fromMs * 1000, endMicros: toMs * 1000 };
}

function checkTime(entity: string, option: string, value: unknown): number {
  const ms = value instanceof Date ? value.getTime() : Number.NaN;
  if (!Number.isInteger(ms) || ms < 0 || ms >= MAX_FILTER_MS)
    throw new ValidationError(
      `${entity}: ${option} must be a valid Date from 1970 on, got ${value instanceof Date ? 'an invalid Date' : preview(value)}. Fix: pass a Date, e.g. new Date('2026-11-01T00:00:00Z')`,
      { entity, option },
    );
  return ms;
}
