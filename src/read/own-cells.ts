import type { CellData, RowData } from '../model/driver.js';

/**
 * A family's columns in a row, counting only what the row holds: a family
 * named `constructor` that the row lacks is `undefined`, not `Object`
 * (see `inheritedName`).
 * @internal
 */
export function ownFamily(row: RowData, family: string): Readonly<Record<string, readonly CellData[]>> | undefined {
  return Object.hasOwn(row.cells, family) ? row.cells[family] : undefined;
}

/**
 * A column's cells among a family's columns, counting only what the family holds.
 * @internal
 */
export function ownColumn(
  columns: Readonly<Record<string, readonly CellData[]>> | undefined,
  qualifier: string,
): readonly CellData[] | undefined {
  return columns !== undefined && Object.hasOwn(columns, qualifier) ? columns[qualifier] : undefined;
}

/**
 * A column's cells in a row (newest first), counting only what the row holds.
 * @internal
 */
export function ownCells(row: RowData, family: string, qualifier: string): readonly CellData[] | undefined {
  return ownColumn(ownFamily(row, family), qualifier);
}
