import type { RowFilter } from '../model/row-filter.js';
import { marksWrites, withMark } from '../metadata/resalt-mark.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import { cellQualifiers } from '../metadata/compile-columns.js';
import { gcFilterBounds } from './gc-enforce.js';
import type { ResolvedRead } from './read-options.js';

/** What a read filter reads of a schema: its key (is it being re-salted), families and columns. @internal */
export type FilteredSchema = Pick<EntitySchema, 'key' | 'families' | 'columns'>;

/** What a read filter reads of a resolved read: the columns and their versions. @internal */
export type FilteredRead = Pick<ResolvedRead, 'columns' | 'versions' | 'timeRange'>;

interface FamilyRead {
  family: string;
  /** Most versions any selected column of the family reads. */
  versions: number;
  /** Selected columns grouped by versions, each with its qualifiers. */
  groups: Map<number, string[]>;
  /** Every column of the family is selected. */
  whole: boolean;
}

/**
 * Builds the server-side filter of a read: only the selected columns, only as
 * many versions as asked, and nothing the family's GC policy has condemned.
 *
 * Qualifier filters are regular expressions that Bigtable evaluates on every
 * cell (on the emulator they halve scan throughput), so they are sent only
 * when a family is partly selected. A family read whole is one chain of
 * family, age bound and version cap; when every family is read whole with the
 * same cap and no age bound, the filter is that cap alone. Hydration decodes
 * declared columns only and applies each column's own version count and GC.
 *
 * A `select` never hides a row: when some declared column is left out, the
 * filter is a condition whose test is the selection. A row with a selected
 * cell gets exactly the selection; a row without one gets its
 * {@link presenceFilter} cells (value-stripped, outside the selection or
 * condemned by GC, so hydration ignores them) and hydrates with every
 * selected column `undefined`. While re-salting, the move mark is read as well
 * ({@link withMark}). A read with a time window (`asOf`, `between`) applies
 * all of that to the cells of its window only.
 *
 * @internal
 */
export function planReadFilter(schema: FilteredSchema, read: FilteredRead, nowMicros: number): RowFilter {
  const filter = withinTimeRange(read.timeRange, columnsFilter(schema, read, nowMicros));
  // While re-salting, the mark is read too: a new row holding only the mark is a tombstone that hides the old row.
  return marksWrites(schema) ? withMark(filter) : filter;
}

/**
 * A read with `asOf` or `between` sees only the cells of its window: a chain
 * whose first step is the window, so the version caps and the selection's
 * test after it count only those cells (the newest version at `asOf`, not
 * the newest one). The move mark of a re-salt is read outside the window.
 */
function withinTimeRange(range: FilteredRead['timeRange'], filter: RowFilter): RowFilter {
  if (range === undefined) return filter;
  const window: RowFilter = { kind: 'timestampRange', startMicros: range.startMicros, endMicros: range.endMicros };
  return { kind: 'chain', filters: [window, filter] };
}

function columnsFilter(schema: FilteredSchema, read: FilteredRead, nowMicros: number): RowFilter {
  if (read.columns.length === 0) return presenceFilter(schema, nowMicros);
  const selection = selectionFilter(schema, read, nowMicros);
  const everyColumn = schema.columns.every((c) => read.columns.includes(c));
  return everyColumn
    ? selection
    : { kind: 'condition', test: selection, pass: selection, fail: presenceFilter(schema, nowMicros) };
}

/**
 * One value-stripped cell per column of a row that has a live cell: what
 * shows that a row exists. Families with a GC age bound only count cells
 * inside it, so a row whose cells have all expired stays hidden, as a full
 * read hides it.
 * @internal
 * @example
 * ```ts
 * presenceFilter(schema, Date.now() * 1000); // { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] }
 * ```
 */
function presenceFilter(schema: FilteredSchema, nowMicros: number): RowFilter {
  const strip: RowFilter[] = [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }];
  if (schema.families.every((f) => ageBound(schema, f.name, nowMicros) === undefined))
    return { kind: 'chain', filters: strip };
  const perFamily = schema.families.map((f): RowFilter => {
    const start = ageBound(schema, f.name, nowMicros);
    const age: RowFilter[] =
      start === undefined ? [] : [{ kind: 'timestampRange', startMicros: start, endMicros: undefined }];
    return { kind: 'chain', filters: [{ kind: 'family', name: f.name }, ...age, ...strip] };
  });
  return perFamily.length === 1 ? (perFamily[0] as RowFilter) : { kind: 'interleave', filters: perFamily };
}

/** The selected columns, their versions and GC bounds. */
function selectionFilter(schema: FilteredSchema, read: FilteredRead, nowMicros: number): RowFilter {
  const families = familyReads(schema, read);
  const chains = families.flatMap((f) => familyChains(schema, f, nowMicros));
  const caps = new Set(families.map((f) => capOf(schema, f.family, f.versions, nowMicros)));
  const everyFamilyWhole =
    families.length === schema.families.length && families.every((f) => f.whole && chainsOf(f) === 1);
  if (
    everyFamilyWhole &&
    caps.size === 1 &&
    families.every((f) => ageBound(schema, f.family, nowMicros) === undefined)
  ) {
    return { kind: 'cellsPerColumn', limit: [...caps][0] as number };
  }
  return chains.length === 1 ? (chains[0] as RowFilter) : { kind: 'interleave', filters: chains };
}

function familyReads(schema: FilteredSchema, read: FilteredRead): FamilyRead[] {
  const byFamily = new Map<string, FamilyRead>();
  for (const column of read.columns) {
    const versions = read.versions[column.property] ?? 1;
    const entry = byFamily.get(column.family) ?? {
      family: column.family,
      versions: 0,
      groups: new Map<number, string[]>(),
      whole: false,
    };
    entry.versions = Math.max(entry.versions, versions);
    entry.groups.set(versions, [...(entry.groups.get(versions) ?? []), ...cellQualifiers(column)]);
    byFamily.set(column.family, entry);
  }
  for (const entry of byFamily.values()) {
    const declared = schema.columns.filter((c: ColumnSchema) => c.family === entry.family);
    entry.whole = declared.every((c) => read.columns.includes(c));
  }
  return [...byFamily.values()];
}

/** A family read whole needs one chain (hydration caps each column); otherwise one per version group. */
function chainsOf(f: FamilyRead): number {
  return f.whole ? 1 : f.groups.size;
}

function familyChains(schema: FilteredSchema, f: FamilyRead, nowMicros: number): RowFilter[] {
  const start = ageBound(schema, f.family, nowMicros);
  const chain = (versions: number, qualifiers: readonly string[] | undefined): RowFilter => {
    const filters: RowFilter[] = [{ kind: 'family', name: f.family }];
    if (qualifiers !== undefined) filters.push({ kind: 'qualifiers', names: qualifiers });
    if (start !== undefined) filters.push({ kind: 'timestampRange', startMicros: start, endMicros: undefined });
    filters.push({ kind: 'cellsPerColumn', limit: capOf(schema, f.family, versions, nowMicros) });
    return { kind: 'chain', filters };
  };
  if (f.whole) return [chain(f.versions, undefined)];
  return [...f.groups.entries()].map(([versions, qualifiers]) => chain(versions, qualifiers));
}

function capOf(schema: FilteredSchema, family: string, versions: number, nowMicros: number): number {
  const gc = gcFilterBounds(schema.families.find((f) => f.name === family)?.gc, nowMicros);
  return Math.min(versions, gc.maxVersions ?? versions);
}

function ageBound(schema: FilteredSchema, family: string, nowMicros: number): number | undefined {
  return gcFilterBounds(schema.families.find((f) => f.name === family)?.gc, nowMicros).startMicros;
}
