import type { BigtableDriver, CallOptions } from '../model/driver.js';
import type { CellMutation } from '../model/mutation.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { RowFilter } from '../model/row-filter.js';
import { dataCellsFilter, marksWrites } from '../metadata/resalt-mark.js';
import { pushCopyCells } from '../mutation/compile-cells.js';
import { sameCopyValue, type FilledCopy, type SourceResolver } from './fill-copies.js';

/**
 * The condition of every copy rewrite: the row still exists. A row deleted
 * since it was read has no cell, so nothing is written and it is not
 * re-created; while re-salting (`marksWrites`), a tombstone's mark alone is
 * no row. Nothing else is compared, in particular no timestamp: which value a
 * copy ends with is settled by reading the source again after writing it
 * (docs/denormalization.md).
 * @internal
 * @example
 * ```ts
 * rowExists(schema); // { kind: 'passAll' }
 * ```
 */
export function rowExists(schema: EntitySchema): RowFilter {
  return marksWrites(schema) ? dataCellsFilter(schema.families) : { kind: 'passAll' };
}

/**
 * The mutations that make a row's copies hold `values` (dependent property →
 * value, `null` clears): each copy written whole ({@link pushCopyCells}).
 * @internal
 */
export function copyRewrite(
  schema: EntitySchema,
  values: ReadonlyMap<string, unknown>,
  timestampMicros: number,
): CellMutation[] {
  const mutations: CellMutation[] = [];
  for (const [property, value] of values)
    pushCopyCells(schema, schema.columnsByProperty[property] as ColumnSchema, value, timestampMicros, mutations);
  return mutations;
}

/**
 * Finishes a single-row write of filled copies, once the server confirmed it:
 * reads each copy's source again and, while one holds another value than the
 * copy written, rewrites those copies with the new value under
 * {@link rowExists} and reads again. A source that changed before the
 * write landed may have had its propagation scan pass this row already;
 * this second read is after the write, so either it sees the change or the
 * change (and the propagation that follows it) comes after the write. A
 * source row deleted since is left alone, and so is a row deleted since.
 * `call` bounds and cancels every read and write.
 * @internal
 */
export async function settleCopies(
  driver: BigtableDriver,
  schema: EntitySchema,
  rowKey: Buffer,
  fills: readonly FilledCopy[],
  sources: SourceResolver,
  call: CallOptions,
  nowMs: () => number,
): Promise<void> {
  let pending = fills;
  while (pending.length > 0) {
    const changed: FilledCopy[] = [];
    for (const source of new Set(pending.map((f) => f.copy.source))) {
      const ofSource = pending.filter((f) => f.copy.source === source);
      const ids = [...new Set(ofSource.map((f) => f.sourceId))];
      const keys = ids.map((id) => (ofSource.find((f) => f.sourceId === id) as FilledCopy).sourceKey);
      const select = [...new Set(ofSource.map((f) => f.copy.field))];
      const found = await sources(source).findMany(keys, { select, signal: call.signal });
      for (const fill of ofSource) {
        const now = found[ids.indexOf(fill.sourceId)] as Record<string, unknown> | undefined;
        if (now === undefined) continue;
        const value = now[fill.copy.field] ?? null;
        if (!sameCopyValue(schema, fill.copy, fill.value, value)) changed.push({ ...fill, value });
      }
    }
    if (changed.length === 0) return;
    const values = new Map(changed.map((f) => [f.copy.property, f.value]));
    const applied = await driver.checkAndMutate(
      {
        table: schema.table,
        rowKey,
        predicate: rowExists(schema),
        onMatch: copyRewrite(schema, values, nowMs() * 1000),
        onNoMatch: [],
      },
      call,
    );
    if (!applied) return;
    pending = changed;
  }
}
