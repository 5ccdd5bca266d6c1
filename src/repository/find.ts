import { encodeRowKey } from '../key/physical-key.js';
import { previousLayout } from '../key/previous-layout.js';
import type { BigtableDriver, CallOptions, RowData } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { hydrate } from '../read/hydrate.js';
import { planReadFilter } from '../read/read-filter.js';
import { resolveRead, type ReadOptions } from '../read/read-options.js';
import { asRecord } from '../util/entity-record.js';
import { ValidationError } from '../errors/errors.js';
import { isMarkOnly } from '../metadata/resalt-mark.js';

const KEYS_PER_READ = 1000;

/**
 * Reads rows by key: one ReadRows per chunk of up to 1,000 keys (one key per
 * logical row, salted or not), fetching only the selected columns and
 * versions. Results follow the input order; missing rows are `undefined`.
 * `call` bounds and cancels every read.
 * @internal
 */
export async function findByKeys<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  keys: readonly Record<string, unknown>[],
  options: ReadOptions<T> = {},
  call?: CallOptions,
  nowMs = Date.now(),
): Promise<(T | undefined)[]> {
  if (!Array.isArray(keys))
    throw new ValidationError(
      `${schema.name}: findMany needs an array of keys, got ${keys === null ? 'null' : typeof keys}. Fix: pass e.g. [{ ${schema.key.properties.join(', ')} }]`,
      { entity: schema.name },
    );
  const read = resolveRead(schema, options);
  // Keys are told apart by their bytes as one character per byte: ordered-code keys are not UTF-8.
  const records = Array.from(keys, (k) => asRecord(schema, k));
  const encoded = records.map((k) => encodeRowKey(schema, k).key.toString('latin1'));
  // While re-salting, a row not moved yet is under its previous key: read both, the current one wins.
  const previous = previousLayout(schema);
  const old = previous === undefined ? [] : records.map((k) => encodeRowKey(previous, k).key.toString('latin1'));
  const now = nowMs * 1000;
  const filter = planReadFilter(schema, read, now);
  const unique = [...new Set([...encoded, ...old])];
  const rows = new Map<string, RowData>();
  for (let i = 0; i < unique.length; i += KEYS_PER_READ) {
    const chunk = unique.slice(i, i + KEYS_PER_READ).map((k) => Buffer.from(k, 'latin1'));
    for await (const batch of driver.readRows({ table: schema.table, keys: chunk, filter }, call))
      for (const row of batch) rows.set(row.key.toString('latin1'), row);
  }
  return encoded.map((k, i) => {
    const row = rows.get(k) ?? (old[i] === undefined ? undefined : rows.get(old[i]));
    return row === undefined || isMarkOnly(row) ? undefined : hydrate(schema, row, read, now);
  });
}
