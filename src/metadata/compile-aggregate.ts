import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { AggregateKind, ColumnOptions, FamilyDeclaration } from '../model/declarations.js';

const KINDS: readonly AggregateKind[] = ['sum', 'min', 'max', 'hll'];

/**
 * The checked `aggregate` option of a `@Family`: `undefined` for a plain
 * family. An aggregate family takes no `gc`: the mapper writes each aggregate
 * cell at timestamp 0 (one running state per column), so `maxAge` would
 * collect it at once and `maxVersions` has no older versions to drop.
 * Throws `MetadataError` naming the family and the fix.
 * @internal
 */
export function compileAggregate(entity: string, family: FamilyDeclaration): AggregateKind | undefined {
  const { aggregate, gc } = family.options;
  if (aggregate === undefined) return undefined;
  if (!KINDS.includes(aggregate)) {
    throw new MetadataError(
      entity,
      undefined,
      `@Family('${family.name}') aggregate ${preview(aggregate)} is not one of ${KINDS.join(', ')}`,
      `use aggregate: 'sum', 'min', 'max' or 'hll', or remove it for a plain family`,
    );
  }
  if (gc !== undefined) {
    throw new MetadataError(
      entity,
      undefined,
      `@Family('${family.name}') is an aggregate family ('${aggregate}') with a gc rule, which makes no sense there: each column keeps one aggregate cell at timestamp 0, so maxAge would collect the total at once and maxVersions has nothing to drop`,
      `remove gc from @Family('${family.name}'); reset a total with update(key, { column: null })`,
    );
  }
  return aggregate;
}

/**
 * Checks a `@Column` on an aggregate family: `sum`, `min` and `max` columns
 * are `int` (read as a `number`, or a `bigint` beyond ±2^53) or `bigint`; an
 * `hll` column is `bytes` (the sketch as the server returns it); none is
 * versioned, flattened or class-typed. Throws `MetadataError` naming
 * `Entity.property` and the fix.
 * @internal
 */
export function checkAggregateColumn(
  entity: string,
  property: string,
  options: ColumnOptions,
  aggregate: AggregateKind,
): void {
  const family = options.family;
  const allowed = aggregate === 'hll' ? ['bytes'] : ['int', 'bigint'];
  if (typeof options.type !== 'string' || !allowed.includes(options.type)) {
    const type = typeof options.type === 'function' ? `class ${options.type.name}` : preview(options.type);
    throw new MetadataError(
      entity,
      property,
      `is a ${type} column on the '${aggregate}' aggregate family '${family}', whose cells hold ${aggregate === 'hll' ? 'a HyperLogLog++ sketch' : 'an int64'}`,
      aggregate === 'hll'
        ? "declare it with type: 'bytes' (the sketch), or move it to a plain family"
        : "declare it with type: 'int' (a number, or a bigint beyond 2^53) or 'bigint', or move it to a plain family",
    );
  }
  if (options.versions !== undefined) {
    throw new MetadataError(
      entity,
      property,
      `is versioned (versions: ${preview(options.versions)}) on the aggregate family '${family}', which keeps one cell per column`,
      'remove versions from the column',
    );
  }
  if (options.layout !== undefined || options.fields !== undefined || options.fieldPrefix !== undefined) {
    throw new MetadataError(
      entity,
      property,
      `has a layout on the aggregate family '${family}'`,
      'remove layout, fields and fieldPrefix from the column',
    );
  }
}
