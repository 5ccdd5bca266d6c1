import type { KeyRange, ReadRowsRequest } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';
import { compareCells, type Cell } from './in-memory-cells.js';

/**
 * A stored row: its key and its cells in Bigtable's order (family, qualifier
 * bytes, newest first). Never empty while stored.
 *
 * @example
 * ```ts
 * const row: StoredRow = { key: Buffer.from('r1'), cells: [cell] };
 * ```
 * @internal
 */
export interface StoredRow {
  readonly key: Buffer;
  readonly cells: readonly Cell[];
}

/**
 * A row key as a binary string (one char per byte): JS string order is then
 * byte order.
 *
 * @example
 * ```ts
 * toId(Buffer.from([0xff])) > toId('a'); // true
 * ```
 * @internal
 */
export function toId(key: Buffer | string): string {
  return (typeof key === 'string' ? Buffer.from(key, 'utf8') : key).toString('latin1');
}

/** The first index of `ids` (sorted) whose id is >= `id` (or > `id` when `after`). */
function lowerBound(ids: readonly string[], id: string, after: boolean): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid] as string;
    if (at < id || (after && at === id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `id` is at or before the end of `range`. */
function beforeEnd(id: string, range: KeyRange): boolean {
  if (range.end === undefined) return true;
  const end = toId(range.end.key);
  return id < end || (id === end && range.end.inclusive);
}

/**
 * One table of the in-memory Bigtable: its families (with their GC rules) and
 * its rows, kept in key order. Writes are O(1); the first read after writes
 * merges the new keys into the sorted index (O(n + k log k)), and a read of
 * keys or ranges finds them by binary search. The sorted index is replaced,
 * never changed in place, so a read in progress keeps the key list it started
 * with (and sees the current cells of each row when it reaches it).
 *
 * @example
 * ```ts
 * const table = new MemoryTable(new Map([['m', undefined]]));
 * table.put(toId(key), key, cells);
 * for (const id of table.select({ table: 't' })) table.get(id);
 * ```
 * @internal
 */
export class MemoryTable {
  /** Families and GC rules of a table created through the admin API; `undefined` for a table born of a write (any family goes). */
  families: Map<string, GcRule | undefined> | undefined;
  readonly #rows = new Map<string, StoredRow>();
  #sorted: readonly string[] = [];
  /** Ids stored since the index was last sorted (may repeat, or be in `#sorted` already, or be gone again). */
  #added: string[] = [];
  /** Rows were deleted since the index was last sorted. */
  #deleted = false;

  constructor(families: Map<string, GcRule | undefined> | undefined) {
    this.families = families;
  }

  /** The stored row, or undefined. */
  get(id: string): StoredRow | undefined {
    return this.#rows.get(id);
  }

  /** Every stored row with its id, in no particular order. */
  entries(): IterableIterator<[string, StoredRow]> {
    return this.#rows.entries();
  }

  /** Stores the row's cells, sorted into Bigtable's order; a row without cells is deleted. */
  put(id: string, key: Buffer, cells: readonly Cell[]): void {
    if (cells.length === 0) {
      if (this.#rows.delete(id)) this.#deleted = true;
      return;
    }
    const sorted = [...cells].sort(compareCells);
    const existing = this.#rows.get(id);
    this.#rows.set(id, { key: existing?.key ?? Buffer.from(key), cells: sorted });
    if (existing === undefined) this.#added.push(id);
  }

  /** The family names that occur in the rows. */
  familiesInRows(): string[] {
    const names = new Set<string>();
    for (const row of this.#rows.values()) for (const cell of row.cells) names.add(cell.family);
    return [...names];
  }

  /** Every row id in key order (an array that is never changed afterwards). */
  ids(): readonly string[] {
    if (this.#added.length === 0 && !this.#deleted) return this.#sorted;
    const rows = this.#rows;
    const kept = this.#deleted ? this.#sorted.filter((id) => rows.has(id)) : this.#sorted;
    const added = this.#added.filter((id) => rows.has(id)).sort();
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < added.length) {
      const a = kept[i];
      const b = added[j];
      const next = b === undefined || (a !== undefined && a <= b) ? a : b;
      if (next === a) i += 1;
      else j += 1;
      if (merged[merged.length - 1] !== next) merged.push(next as string);
    }
    this.#sorted = merged;
    this.#added = [];
    this.#deleted = false;
    return merged;
  }

  /** The ids a read selects, in key order (descending when `reversed`): every row without `keys` and `ranges`, otherwise those keys and ranges, each row once. */
  select(request: ReadRowsRequest): readonly string[] {
    const ids = this.ids();
    let selected: readonly string[] = ids;
    if (request.keys !== undefined || request.ranges !== undefined) {
      const at = new Set<number>();
      for (const key of request.keys ?? []) {
        const id = toId(key);
        const index = lowerBound(ids, id, false);
        if (ids[index] === id) at.add(index);
      }
      for (const range of request.ranges ?? []) {
        const start = toId(range.start.key);
        for (let index = lowerBound(ids, start, !range.start.inclusive); index < ids.length; index += 1) {
          if (!beforeEnd(ids[index] as string, range)) break;
          at.add(index);
        }
      }
      selected = [...at].sort((a, b) => a - b).map((index) => ids[index] as string);
    }
    return request.reversed === true ? [...selected].reverse() : selected;
  }
}
