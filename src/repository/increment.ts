import { encodeRowKey } from '../key/physical-key.js';
import type { BigtableDriver, CallOptions } from '../model/driver.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { asRecord } from '../util/entity-record.js';
import { ownCells } from '../read/own-cells.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Atomically adds `by` to a counter column (ReadModifyWriteRow; a missing
 * cell counts as 0) and returns the new value. Counters are `int` or `bigint`
 * columns (both stored as the int64 the server increments). Never retried,
 * since an increment is not idempotent. `call` bounds and cancels the request.
 *
 * Everything that can be wrong is checked before sending; once the server has
 * applied the increment, decoding its answer never rejects: a `bigint` column returns the
 * exact `bigint`; an `int` column returns a `number` while the value is a safe
 * integer and the exact `bigint` once it leaves ±2^53 (reads of that row give
 * the same `bigint`, see the `int` codec).
 * @internal
 */
export async function incrementColumn<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  key: Record<string, unknown>,
  field: string,
  by: number | bigint,
  call?: CallOptions,
): Promise<number | bigint> {
  const column =
    typeof field === 'string' && Object.hasOwn(schema.columnsByProperty, field)
      ? schema.columnsByProperty[field]
      : undefined;
  if (column === undefined || (column.type !== 'int' && column.type !== 'bigint')) {
    const counters = schema.columns.filter((c) => c.type === 'int' || c.type === 'bigint').map((c) => c.property);
    const name = typeof field === 'string' ? field : preview(field);
    throw new ValidationError(
      `${schema.name}.${name}: increment needs an 'int' or 'bigint' column. Fix: ${counters.length > 0 ? `increment one of ${counters.join(', ')}` : "declare the counter with @Column({ family, type: 'int' })"}`,
      { entity: schema.name, property: name },
    );
  }
  if (column.aggregate !== undefined) {
    throw new ValidationError(
      `${schema.name}.${field}: is a column of the '${column.aggregate}' aggregate family '${column.family}', which ReadModifyWrite cannot increment. Fix: add to it with repo.add(key, { ${field}: ${String(by)} })`,
      { entity: schema.name, property: field },
    );
  }
  const amount = checkAmount(schema.name, field, by);
  const { key: rowKey } = encodeRowKey(schema, asRecord(schema, key));
  const rules = [{ family: column.family, qualifier: column.qualifier, amount }];
  const row = await driver.increment({ table: schema.table, rowKey, rules }, call);
  const cell = ownCells(row, column.family, column.qualifier)?.[0];
  if (cell === undefined || cell.value.length !== 8) {
    throw new ValidationError(
      `${schema.name}.${field}: the server applied the increment but returned no int64 cell, so the new value is unknown. Fix: read the row to get it`,
      { entity: schema.name, property: field },
    );
  }
  const value = cell.value.readBigInt64BE();
  if (column.type === 'bigint') return value;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

function checkAmount(entity: string, field: string, by: unknown): bigint {
  if (
    (typeof by === 'number' && Number.isSafeInteger(by)) ||
    (typeof by === 'bigint' && by >= INT64_MIN && by <= INT64_MAX)
  )
    return BigInt(by);
  throw new ValidationError(
    `${entity}.${field}: increment amount ${preview(by)} must be a safe integer or a bigint in the signed 64-bit range. Fix: pass a whole number`,
    {
      entity,
      property: field,
    },
  );
}
