import { decodeEmbedded } from '../codec/embedded-codec.js';
import { decodeRowKey } from '../key/physical-key.js';
import type { CellData, RowData } from '../model/driver.js';
import type { ValueCodec } from '../codec/codec-contracts.js';
import type { ColumnPlan, EntitySchema } from '../metadata/entity-schema.js';
import type { GcRule } from '../model/gc-rule.js';
import { survivesGc } from './gc-enforce.js';
import { hydratePlan } from './hydrate-plan.js';
import { ownColumn, ownFamily } from './own-cells.js';
import type { ResolvedRead } from './read-options.js';

type FamilyCells = RowData['cells'][string];

/**
 * Builds a typed entity from a row: key parts decoded from the row key, each
 * selected column decoded by its codec (versioned columns as
 * `{ value, timestamp }[]`, newest first; a `flatten` column rebuilt from its
 * field cells), cells condemned by the family's GC
 * policy skipped, and `@CellTimestamp()` set to the newest cell's time (`@Denormalized` copies left out).
 * @internal
 */
export function hydrate<T>(schema: EntitySchema<T>, row: RowData, read: ResolvedRead, nowMicros: number): T {
  const plan = read.plan.schema === schema ? read.plan : hydratePlan(schema as EntitySchema, read.columns);
  const entity = instantiate(schema.target) as Record<string, unknown>;
  Object.assign(entity, decodeRowKey(schema, row.key));
  let newest = -1;
  for (const columnPlan of plan.columns) {
    const { column, gc, inherited, copy } = columnPlan;
    const family = inherited ? ownFamily(row, column.family) : row.cells[column.family];
    if (column.layout === 'flatten') {
      const time = hydrateEmbedded(schema.name, columnPlan, family, entity, nowMicros);
      if (!copy) newest = Math.max(newest, time);
      continue;
    }
    const cells = inherited ? ownColumn(family, column.qualifier) : family?.[column.qualifier];
    if (cells === undefined || cells.length === 0) continue;
    if (column.versioned) {
      const live = gc === undefined ? cells : liveCells(gc, cells, nowMicros);
      if (live.length === 0) continue;
      if (!copy) newest = Math.max(newest, (live[0] as CellData).timestampMicros);
      entity[column.property] = live
        .slice(0, read.versions[column.property] ?? column.versions)
        .map(toVersion, column.codec);
      continue;
    }
    const first = gc === undefined ? 0 : firstLive(gc, cells, nowMicros);
    if (first < 0) continue;
    const cell = cells[first] as CellData;
    // Aggregate cells sit at timestamp 0 whenever they were written: they say nothing of the row's time.
    if (!copy && column.aggregate === undefined) newest = Math.max(newest, cell.timestampMicros);
    entity[column.property] = column.codec.decode(cell.value);
  }
  if (schema.cellTimestamp !== undefined && newest >= 0)
    entity[schema.cellTimestamp] = new Date(Math.floor(newest / 1000));
  return entity as T;
}

/** Rebuilds a `flatten` column from its field cells; returns the newest field cell's time (-1 when none). */
function hydrateEmbedded(
  entityName: string,
  { column, gc, inherited }: ColumnPlan,
  family: FamilyCells | undefined,
  entity: Record<string, unknown>,
  nowMicros: number,
): number {
  const latest = new Map<string, Buffer>();
  let newest = -1;
  for (const field of column.fields ?? []) {
    const cells = inherited ? ownColumn(family, field.qualifier) : family?.[field.qualifier];
    if (cells === undefined || cells.length === 0) continue;
    const first = gc === undefined ? 0 : firstLive(gc, cells, nowMicros);
    if (first < 0) continue;
    const cell = cells[first] as CellData;
    latest.set(field.qualifier, cell.value);
    newest = Math.max(newest, cell.timestampMicros);
  }
  const value = decodeEmbedded({ entity: entityName, property: column.property }, column, latest);
  if (value !== undefined) entity[column.property] = value;
  return newest;
}

/** A versioned column's entry; `this` is the column's codec. */
function toVersion(this: ValueCodec, cell: CellData): { value: unknown; timestamp: Date } {
  return { value: this.decode(cell.value), timestamp: new Date(cell.timestampMicros / 1000) };
}

/** Index of the newest cell the GC rule keeps, -1 when it condemns them all. */
function firstLive(rule: GcRule, cells: readonly CellData[], nowMicros: number): number {
  for (let i = 0; i < cells.length; i++)
    if (survivesGc(rule, i, (cells[i] as CellData).timestampMicros, nowMicros)) return i;
  return -1;
}

/** The cells the GC rule keeps, in order. */
function liveCells(rule: GcRule, cells: readonly CellData[], nowMicros: number): CellData[] {
  const live: CellData[] = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as CellData;
    if (survivesGc(rule, i, cell.timestampMicros, nowMicros)) live.push(cell);
  }
  return live;
}

/**
 * A new instance of an entity class: its constructor runs when it takes no
 * arguments (so field initializers apply) and does not throw; otherwise an
 * object with the class's prototype, so `instanceof` holds either way.
 * @internal
 */
export function instantiate(target: Function): object {
  if (target.length === 0) {
    try {
      return new (target as new () => object)();
    } catch {
      return Object.create(target.prototype as object) as object;
    }
  }
  return Object.create(target.prototype as object) as object;
}
