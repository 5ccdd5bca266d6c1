import type { RowData } from '../model/driver.js';
import type { CellMutation } from '../model/mutation.js';
import type { RowFilter } from '../model/row-filter.js';
import type { EntitySchema } from './entity-schema.js';

/**
 * The column family that holds the move mark of an entity being re-salted (`@Salt({ previous })`). `sync`
 * creates it (GC: one version) while a previous layout is declared and drops it once none is; entities
 * cannot declare it.
 * @internal
 */
export const RESALT_FAMILY = '_resalt';

const MARK_QUALIFIER = 'mark';

/**
 * While re-salting, every write to a new-layout row carries this cell, so the row never becomes empty
 * again once touched: a delete leaves the mark alone in the row (a tombstone), a cleared column leaves it
 * beside the rest. A mover copies an old row only into a new row with no cell at all, so a move that read
 * the old row long ago can never bring back what a later write or delete removed. See docs/salting.md.
 * @internal
 */
export function resaltMark(timestampMicros: number): CellMutation {
  return { kind: 'setCell', family: RESALT_FAMILY, qualifier: MARK_QUALIFIER, timestampMicros, value: Buffer.alloc(0) };
}

/** Whether writes to this entity's rows carry the move mark: a previous layout is declared. @internal */
export function marksWrites(schema: Pick<EntitySchema, 'key'>): boolean {
  return schema.key.salt?.previous !== undefined;
}

/** Whether a row holds no cell outside the mark family: a tombstone left by a delete while re-salting. @internal */
export function isMarkOnly(row: RowData): boolean {
  if (!Object.hasOwn(row.cells, RESALT_FAMILY)) return false;
  for (const family in row.cells) if (family !== RESALT_FAMILY && Object.hasOwn(row.cells, family)) return false;
  return true;
}

/** A read filter that also returns the mark, so a read can see a new-layout row that holds nothing else. @internal */
export function withMark(filter: RowFilter): RowFilter {
  const mark: RowFilter = {
    kind: 'chain',
    filters: [{ kind: 'family', name: RESALT_FAMILY }, { kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }],
  };
  return { kind: 'interleave', filters: [filter, mark] };
}

/**
 * A predicate that yields a cell only when the row holds a cell of one of `families` (the entity's own),
 * so "the row exists" ignores a tombstone's mark.
 * @internal
 */
export function dataCellsFilter(families: readonly { readonly name: string }[]): RowFilter {
  const byFamily = families.map((f): RowFilter => ({ kind: 'family', name: f.name }));
  const anyFamily: RowFilter =
    byFamily.length === 1 ? (byFamily[0] as RowFilter) : { kind: 'interleave', filters: byFamily };
  return { kind: 'chain', filters: [anyFamily, { kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] };
}
