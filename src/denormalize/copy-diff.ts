import type { CellData, RowData } from '../model/driver.js';
import { cellQualifiers } from '../metadata/column-cells.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import { compileColumnValue } from '../mutation/compile-cells.js';
import type { CellMutation } from '../model/mutation.js';
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
 * (so a second propagation writes nothing); otherwise delete every cell of the
 * copy and write the new value at `versionMicros`, the propagation's version.
 * They are sent under `copyPredicate`, so the delete only ever removes
 * versions older than that one.
 * @internal
 * @example
 * ```ts
 * copyMutations(schema, [schema.columnsByProperty.location], { location: 'lab-2' }, row, 1700000000000000);
 * // [{ kind: 'deleteFromColumn', ... }, { kind: 'setCell', ..., timestampMicros: 1700000000000000 }] or [] when unchanged
 * ```
 */
export function copyMutations(
  schema: EntitySchema,
  columns: readonly ColumnSchema[],
  values: Readonly<Record<string, unknown>>,
  row: RowData,
  versionMicros: number,
): CellMutation[] {
  const mutations: CellMutation[] = [];
  for (const column of columns) {
    const current = new Map<string, CellData>();
    for (const q of cellQualifiers(column)) {
      const cell = latestCell(ownCells(row, column.family, q));
      if (cell !== undefined) current.set(q, cell);
    }
    const desired = compileColumnValue(schema, column, values[column.property], versionMicros).filter(
      (m) => m.kind === 'setCell',
    );
    const same =
      desired.length === current.size &&
      desired.every((m) => m.kind === 'setCell' && current.get(m.qualifier)?.value.equals(m.value) === true);
    if (same) continue;
    for (const q of cellQualifiers(column))
      mutations.push({ kind: 'deleteFromColumn', family: column.family, qualifier: q });
    mutations.push(...desired);
  }
  return mutations;
}
