import type { CellData, RowData } from '../model/driver.js';

/**
 * A family's columns in a row, counting only what the row holds: a family
 * named `constructor` that the row lacks is `undefined`, not `Object`
 * (see `inheritedName`).
 * @internal
 * @example
 * ```ts
 * ownFamily(row, 'constructor'); // undefined unless the row has that family
 * ```
 */
export function ownFamily(row: RowData, family: string): Readonly<Record<string, readonly CellData[]>> | undefined {
  return Object.hasOwn(row.cells, family) ? row.cells[family] : undefined;
}

/**
 * A column's cells among a family's columns, counting only what the family holds.
 * @internal
 * @example
 * ```ts
 * ownColumn(ownFamily(row, 'a'), 'toString'); // undefined unless the family has that column
 * ```
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
 * @example
 * ```ts
 * const newest = ownCells(row, 'm', 'temp')?.[0];
 * ```
 */
export function ownCells(row: RowData, family: string, qualifier: string): readonly CellData[] | undefined {
  return ownColumn(ownFamily(row, family), qualifier);
}
