import type { CellData, RowData } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';
import type { RowFilter } from '../model/row-filter.js';

/**
 * One cell version held by the in-memory Bigtable.
 *
 * @example
 * ```ts
 * const cell: Cell = { family: 'm', qualifier: 'temp', timestampMicros: 1_700_000_000_000_000, value: Buffer.from('21') };
 * ```
 * @internal
 */
export interface Cell {
  readonly family: string;
  readonly qualifier: string;
  readonly timestampMicros: number;
  readonly value: Buffer;
}

/**
 * Bigtable's cell order: family, then qualifier bytes, then newest first.
 *
 * @example
 * ```ts
 * cells.sort(compareCells);
 * ```
 * @internal
 */
export function compareCells(a: Cell, b: Cell): number {
  if (a.family !== b.family) return a.family < b.family ? -1 : 1;
  if (a.qualifier !== b.qualifier) return Buffer.compare(Buffer.from(a.qualifier), Buffer.from(b.qualifier));
  return b.timestampMicros - a.timestampMicros;
}

const columnOf = (c: Cell): string => `${c.family}\u0000${c.qualifier}`;

/**
 * A row filter over one row's cells (in Bigtable's cell order), as Bigtable
 * applies it; no cell left means Bigtable omits the row. Family and qualifier
 * filters match exact names (the real driver sends them as escaped RE2
 * patterns, which match the same names).
 *
 * @example
 * ```ts
 * applyFilter({ kind: 'cellsPerColumn', limit: 1 }, row.cells); // the newest version of each column
 * ```
 * @internal
 */
export function applyFilter(filter: RowFilter, cells: readonly Cell[]): readonly Cell[] {
  switch (filter.kind) {
    case 'passAll':
      return cells;
    case 'blockAll':
      return [];
    case 'condition':
      return applyFilter(applyFilter(filter.test, cells).length > 0 ? filter.pass : filter.fail, cells);
    case 'chain':
      return filter.filters.reduce((acc, f) => applyFilter(f, acc), cells);
    case 'interleave':
      // Every branch's output, merged in cell order: a cell output by two branches comes twice, as on Bigtable.
      return filter.filters.flatMap((f) => applyFilter(f, cells)).sort(compareCells);
    case 'family':
      return cells.filter((c) => c.family === filter.name);
    case 'qualifiers':
      return cells.filter((c) => filter.names.includes(c.qualifier));
    case 'cellsPerColumn': {
      const seen = new Map<string, number>();
      return cells.filter((c) => {
        const column = columnOf(c);
        const n = (seen.get(column) ?? 0) + 1;
        seen.set(column, n);
        return n <= filter.limit;
      });
    }
    case 'timestampRange':
      return cells.filter(
        (c) =>
          (filter.startMicros === undefined || c.timestampMicros >= filter.startMicros) &&
          (filter.endMicros === undefined || c.timestampMicros < filter.endMicros),
      );
    case 'valueEquals':
      return cells.filter((c) => c.value.equals(filter.value));
    case 'stripValue':
      return cells.map((c) => ({ ...c, value: Buffer.alloc(0) }));
  }
}

/**
 * Whether a garbage-collection pass deletes a cell, given its position among
 * its column's versions (0 = newest): `maxVersions` keeps the newest `count`,
 * `maxAge` deletes cells older than `seconds`, a union deletes what any rule
 * deletes, an intersection what every rule deletes.
 *
 * @example
 * ```ts
 * condemned({ kind: 'maxVersions', count: 1 }, 1, ts, now); // true: the second-newest version goes
 * ```
 * @internal
 */
function condemned(rule: GcRule, index: number, timestampMicros: number, nowMicros: number): boolean {
  switch (rule.kind) {
    case 'maxVersions':
      return index >= rule.count;
    case 'maxAge':
      return timestampMicros < nowMicros - rule.seconds * 1_000_000;
    case 'union':
      return rule.rules.some((r) => condemned(r, index, timestampMicros, nowMicros));
    case 'intersection':
      return rule.rules.length > 0 && rule.rules.every((r) => condemned(r, index, timestampMicros, nowMicros));
  }
}

/**
 * The cells of a row (in Bigtable's cell order) that survive one
 * garbage-collection pass of their families' rules at `nowMicros`.
 *
 * @example
 * ```ts
 * const kept = collectCells(row.cells, new Map([['m', { kind: 'maxVersions', count: 2 }]]), Date.now() * 1000);
 * ```
 * @internal
 */
export function collectCells(
  cells: readonly Cell[],
  rules: ReadonlyMap<string, GcRule | undefined>,
  nowMicros: number,
): Cell[] {
  let column = '';
  let index = 0;
  return cells.filter((cell) => {
    const id = columnOf(cell);
    index = id === column ? index + 1 : 0;
    column = id;
    const rule = rules.get(cell.family);
    return rule === undefined || !condemned(rule, index, cell.timestampMicros, nowMicros);
  });
}

/**
 * A row as the driver returns it (`cells[family][qualifier]`, newest first),
 * with copies of the stored bytes so callers cannot change what is stored.
 *
 * @example
 * ```ts
 * const row: RowData = toRowData({ key, cells });
 * ```
 * @internal
 */
export function toRowData(row: { readonly key: Buffer; readonly cells: readonly Cell[] }): RowData {
  const cells: Record<string, Record<string, CellData[]>> = {};
  for (const c of row.cells)
    ((cells[c.family] ??= {})[c.qualifier] ??= []).push({
      value: Buffer.from(c.value),
      timestampMicros: c.timestampMicros,
    });
  return { key: Buffer.from(row.key), cells };
}
