import type { BigtableMapper } from '../../../src/index.js';
import { rawKeys, rawRow, type RawRow } from '../../fixtures/entities.js';

/**
 * Every row of a table as stored (every version of every cell), read through
 * the raw client, by row key text.
 *
 * @example
 * ```ts
 * const before = await rawRows(mapper, E.tables.readings);
 * ```
 */
export async function rawRows(mapper: BigtableMapper, table: string): Promise<Map<string, RawRow>> {
  const rows = new Map<string, RawRow>();
  for (const key of await rawKeys(mapper, table)) {
    const row = await rawRow(mapper, table, key);
    if (row !== undefined) rows.set(key, row);
  }
  return rows;
}

/**
 * A raw row's cells as comparable text, `family:qualifier@micros=value` (hex).
 *
 * @example
 * ```ts
 * cellsText(row); // ['m:temperature@1700000000000000=4034...', ...]
 * ```
 */
export function cellsText(row: RawRow | undefined): string[] {
  return (row?.cells ?? []).map((c) => `${c.family}:${c.qualifier}@${c.timestampMicros}=${c.value.toString('hex')}`);
}
