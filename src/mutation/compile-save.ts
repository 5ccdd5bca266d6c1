import { encodeRowKey } from '../key/physical-key.js';
import { ValidationError } from '../errors/errors.js';
import { COMPILED, type EntitySchema } from '../metadata/entity-schema.js';
import { pushColumnCells, pushCopyCells, rowTimestampMicros } from './compile-cells.js';
import type { CellMutation, CompiledMutation } from '../model/mutation.js';
import { MAX_MUTATIONS_PER_REQUEST } from './batch.js';
import { checkRowSize } from './request-limits.js';
import { marksWrites, resaltMark } from '../metadata/resalt-mark.js';
import { checkValues } from './validate-values.js';
import { asRecord } from '../util/entity-record.js';

/** Options of the write compilers. @internal */
export interface CompileWriteOptions {
  /** Milliseconds used as the cell timestamp when the entity has no `@CellTimestamp`. Default `Date.now()`. */
  now?: number;
  /**
   * Freeze the mutation, its list and its cells. Default true: a plan handed
   * to the caller cannot change under them. Bulk writes, whose plans only the
   * driver sees, skip it (a tenth of a row's compile time).
   */
  frozen?: boolean;
  /**
   * The values already passed their `validate` validators (the repository
   * checks them before it moves a row or reads copies' sources), so they are
   * not run again. Default false: the validators run first.
   */
  checked?: boolean;
  /**
   * String cells keep their value as text and make its bytes only when read
   * (`TextValue`): for a bulk writer whose driver encodes each row as
   * it accepts it, writing the text into the request. Default false.
   */
  textValues?: boolean;
}

/**
 * Compiles `save(entity)`: one atomic row mutation writing every defined
 * column with an explicit timestamp (so a retry writes the same cells).
 * `mode: 'replace'` first deletes the row's other cells in the same mutation.
 * While re-salting, the write also carries the move mark ({@link resaltMark}).
 * Columns of aggregate families are left out (their values are totals read
 * back, which `compileAdd` adds to; writing them again would count twice).
 * The `validate` validators of the key parts and columns run first, on the
 * values as given: their issues are one `ValidationError`.
 * @internal
 */
export function compileSave<T>(
  schema: EntitySchema<T>,
  entity: T,
  options: CompileWriteOptions & { mode?: 'save' | 'replace' } = {},
): CompiledMutation {
  const record = asRecord(schema, entity);
  if (options.checked !== true) checkValues(schema, record);
  const { key, text } = encodeRowKey(schema, record);
  const now = options.now ?? Date.now();
  const micros = rowTimestampMicros(schema, record, now);
  // Copies carry the time they were written, like the copies propagate() writes (a read's @CellTimestamp leaves them out).
  const copyMicros = schema.cellTimestamp !== undefined && schema.denormalized.length > 0 ? now * 1000 : micros;
  const cells: CellMutation[] = [];
  let writes = false;
  const columns = schema[COMPILED].columns;
  for (let i = 0; i < columns.length; i++) {
    const { column, copy } = columns[i] as (typeof columns)[number];
    // An aggregate column holds a total the server folds: add() writes it, a save leaves it alone.
    if (column.aggregate !== undefined) continue;
    const value = record[column.property];
    if (
      copy
        ? pushCopyCells(schema, column, value, copyMicros, cells)
        : pushColumnCells(schema, column, value, micros, cells, options.textValues)
    )
      writes = true;
  }
  if (!writes) {
    throw new ValidationError(
      `${schema.name} ${JSON.stringify(text)}: nothing to write, every column is undefined or null. Fix: set at least one column (a Bigtable row exists only while it has a cell), or use delete()`,
      { entity: schema.name, rowKey: text },
    );
  }
  const mutations: CellMutation[] =
    options.mode === 'replace' ? [{ kind: 'deleteFromRow' }, ...cells.filter((c) => c.kind === 'setCell')] : cells;
  if (marksWrites(schema)) mutations.push(resaltMark(now * 1000));
  if (mutations.length > MAX_MUTATIONS_PER_REQUEST) {
    throw new ValidationError(
      `${schema.name} ${JSON.stringify(text)}: ${mutations.length} cell mutations exceed Bigtable's ${MAX_MUTATIONS_PER_REQUEST} per row write. Fix: write fewer versions per save`,
      { entity: schema.name, rowKey: text },
    );
  }
  checkRowSize(schema.name, text, key, mutations);
  const mutation: CompiledMutation = {
    table: schema.table,
    rowKey: key,
    rowKeyText: text,
    mutations,
    idempotent: true,
  };
  return options.frozen === false ? mutation : freezeMutation(mutation);
}

/**
 * Freezes a freshly built mutation, its list and every cell mutation: the
 * same result as `deepFreeze` for this shape (values are Buffers, which are
 * never frozen) at a fraction of its cost on the bulk-write hot path.
 */
function freezeMutation(mutation: CompiledMutation): CompiledMutation {
  for (const cell of mutation.mutations) Object.freeze(cell);
  Object.freeze(mutation.mutations);
  return Object.freeze(mutation);
}
