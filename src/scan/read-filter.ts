import type { RowFilter } from '../driver/row-filter.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { cellQualifiers } from '../metadata/column-cells.js';
import { gcFilterBounds } from './gc-enforce.js';
import type { ResolvedRead } from './read-options.js';

/**
 * Builds the server-side filter of a read: only the selected columns, only as
 * many versions as asked, and nothing the family's GC policy has condemned.
 * Columns of one family that read the same number of versions share a chain;
 * a `flatten` column lists the exact qualifier of each of its fields.
 *
 * @example
 * ```ts
 * planReadFilter(schema, resolveRead(schema, { select: ['temperature'] }), Date.now() * 1000);
 * ```
 * @internal
 */
export function planReadFilter(schema: EntitySchema, read: ResolvedRead, nowMicros: number): RowFilter {
  if (read.columns.length === 0) return { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] };
  const groups = new Map<string, { family: string; versions: number; qualifiers: string[] }>();
  for (const column of read.columns) {
    const versions = read.versions[column.property] ?? 1;
    const id = `${column.family}\u0000${versions}`;
    const group = groups.get(id) ?? { family: column.family, versions, qualifiers: [] };
    group.qualifiers.push(...cellQualifiers(column));
    groups.set(id, group);
  }
  const chains: RowFilter[] = [...groups.values()].map(({ family, versions, qualifiers }) => {
    const gc = gcFilterBounds(schema.families.find((f) => f.name === family)?.gc, nowMicros);
    const filters: RowFilter[] = [{ kind: 'family', name: family }, { kind: 'qualifiers', names: qualifiers }];
    if (gc.startMicros !== undefined) filters.push({ kind: 'timestampRange', startMicros: gc.startMicros, endMicros: undefined });
    filters.push({ kind: 'cellsPerColumn', limit: Math.min(versions, gc.maxVersions ?? versions) });
    return { kind: 'chain', filters };
  });
  return chains.length === 1 ? (chains[0] as RowFilter) : { kind: 'interleave', filters: chains };
}
