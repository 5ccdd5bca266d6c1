import type { RowFilter } from '../model/row-filter.js';
import {
  COMPILED,
  withCompiled,
  type ColumnSchema,
  type EntitySchema,
  type FamilySchema,
} from '../metadata/entity-schema.js';
import { cellQualifiers } from '../metadata/compile-columns.js';
import { planReadFilter, type FilteredRead, type FilteredSchema } from './read-filter.js';
import type { ResolvedRead } from './read-options.js';

/**
 * One member of a collection read: its schema and what is read of its rows.
 * @internal
 */
export interface MemberRead {
  readonly schema: EntitySchema;
  readonly read: ResolvedRead;
}

/**
 * The server-side filter of a collection scan, which reads the rows of every member in one range: the
 * filter of one read over the table as the members see it together, every family and every column of
 * every member, with each member's selection. A column two members declare alike (same family and
 * qualifiers) is one column, read with the most versions either asks for. A member's rows may then carry
 * cells of another member's columns; hydrating a row reads only its own member's columns, versions and
 * GC. As for one entity, a `select` never hides a row (see `planReadFilter`).
 * @internal
 */
export function collectionReadFilter(members: readonly MemberRead[], nowMicros: number): RowFilter {
  const columns = new Map<string, ColumnSchema>();
  const families = new Map<string, FamilySchema>();
  const versions: Record<string, number> = {};
  const selected = new Set<ColumnSchema>();
  for (const { schema, read } of members) {
    for (const family of schema.families) if (!families.has(family.name)) families.set(family.name, family);
    for (const column of schema.columns) {
      const id = columnId(column);
      const shared = columns.get(id) ?? withCompiled({ ...column, property: id }, column[COMPILED]);
      columns.set(id, shared);
      if (!read.columns.includes(column)) continue;
      selected.add(shared);
      versions[id] = Math.max(versions[id] ?? 0, read.versions[column.property] ?? 1);
    }
  }
  const [first] = members;
  const table: FilteredSchema = {
    key: (first as MemberRead).schema.key,
    families: [...families.values()],
    columns: [...columns.values()],
  };
  const read: FilteredRead = { columns: [...selected], versions };
  const filter = planReadFilter(table, read, nowMicros);
  return namesFamily(filter) ? withRowsOfNoMember(filter, [...families.keys()]) : filter;
}

/**
 * A filter that names families would drop a row holding only cells of other
 * families (a kind that is no member): such a row gets one stripped cell per
 * column instead, so it reaches the client and is reported by its key. Rows
 * with a cell in a member's family go through `filter` as before.
 */
function withRowsOfNoMember(filter: RowFilter, families: readonly string[]): RowFilter {
  const test: RowFilter =
    families.length === 1
      ? { kind: 'family', name: families[0] as string }
      : { kind: 'interleave', filters: families.map((name): RowFilter => ({ kind: 'family', name })) };
  return {
    kind: 'condition',
    test,
    pass: filter,
    fail: { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] },
  };
}

/** Whether a filter keeps cells of named families only (somewhere it tests a family). */
function namesFamily(filter: RowFilter): boolean {
  switch (filter.kind) {
    case 'family':
      return true;
    case 'chain':
    case 'interleave':
      return filter.filters.some(namesFamily);
    case 'condition':
      return namesFamily(filter.test) || namesFamily(filter.pass) || namesFamily(filter.fail);
    default:
      return false;
  }
}

/** A column as stored: its family and the qualifiers of its cells. */
function columnId(column: ColumnSchema): string {
  return [column.family, ...cellQualifiers(column)].join('\u0000');
}
