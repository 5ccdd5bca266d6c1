import type { CellData, RowData } from '../driver/driver.js';
import { cellQualifiers } from '../metadata/column-cells.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import { compileColumnValue } from '../mutation/compile-cells.js';
import type { CellMutation } from '../mutation/compiled-mutation.js';
import { ownCells } from '../scan/own-cells.js';

/**
 * The newest cell of a column as a propagation scan returns it. The scan
 * adds one stripped (empty) cell per column so that rows missing a copy show
 * up; at the newest timestamp the cell with a value wins (an empty value then
 * means the stored value is empty too).
 * @internal
 * @example
 * ```ts
 * latestCell(row.cells.meta?.location); // { value: <'lab'>, timestampMicros: 1700000000000000 }
 * ```
 */
export function latestCell(cells: readonly CellData[] | undefined): CellData | undefined {
  if (cells === undefined || cells.length === 0) return undefined;
  const newest = Math.max(...cells.map((c) => c.timestampMicros));
  const top = cells.filter((c) => c.timestampMicros === newest);
  return top.find((c) => c.value.length > 0) ?? top[0];
}

/**
 * The mutations that make a row's copies hold `values` (property → new value,
 * `null` clears): nothing for a copy that already holds exactly those bytes
 * (so a second propagation writes nothing); otherwise delete the copy's cells
 * and write the new ones, at the old copy's timestamp, or the row's newest
 * cell time when it had no copy (so `@CellTimestamp` keeps meaning event time).
 * @internal
 * @example
 * ```ts
 * copyMutations(schema, [schema.columnsByProperty.location], { location: 'lab-2' }, row);
 * // [{ kind: 'deleteFromColumn', ... }, { kind: 'setCell', ... }] or [] when unchanged
 * ```
 */
export function copyMutations(schema: EntitySchema, columns: readonly ColumnSchema[], values: Readonly<Record<string, unknown>>, row: RowData): CellMutation[] {
  const rowNewest = Math.max(-1, ...Object.values(row.cells).flatMap((family) => Object.values(family).flatMap((cells) => cells.map((c) => c.timestampMicros))));
  const mutations: CellMutation[] = [];
  for (const column of columns) {
    const current = new Map<string, CellData>();
    for (const q of cellQualifiers(column)) {
      const cell = latestCell(ownCells(row, column.family, q));
      if (cell !== undefined) current.set(q, cell);
    }
    const stamp = current.size > 0 ? Math.max(...[...current.values()].map((c) => c.timestampMicros)) : rowNewest >= 0 ? rowNewest : Date.now() * 1000;
    const desired = compileColumnValue(schema, column, values[column.property], stamp).filter((m) => m.kind === 'setCell');
    const same = desired.length === current.size && desired.every((m) => m.kind === 'setCell' && current.get(m.qualifier)?.value.equals(m.value) === true);
    if (same) continue;
    for (const q of current.keys()) mutations.push({ kind: 'deleteFromColumn', family: column.family, qualifier: q });
    mutations.push(...desired);
  }
  return mutations;
}
