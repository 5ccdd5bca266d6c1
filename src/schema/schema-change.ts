import type { ActualFamily } from '../driver/driver.js';
import type { GcRule } from './gc-rule-types.js';
import { describeGcRule } from './gc-rule.js';

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
  | { kind: 'create-table'; table: string; families: ActualFamily[]; description: string }
  | { kind: 'create-family'; table: string; family: ActualFamily; description: string }
  | { kind: 'update-gc'; table: string; family: string; from: GcRule | undefined; to: GcRule | undefined; description: string }
  | { kind: 'drop-family'; table: string; family: string; description: string };

/**
 * A `create-table` change.
 *
 * @example
 * ```ts
 * createTableChange('readings', [{ name: 'm', gc: { kind: 'maxVersions', count: 5 } }]).description;
 * // 'create table "readings" with families m (gc max 5 versions)'
 * ```
 */
export function createTableChange(table: string, families: ActualFamily[]): SchemaChange {
  const list = families.map((f) => `${f.name} (gc ${describeGcRule(f.gc)})`).join(', ');
  return {
    kind: 'create-table',
    table,
    families,
    description: `create table "${table}" with ${families.length === 0 ? 'no families' : `families ${list}`}`,
  };
}

/**
 * A `create-family` change.
 *
 * @example
 * ```ts
 * createFamilyChange('readings', { name: 'm', gc: undefined }).description; // 'create family "m" in table "readings" (gc none)'
 * ```
 */
export function createFamilyChange(table: string, family: ActualFamily): SchemaChange {
  return {
    kind: 'create-family',
    table,
    family,
    description: `create family "${family.name}" in table "${table}" (gc ${describeGcRule(family.gc)})`,
  };
}

/**
 * An `update-gc` change.
 *
 * @example
 * ```ts
 * updateGcChange('readings', 'm', undefined, { kind: 'maxVersions', count: 1 }).description;
 * // 'change gc of family "m" in table "readings" from none to max 1 version'
 * ```
 */
export function updateGcChange(table: string, family: string, from: GcRule | undefined, to: GcRule | undefined): SchemaChange {
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
 * @example
 * ```ts
 * dropFamilyChange('readings', 'old').description;
 * // 'drop family "old" from table "readings" (not declared by any entity; deletes its data)'
 * ```
 */
export function dropFamilyChange(table: string, family: string): SchemaChange {
  return {
    kind: 'drop-family',
    table,
    family,
    description: `drop family "${family}" from table "${table}" (not declared by any entity; deletes its data)`,
  };
}
