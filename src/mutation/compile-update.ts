import { encodeRowKey } from '../key/physical-key.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { compileColumnValue, rowTimestampMicros } from './compile-cells.js';
import type { CellMutation, CompiledMutation } from '../model/mutation.js';
import type { CompileWriteOptions } from './compile-save.js';
import { asRecord } from '../util/entity-record.js';
import { checkRowSize } from './request-limits.js';
import { marksWrites, resaltMark } from '../metadata/resalt-mark.js';
import { checkChanges } from './validate-values.js';

/**
 * Compiles `update(key, partial)`: writes only the given columns; `null`
 * deletes that cell (on an aggregate column: resets its total); `undefined`
 * leaves it alone. A value on an aggregate column is a `ValidationError`
 * (`add()` writes those). Key parts cannot change.
 * The `validate` validators of the key parts and of the columns given run
 * first: their issues are one `ValidationError`.
 * @internal
 */
export function compileUpdate<T>(
  schema: EntitySchema<T>,
  key: Record<string, unknown>,
  partial: Partial<T>,
  options: CompileWriteOptions = {},
): CompiledMutation {
  const keyRecord = asRecord(schema, key);
  const changes = asRecord(schema, partial);
  if (options.checked !== true) checkChanges(schema, keyRecord, changes);
  const { key: rowKey, text } = encodeRowKey(schema, keyRecord);
  const mutations: CellMutation[] = [];
  const now = options.now ?? Date.now();
  const micros = rowTimestampMicros(schema, changes, now);
  for (const [property, value] of Object.entries(changes)) {
    if (schema.key.properties.includes(property)) {
      if (value === undefined || sameKeyValue(value, key[property])) continue;
      throw new ValidationError(
        `${schema.name}.${property}: key parts cannot be updated. Fix: save the entity under its new key and delete the old row`,
        { entity: schema.name, property },
      );
    }
    if (property === schema.cellTimestamp) continue;
    const column = schema.columnsByProperty[property];
    if (column === undefined) {
      throw new ValidationError(
        `${schema.name}.${property}: not a column. Fix: update one of ${schema.columns.map((c) => c.property).join(', ')}`,
        { entity: schema.name, property },
      );
    }
    if (column.aggregate !== undefined && value !== null && value !== undefined) {
      throw new ValidationError(
        `${schema.name}.${property}: is a column of the '${column.aggregate}' aggregate family '${column.family}', which update() cannot set. Fix: add to it with repo.add(key, { ${property}: n }), or pass null to reset it`,
        { entity: schema.name, property },
      );
    }
    mutations.push(...compileColumnValue(schema, column, value, micros));
  }
  if (mutations.length === 0) {
    throw new ValidationError(
      `${schema.name} ${JSON.stringify(text)}: update has no column to write or delete. Fix: pass at least one column value (null deletes a cell)`,
      { entity: schema.name, rowKey: text },
    );
  }
  if (marksWrites(schema)) mutations.push(resaltMark(now * 1000));
  checkRowSize(schema.name, text, rowKey, mutations);
  return deepFreeze({ table: schema.table, rowKey, rowKeyText: text, mutations, idempotent: true });
}

/**
 * Compiles `delete(key)`: removes the whole row. While re-salting, the move mark stays in the row as a
 * tombstone ({@link resaltMark}), so a move that read the old row before cannot bring it back.
 * @internal
 */
export function compileDelete<T>(
  schema: EntitySchema<T>,
  key: Record<string, unknown>,
  options: CompileWriteOptions = {},
): CompiledMutation {
  const { key: rowKey, text } = encodeRowKey(schema, asRecord(schema, key));
  const mutations: CellMutation[] = [{ kind: 'deleteFromRow' }];
  if (marksWrites(schema)) mutations.push(resaltMark((options.now ?? Date.now()) * 1000));
  return deepFreeze({
    table: schema.table,
    rowKey,
    rowKeyText: text,
    mutations,
    idempotent: true,
  });
}

function sameKeyValue(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}
