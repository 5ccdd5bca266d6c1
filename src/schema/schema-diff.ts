import type { ActualFamily } from '../model/driver.js';
import type { DesiredTable } from './desired-schema.js';
import type { SchemaChange } from './schema-change.js';
import { compare } from './desired-schema.js';
import { gcRulesEqual } from '../metadata/gc-rule.js';
import {
  aggregateMismatchChange,
  createFamilyChange,
  createTableChange,
  dropFamilyChange,
  updateGcChange,
} from './schema-change.js';

export type { SchemaChange } from './schema-change.js';

/**
 * Options of {@link diffSchema}.
 *
 */
export interface DiffOptions {
  /** Plan `drop-family` for families that exist but no entity declares. Default false: they are left alone. */
  allowDropFamilies?: boolean;
}

/**
 * Compares desired tables with the instance's (`undefined` or absent = the
 * table does not exist) and lists the changes, ordered by table then family.
 * Never drops a table; drops families only with `allowDropFamilies`.
 *
 */
export function diffSchema(
  desired: readonly DesiredTable[],
  actual: ReadonlyMap<string, readonly ActualFamily[] | undefined>,
  options: DiffOptions = {},
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  for (const want of [...desired].sort((a, b) => compare(a.table, b.table))) {
    const have = actual.get(want.table);
    if (have === undefined) {
      changes.push(
        createTableChange(
          want.table,
          [...want.families].sort((a, b) => compare(a.name, b.name)),
          want.rowKeySchema,
        ),
      );
    } else {
      changes.push(...diffFamilies(want, have, options));
    }
  }
  return changes;
}

/**
 * Family-level changes of one existing table, ordered by family name.
 * @internal
 */
export function diffFamilies(want: DesiredTable, have: readonly ActualFamily[], options: DiffOptions): SchemaChange[] {
  const existing = new Map(have.map((f) => [f.name, f]));
  const declared = new Set(want.families.map((f) => f.name));
  const names = [...new Set([...declared, ...existing.keys()])].sort(compare);
  const changes: SchemaChange[] = [];
  for (const name of names) {
    const wanted = want.families.find((f) => f.name === name);
    const current = existing.get(name);
    if (wanted && !current) changes.push(createFamilyChange(want.table, wanted));
    else if (wanted && current && current.aggregate !== wanted.aggregate) {
      changes.push(aggregateMismatchChange(want.table, name, current.aggregate, wanted.aggregate));
    } else if (wanted && current && !gcRulesEqual(current.gc, wanted.gc)) {
      changes.push(updateGcChange(want.table, name, current.gc, wanted.gc));
    } else if (!wanted && options.allowDropFamilies) changes.push(dropFamilyChange(want.table, name));
  }
  return changes;
}
