import { decodeEmbedded } from '../codec/embedded-codec.js';
import { decodeRowKey } from '../codec/physical-key.js';
import type { CellData, RowData } from '../driver/driver.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { GcRule } from '../schema/gc-rule-types.js';
import { survivesGc } from './gc-enforce.js';
import type { ResolvedRead } from './read-options.js';

/**
 * Builds a typed entity from a row: key parts decoded from the row key, each
 * selected column decoded by its codec (versioned columns as
 * `{ value, timestamp }[]`, newest first; a `flatten` column rebuilt from its
 * field cells), cells condemned by the family's GC
 * policy skipped, and `@CellTimestamp()` set to the newest cell's time.
 *
 * @example
 * ```ts
 * const reading = hydrate(schema, row, resolveRead(schema), Date.now() * 1000);
 * ```
 * @internal
 */
export function hydrate<T>(schema: EntitySchema<T>, row: RowData, read: ResolvedRead, nowMicros: number): T {
  const entity = instantiate(schema.target) as Record<string, unknown>;
  Object.assign(entity, decodeRowKey(schema, row.key));
  let newest = -1;
  for (const column of read.columns) {
    if (column.layout === 'flatten') {
      newest = Math.max(newest, hydrateEmbedded(schema, column, row, entity, nowMicros));
      continue;
    }
    const cells = liveCells(schema, column, row.cells[column.family]?.[column.qualifier], nowMicros);
    if (cells.length === 0) continue;
    newest = Math.max(newest, cells[0]?.timestampMicros ?? -1);
    if (column.versioned) {
      const n = read.versions[column.property] ?? column.versions;
      entity[column.property] = cells.slice(0, n).map((c) => ({ value: column.codec.decode(c.value), timestamp: new Date(c.timestampMicros / 1000) }));
    } else {
      entity[column.property] = column.codec.decode((cells[0] as CellData).value);
    }
  }
  if (schema.cellTimestamp !== undefined && newest >= 0) entity[schema.cellTimestamp] = new Date(Math.floor(newest / 1000));
  return entity as T;
}

/** Rebuilds a `flatten` column from its field cells; returns the newest field cell's time (-1 when none). */
function hydrateEmbedded(schema: EntitySchema, column: ColumnSchema, row: RowData, entity: Record<string, unknown>, nowMicros: number): number {
  const latest = new Map<string, Buffer>();
  let newest = -1;
  for (const field of column.fields ?? []) {
    const cell = liveCells(schema, column, row.cells[column.family]?.[field.qualifier], nowMicros)[0];
    if (cell === undefined) continue;
    latest.set(field.qualifier, cell.value);
    newest = Math.max(newest, cell.timestampMicros);
  }
  const value = decodeEmbedded({ entity: schema.name, property: column.property }, column, latest);
  if (value !== undefined) entity[column.property] = value;
  return newest;
}

function liveCells(schema: EntitySchema, column: ColumnSchema, cells: readonly CellData[] | undefined, nowMicros: number): readonly CellData[] {
  if (cells === undefined || cells.length === 0) return [];
  const rule = gcRulesOf(schema).get(column.family);
  if (rule === undefined) return cells;
  return cells.filter((c, i) => survivesGc(rule, i, c.timestampMicros, nowMicros));
}

const gcRules = new WeakMap<EntitySchema, ReadonlyMap<string, GcRule | undefined>>();

/** Each family's GC rule, looked up once per schema instead of once per cell. */
function gcRulesOf(schema: EntitySchema): ReadonlyMap<string, GcRule | undefined> {
  let rules = gcRules.get(schema);
  if (rules === undefined) {
    rules = new Map(schema.families.map((f) => [f.name, f.gc]));
    gcRules.set(schema, rules);
  }
  return rules;
}

function instantiate(target: Function): object {
  if (target.length === 0) {
    try {
      return new (target as new () => object)();
    } catch {
      return Object.create(target.prototype as object) as object;
    }
  }
  return Object.create(target.prototype as object) as object;
}
