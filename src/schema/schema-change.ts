import type { ActualFamily, RowKeySchema } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';
import type { AggregateKind, FamilyOptions } from '../model/declarations.js';
import { describeGcRule } from '../metadata/gc-rule.js';
import { describeRowKeySchema } from './row-key-schema.js';

/**
 * One step that brings the instance in line with the declared entities. Each
 * carries a human `description`.
 *
 * @example
 * ```ts
 * const change: SchemaChange = {
 *   kind: 'create-family', table: 'readings', family: { name: 'm', gc: undefined },
 *   description: 'create family "m" in table "readings" (gc none)',
 * };
 * ```
 */
export type SchemaChange =
  | {
      /** Create a missing table with its families. */
      kind: 'create-table';
      /** Table id. */
      table: string;
      /** The families created with the table, with their GC rules. */
      families: ActualFamily[];
      /** The row key schema the table is created with (`keyFormat: 'ordered-code'`); absent for none. */
      rowKeySchema?: RowKeySchema;
      /** The change in words, e.g. `create table "readings" with families m (gc max 5 versions)`. */
      description: string;
    }
  | {
      /** Add a declared family that the existing table lacks. */
      kind: 'create-family';
      /** Table id. */
      table: string;
      /** The family created, with its GC rule. */
      family: ActualFamily;
      /** The change in words. */
      description: string;
    }
  | {
      /** Replace a family's GC rule that differs from the declared one. */
      kind: 'update-gc';
      /** Table id. */
      table: string;
      /** Family name. */
      family: string;
      /** The rule the instance has; `undefined` for none. */
      from: GcRule | undefined;
      /** The declared rule; `undefined` removes the rule. */
      to: GcRule | undefined;
      /** The change in words. */
      description: string;
    }
  | {
      /**
       * A family whose aggregate (its value type) differs from the declared one,
       * or that is declared aggregate but exists as a plain family (or the other
       * way round). Bigtable fixes a family's value type when it is created, so
       * `sync` cannot apply this change: it fails with `SchemaSyncError`, and
       * `sync --check` reports it as drift.
       */
      kind: 'aggregate-mismatch';
      /** Table id. */
      table: string;
      /** Family name. */
      family: string;
      /** The aggregate the family has; `undefined` for a plain family. */
      from: FamilyOptions['aggregate'];
      /** The declared aggregate; `undefined` for a plain family. */
      to: FamilyOptions['aggregate'];
      /** The change in words. */
      description: string;
    }
  | {
      /** Delete a family that no entity declares, with its data (only with `allowDropFamilies`). */
      kind: 'drop-family';
      /** Table id. */
      table: string;
      /** Family name. */
      family: string;
      /** The change in words. */
      description: string;
    };

/**
 * A `create-table` change.
 *
 */
export function createTableChange(table: string, families: ActualFamily[], rowKeySchema?: RowKeySchema): SchemaChange {
  const list = families.map((f) => `${f.name} (${describeFamily(f)})`).join(', ');
  const keys = rowKeySchema === undefined ? '' : ` and row key schema (${describeRowKeySchema(rowKeySchema)})`;
  return {
    kind: 'create-table',
    table,
    families,
    ...(rowKeySchema === undefined ? {} : { rowKeySchema }),
    description: `create table "${table}" with ${families.length === 0 ? 'no families' : `families ${list}`}${keys}`,
  };
}

/**
 * A `create-family` change.
 *
 */
export function createFamilyChange(table: string, family: ActualFamily): SchemaChange {
  return {
    kind: 'create-family',
    table,
    family,
    description: `create family "${family.name}" in table "${table}" (${describeFamily(family)})`,
  };
}

/** A family's GC rule in words, and its aggregate when it has one: `gc none`, `aggregate sum, gc none`. */
function describeFamily(family: ActualFamily): string {
  const gc = `gc ${describeGcRule(family.gc)}`;
  return family.aggregate === undefined ? gc : `aggregate ${family.aggregate}, ${gc}`;
}

/**
 * An `aggregate-mismatch` change: the family exists with another value type
 * than the declared one.
 *
 */
export function aggregateMismatchChange(
  table: string,
  family: string,
  from: AggregateKind | undefined,
  to: AggregateKind | undefined,
): SchemaChange {
  const words = (kind: AggregateKind | undefined): string => (kind === undefined ? 'plain' : `'${kind}' aggregate`);
  return {
    kind: 'aggregate-mismatch',
    table,
    family,
    from,
    to,
    description: `family "${family}" in table "${table}" is a ${words(from)} family but is declared as a ${words(to)} family; a family's value type is fixed when it is created, so sync cannot change it (drop and re-create the family, which deletes its cells, or declare a new family name)`,
  };
}

/**
 * An `update-gc` change.
 *
 */
export function updateGcChange(
  table: string,
  family: string,
  from: GcRule | undefined,
  to: GcRule | undefined,
): SchemaChange {
  return {
    kind: 'update-gc',
    table,
    family,
    from,
    to,
    description: `change gc of family "${family}" in table "${table}" from ${describeGcRule(from)} to ${describeGcRule(to)}`,
  };
}

/**
 * A `drop-family` change (only planned with `allowDropFamilies`).
 *
 */
export function dropFamilyChange(table: string, family: string): SchemaChange {
  return {
    kind: 'drop-family',
    table,
    family,
    description: `drop family "${family}" from table "${table}" (not declared by any entity; deletes its data)`,
  };
}
