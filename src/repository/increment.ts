import { encodeRowKey } from '../codec/physical-key.js';
import type { BigtableDriver } from '../driver/driver.js';
import { ValidationError } from '../errors/validation-error.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { asRecord } from '../mutation/compile-save.js';
import { ownCells } from '../scan/own-cells.js';

/**
 * Atomically adds `by` to an `int` counter column (ReadModifyWriteRow; a
 * missing cell counts as 0) and returns the new value. Never retried, since an
 * increment is not idempotent.
 * @internal
 */
export async function incrementColumn<T>(driver: BigtableDriver, schema: EntitySchema<T>, key: Record<string, unknown>, field: string, by: number | bigint): Promise<number> {
  const column = schema.columnsByProperty[field];
  if (column === undefined || column.type !== 'int') {
    const counters = schema.columns.filter((c) => c.type === 'int').map((c) => c.property);
    throw new ValidationError(`${schema.name}.${field}: increment needs an 'int' column. Fix: ${counters.length > 0 ? `increment one of ${counters.join(', ')}` : "declare the counter with @Column({ family, type: 'int' })"}`, { entity: schema.name, property: field });
  }
  if (!(typeof by === 'bigint' || Number.isSafeInteger(by))) {
    throw new ValidationError(`${schema.name}.${field}: increment amount ${String(by)} must be a safe integer or a bigint. Fix: pass a whole number`, { entity: schema.name, property: field });
  }
  const { key: rowKey } = encodeRowKey(schema, asRecord(schema, key));
  const row = await driver.increment(schema.table, rowKey, [{ family: column.family, qualifier: column.qualifier, amount: BigInt(by) }]);
  const cell = ownCells(row, column.family, column.qualifier)?.[0];
  if (cell === undefined) throw new ValidationError(`${schema.name}.${field}: the server returned no cell for the increment`, { entity: schema.name, property: field });
  return column.codec.decode(cell.value) as number;
}
