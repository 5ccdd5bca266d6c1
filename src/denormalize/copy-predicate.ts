import type { RowFilter } from '../model/row-filter.js';
import { cellQualifiers } from '../metadata/column-cells.js';
import type { ColumnSchema } from '../metadata/entity-schema.js';

/**
 * The CheckAndMutateRow predicate under which a propagation rewrites a row's
 * copies: it matches only when the row still exists (a row deleted since the
 * scan has no cell, so nothing is written and it is not re-created) and none
 * of `columns` holds a cell at `versionMicros` or later (a copy written at
 * the same time or after the propagation's version is newer, or as new, and
 * is kept). One filter, evaluated atomically with the mutations:
 * `condition(test: newer copy cells, pass: blockAll, fail: passAll)`.
 * @internal
 * @example
 * ```ts
 * const predicate = copyPredicate([schema.columnsByProperty.location], 1700000000000000);
 * await driver.checkAndMutate({ table, rowKey, predicate, onMatch: mutations, onNoMatch: [] });
 * ```
 */
export function copyPredicate(columns: readonly ColumnSchema[], versionMicros: number): RowFilter {
  const copies: RowFilter = {
    kind: 'interleave',
    filters: columns.map((c) => ({
      kind: 'chain',
      filters: [
        { kind: 'family', name: c.family },
        { kind: 'qualifiers', names: cellQualifiers(c) },
      ],
    })),
  };
  const newerCopies: RowFilter = {
    kind: 'chain',
    filters: [copies, { kind: 'timestampRange', startMicros: versionMicros, endMicros: undefined }],
  };
  return { kind: 'condition', test: newerCopies, pass: { kind: 'blockAll' }, fail: { kind: 'passAll' } };
}
