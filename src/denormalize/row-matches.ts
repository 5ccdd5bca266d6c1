import type { RowData } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { keyPropertyComponent } from '../metadata/compile-key-plan.js';
import { latestCell } from './copy-diff.js';
import { ownCells } from '../scan/own-cells.js';

/**
 * Whether a row of a full-scan propagation belongs to the source: every
 * mapped key part or column holds the source's key value (compared as encoded
 * text or bytes, so a Date and a number compare exactly).
 * @internal
 * @example
 * ```ts
 * rowMatches(schema, { sensorId: 's1' }, decodeRowKey(schema, row.key), row); // true
 * ```
 */
export function rowMatches(
  schema: EntitySchema,
  match: Readonly<Record<string, unknown>>,
  key: Readonly<Record<string, unknown>>,
  row: RowData,
): boolean {
  return Object.entries(match).every(([property, expected]) => {
    const component = keyPropertyComponent(schema.key.components, property);
    if (component !== undefined)
      return key[property] !== undefined && component.codec.encode(key[property]) === component.codec.encode(expected);
    const column = schema.columnsByProperty[property];
    const cell = column === undefined ? undefined : latestCell(ownCells(row, column.family, column.qualifier));
    return column !== undefined && cell !== undefined && cell.value.equals(column.codec.encode(expected));
  });
}
