import { decodeRowKey, encodeRowKey } from '../key/physical-key.js';
import type { KeySchema } from '../key/logical-key.js';
import { previousLayout } from '../key/previous-layout.js';
import type { BigtableDriver, CallOptions, RowData } from '../model/driver.js';
import type { CellMutation } from '../model/mutation.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { resaltMark } from '../metadata/resalt-mark.js';

/** Moves in flight at once. @internal */
export const COPY_CONCURRENCY = 16;

/**
 * Moves one row of the previous layout to its new key in two single-row steps: copies its cells (with
 * their timestamps, and the move mark) only if the new row holds no cell at all, then deletes the old row.
 * While re-salting, every write to a new row carries the mark ({@link resaltMark}), so a new row never
 * becomes empty again once touched: a copy made from an old read can never overwrite, nor bring back,
 * what a later write or delete did, and deleting the old row after the copy step is always safe (the new
 * row then holds the truth). Another mover, a second run or the write paths (`save`, `update`, `replace`,
 * `increment`, `saveIf`, which move a row this way before they change it) can run it at the same time.
 * The argument is in docs/salting.md.
 * @internal
 */
export async function moveRow(
  driver: BigtableDriver,
  schema: EntitySchema,
  row: RowData,
  call: CallOptions,
): Promise<{ existed: boolean; removed: boolean }> {
  const rowKey = encodeRowKey(schema, decodeRowKey(schema, row.key)).key;
  const cells = [...cellsOf(row), resaltMark(Date.now() * 1000)];
  const existed = await driver.checkAndMutate(
    { table: schema.table, rowKey, predicate: undefined, onMatch: [], onNoMatch: cells },
    call,
  );
  const removed = await driver.checkAndMutate(
    { table: schema.table, rowKey: row.key, predicate: undefined, onMatch: [{ kind: 'deleteFromRow' }], onNoMatch: [] },
    call,
  );
  return { existed, removed };
}

/**
 * While re-salting, moves the rows of these keys that are still under their previous key ({@link moveRow}),
 * reading the old keys with one ReadRows and moving at most {@link COPY_CONCURRENCY} rows at once. Nothing
 * to do when no previous layout is declared, or where both layouts give a key the same row key.
 * @internal
 */
export async function moveFromPreviousLayout(
  driver: BigtableDriver,
  schema: EntitySchema,
  keys: readonly Record<string, unknown>[],
  call: CallOptions,
): Promise<void> {
  const previous = previousLayout(schema);
  if (previous === undefined) return;
  const oldKeys: Buffer[] = [];
  for (const key of keys) {
    const oldKey = tryEncode(previous, key);
    // A key that does not encode is left to the write, which reports it.
    if (oldKey !== undefined && !oldKey.equals(tryEncode(schema, key) ?? oldKey)) oldKeys.push(oldKey);
  }
  if (oldKeys.length === 0) return;
  const rows: RowData[] = [];
  for await (const batch of driver.readRows({ table: schema.table, keys: oldKeys }, call)) rows.push(...batch);
  for (let i = 0; i < rows.length; i += COPY_CONCURRENCY)
    await Promise.all(rows.slice(i, i + COPY_CONCURRENCY).map((row) => moveRow(driver, schema, row, call)));
}

function tryEncode(schema: KeySchema, key: Record<string, unknown>): Buffer | undefined {
  try {
    return encodeRowKey(schema, key).key;
  } catch {
    return undefined;
  }
}

/** Entities per ReadRows of {@link movedFirst}. */
const MOVE_FIRST_CHUNK = 500;

/**
 * The entities of a bulk save, each chunk of up to 500 yielded only after the rows it writes were moved
 * from their previous key (while re-salting; otherwise the input as it is).
 * @internal
 */
export function movedFirst<T>(
  driver: BigtableDriver,
  schema: EntitySchema,
  entities: Iterable<T> | AsyncIterable<T>,
  call: CallOptions,
): Iterable<T> | AsyncIterable<T> {
  if (previousLayout(schema) === undefined) return entities;
  return (async function* () {
    let chunk: T[] = [];
    const flush = async function* () {
      await moveFromPreviousLayout(driver, schema, chunk as Record<string, unknown>[], call);
      yield* chunk;
      chunk = [];
    };
    for await (const entity of entities) {
      chunk.push(entity);
      if (chunk.length >= MOVE_FIRST_CHUNK) yield* flush();
    }
    if (chunk.length > 0) yield* flush();
  })();
}

function cellsOf(row: RowData): CellMutation[] {
  const cells: CellMutation[] = [];
  for (const [family, columns] of Object.entries(row.cells))
    for (const [qualifier, versions] of Object.entries(columns))
      for (const v of versions)
        cells.push({ kind: 'setCell', family, qualifier, timestampMicros: v.timestampMicros, value: v.value });
  return cells;
}
