import type { CheckAndMutateRequest } from '../model/driver.js';
import { dataCellsFilter, marksWrites } from '../metadata/resalt-mark.js';
import type { RowFilter } from '../model/row-filter.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { CompiledMutation } from '../model/mutation.js';
import type { EntityProperty } from '../metadata/compile-key-plan.js';

/**
 * When a conditional save applies. Only the latest version of the column is
 * tested.
 *
 * @example
 * ```ts
 * { column: 'status', equals: 'pending' }   // compare-and-set
 * { column: 'status', notEquals: 'done' }   // also applies when the cell is missing
 * { column: 'lockedBy', exists: false }
 * { rowExists: false }                      // insert if absent
 * ```
 */
export type SaveCondition<T> =
  | {
      /** The column tested (not a `flatten` column, which has one cell per field). */
      column: EntityProperty<T>;
      /** Applies when the column's latest value, encoded with its codec, equals this value's encoding. */
      equals: unknown;
    }
  | {
      /** The column tested (not a `flatten` column, which has one cell per field). */
      column: EntityProperty<T>;
      /** Applies unless the column's latest value equals this one (so also when the cell is missing). */
      notEquals: unknown;
    }
  | {
      /** The column tested (not a `flatten` column, which has one cell per field). */
      column: EntityProperty<T>;
      /** `true`: applies when the column has a cell; `false`: when it has none. */
      exists: boolean;
    }
  | {
      /** `true`: applies when the row has any cell; `false`: when the row does not exist (insert if absent). */
      rowExists: boolean;
    };

/**
 * Compiles a conditional save to one CheckAndMutateRow: the predicate, and the
 * mutation placed on the branch that must apply. `appliesOnMatch` says how to
 * turn the server's "predicate matched" into "applied".
 * @internal
 */
export function compileCondition<T>(
  schema: EntitySchema<T>,
  mutation: CompiledMutation,
  condition: SaveCondition<T>,
): { request: CheckAndMutateRequest; appliesOnMatch: boolean } {
  if (condition === null || typeof condition !== 'object') {
    throw new ValidationError(
      `${schema.name}: a save condition is required. Fix: pass e.g. { column: 'status', equals: 'pending' } or { rowExists: false }`,
      { entity: schema.name },
    );
  }
  let predicate: RowFilter;
  let appliesOnMatch: boolean;
  if ('rowExists' in condition) {
    // While re-salting, a tombstone's mark is no cell of the entity's: the row does not exist.
    predicate = marksWrites(schema)
      ? dataCellsFilter(schema.families)
      : { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] };
    appliesOnMatch = condition.rowExists === true;
  } else {
    const column = schema.columnsByProperty[condition.column];
    if (column === undefined) {
      throw new ValidationError(
        `${schema.name}.${String(condition.column)}: conditions test columns. Fix: use one of ${schema.columns.map((c) => c.property).join(', ')}`,
        { entity: schema.name, property: condition.column },
      );
    }
    if (column.layout === 'flatten') {
      throw new ValidationError(
        `${schema.name}.${String(condition.column)}: conditions test one cell, and this flattened column has one cell per field. Fix: test a scalar column, or store ${String(condition.column)} with layout: 'json'`,
        { entity: schema.name, property: condition.column },
      );
    }
    const latest: RowFilter[] = [
      { kind: 'family', name: column.family },
      { kind: 'qualifiers', names: [column.qualifier] },
      { kind: 'cellsPerColumn', limit: 1 },
    ];
    if ('equals' in condition || 'notEquals' in condition) {
      const expected = 'equals' in condition ? condition.equals : condition.notEquals;
      predicate = {
        kind: 'chain',
        filters: [...latest, { kind: 'valueEquals', value: column.codec.encode(expected) }],
      };
      appliesOnMatch = 'equals' in condition;
    } else {
      predicate = { kind: 'chain', filters: [...latest, { kind: 'stripValue' }] };
      appliesOnMatch = condition.exists === true;
    }
  }
  const mutations = mutation.mutations;
  const request: CheckAndMutateRequest = {
    table: mutation.table,
    rowKey: mutation.rowKey,
    predicate,
    onMatch: appliesOnMatch ? mutations : [],
    onNoMatch: appliesOnMatch ? [] : mutations,
  };
  return { request, appliesOnMatch };
}
