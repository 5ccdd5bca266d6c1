import { encodeRowKey } from '../key/physical-key.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import { marksWrites, resaltMark } from '../metadata/resalt-mark.js';
import type { CellMutation, CompiledMutation } from '../model/mutation.js';
import { asRecord } from '../util/entity-record.js';
import { MAX_MUTATIONS_PER_REQUEST } from './batch.js';
import type { CompileWriteOptions } from './compile-save.js';
import { compileUpdate } from './compile-update.js';
import { checkKeyValues } from './validate-values.js';
import { checkRowSize } from './request-limits.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The timestamp of every aggregate cell the mapper writes: 0, so each column
 * of an aggregate family holds one cell, its running state.
 */
const AGGREGATE_CELL_MICROS = 0;

/**
 * Compiles `add(key, inputs, { changes })`: one atomic row write that adds
 * each input to its aggregate column (`addToCell` with an int64; for an `hll`
 * column, `mergeToCell` with a sketch given as bytes), after the sets and
 * deletes of `changes` (as `update` compiles them). The result is never
 * idempotent: the driver does not send it again after an unknown outcome.
 * @internal
 */
export function compileAdd<T>(
  schema: EntitySchema<T>,
  key: Record<string, unknown>,
  inputs: Record<string, unknown>,
  options: CompileWriteOptions & { changes?: Partial<T> | undefined } = {},
): CompiledMutation {
  const keyRecord = asRecord(schema, key);
  const given = asRecord(schema, inputs);
  const now = options.now ?? Date.now();
  const mutations: CellMutation[] = [];
  if (options.changes !== undefined) {
    mutations.push(...compileUpdate(schema, keyRecord, options.changes, { ...options, now }).mutations);
  } else {
    if (options.checked !== true) checkKeyValues(schema, keyRecord);
    if (marksWrites(schema)) mutations.push(resaltMark(now * 1000));
  }
  const { key: rowKey, text } = encodeRowKey(schema, keyRecord);
  let added = 0;
  for (const [property, value] of Object.entries(given)) {
    if (value === undefined) continue;
    mutations.push(aggregateCell(schema, aggregateColumn(schema, property), value));
    added++;
  }
  if (added === 0) {
    throw new ValidationError(
      `${schema.name} ${JSON.stringify(text)}: add has no input. Fix: pass at least one aggregate column, e.g. { ${aggregateColumns(schema)[0] ?? 'views'}: 1 }`,
      { entity: schema.name, rowKey: text },
    );
  }
  if (mutations.length > MAX_MUTATIONS_PER_REQUEST) {
    throw new ValidationError(
      `${schema.name} ${JSON.stringify(text)}: ${mutations.length} cell mutations exceed Bigtable's ${MAX_MUTATIONS_PER_REQUEST} per row write. Fix: split the write`,
      { entity: schema.name, rowKey: text },
    );
  }
  checkRowSize(schema.name, text, rowKey, mutations);
  for (const cell of mutations) Object.freeze(cell);
  return Object.freeze({
    table: schema.table,
    rowKey,
    rowKeyText: text,
    mutations: Object.freeze(mutations),
    idempotent: false,
  });
}

/** The aggregate column of `property`, or a `ValidationError` naming those there are. */
function aggregateColumn(schema: EntitySchema, property: string): ColumnSchema {
  const column = Object.hasOwn(schema.columnsByProperty, property) ? schema.columnsByProperty[property] : undefined;
  if (column?.aggregate !== undefined) return column;
  const names = aggregateColumns(schema);
  throw new ValidationError(
    `${schema.name}.${property}: add() takes only columns of aggregate families, and ${column === undefined ? 'this is not a column' : `'${column.family}' is a plain family`}. Fix: ${names.length > 0 ? `add to one of ${names.join(', ')}` : "declare @Family(name, { aggregate: 'sum' }) and put the column there"}${column === undefined ? '' : '; set plain columns in the changes option'}`,
    { entity: schema.name, property },
  );
}

function aggregateColumns(schema: EntitySchema): string[] {
  return schema.columns.filter((c) => c.aggregate !== undefined).map((c) => c.property);
}

/** One input as its cell mutation: an int64 `addToCell`, or an `hll` sketch's `mergeToCell`. */
function aggregateCell(schema: EntitySchema, column: ColumnSchema, value: unknown): CellMutation {
  const { family, qualifier } = column;
  if (column.aggregate === 'hll' && value instanceof Uint8Array) {
    if (value.length === 0) {
      throw new ValidationError(
        `${schema.name}.${column.property}: an empty sketch merges nothing. Fix: pass the bytes of a HyperLogLog++ sketch, or an int64 to add`,
        { entity: schema.name, property: column.property },
      );
    }
    const state = Buffer.from(value);
    return { kind: 'mergeToCell', family, qualifier, timestampMicros: AGGREGATE_CELL_MICROS, state };
  }
  if (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX)
  ) {
    const input = BigInt(value);
    return { kind: 'addToCell', family, qualifier, timestampMicros: AGGREGATE_CELL_MICROS, input };
  }
  throw new ValidationError(
    `${schema.name}.${column.property}: ${preview(value)} is not an int64 input for the '${column.aggregate}' aggregate. Fix: pass a safe integer or a bigint in the signed 64-bit range${column.aggregate === 'hll' ? ', or a sketch as a Uint8Array' : ''}`,
    { entity: schema.name, property: column.property },
  );
}
