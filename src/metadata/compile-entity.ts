import { MetadataError } from '../errors/errors.js';
import { gcRuleFromPolicy } from './gc-rule.js';
import { compileAggregate } from './compile-aggregate.js';
import { collectDeclarations } from './collect-declarations.js';
import { compileColumns } from './compile-columns.js';
import { compileDenormalized, type CompilePass } from './compile-denormalized.js';
import { compileKeyPlan } from './compile-key-plan.js';
import { compileLintSuppressions } from './compile-lint-suppressions.js';
import type { Constructor } from '../model/declarations.js';
import { withCompiled, type ColumnSchema, type EntitySchema, type FamilySchema } from './entity-schema.js';
import { planColumn } from './compile-columns.js';
import { checkPropertyName } from './reserved-names.js';
import { getOwnValue, setOwnValue } from './store.js';
import { compileValidatedProperties } from './property-validator.js';
import { deepFreeze } from '../util/deep-freeze.js';

/** Where a class keeps the schema this copy of the package compiled from it. */
const SCHEMA = Symbol('bigtable-mapper:schema');

/** A compile pass as {@link compileEntity} runs it: it pushes and pops the classes it compiles. */
interface RunningPass extends CompilePass {
  readonly compiling: Function[];
}

/**
 * Compiles an entity class's decorators, once, into a validated, deep-frozen
 * {@link EntitySchema}, compiling the sources of its `@Denormalized` columns
 * too; later calls return the same schema. Every cross-field mistake is
 * reported here with an error that names `Entity.property` and says how to fix
 * it.
 *
 * @example
 * ```ts
 * const schema = compileEntity(Reading);
 * schema.key.properties; // ['sensorId', 'ts']
 * ```
 */
export function compileEntity<T>(target: Constructor<T>): EntitySchema<T> {
  if (typeof target !== 'function') {
    throw new MetadataError(
      String(target),
      undefined,
      'is not a class',
      'pass the entity class itself, e.g. compileEntity(Reading)',
    );
  }
  const pass: RunningPass = {
    compiling: [],
    cycleErrors: new WeakSet(),
    compile: (source) => compileInPass(source, pass),
  };
  return compileInPass(target, pass);
}

/** The class's schema, compiled (with the sources it copies from) the first time it is asked for. */
function compileInPass<T>(target: Constructor<T>, pass: RunningPass): EntitySchema<T> {
  const compiled = getOwnValue<EntitySchema<T>>(SCHEMA, target);
  if (compiled !== undefined) return compiled;
  pass.compiling.push(target);
  let schema: EntitySchema<T>;
  try {
    schema = buildSchema(target, pass);
  } finally {
    pass.compiling.pop();
  }
  setOwnValue(SCHEMA, target, schema);
  return schema;
}

function buildSchema<T>(target: Constructor<T>, pass: CompilePass): EntitySchema<T> {
  const entity = target.name || '(anonymous class)';
  const d = collectDeclarations(target);
  if (!d.entity) {
    throw new MetadataError(
      entity,
      undefined,
      'is not decorated with @Entity',
      `add @Entity({ table: '...' }) to ${entity} or to a parent class`,
    );
  }
  const duplicate = d.duplicates[0];
  if (duplicate) {
    throw new MetadataError(
      entity,
      duplicate.kind === 'family' ? undefined : duplicate.name,
      `declares the same ${duplicate.kind} ${JSON.stringify(duplicate.name)} twice`,
      'remove one of the two decorators',
    );
  }
  for (const k of d.keyParts) if (k.property !== undefined) checkPropertyName(entity, k.property, 'key part');
  for (const c of d.columns) checkPropertyName(entity, c.property, 'column');
  for (const stamp of d.cellTimestamps) checkPropertyName(entity, stamp, '@CellTimestamp property');
  const separator = d.entity.separator ?? '#';
  const key = compileKeyPlan(entity, target, d.keyParts, separator, d.salt, d.entity.keyFormat);
  const families: FamilySchema[] = d.families.map((f) => {
    const aggregate = compileAggregate(entity, f);
    const gc = gcRuleFromPolicy(entity, f.name, f.options.gc);
    return Object.freeze(aggregate === undefined ? { name: f.name, gc } : { name: f.name, gc, aggregate });
  });
  const columns = compileColumns(entity, target, d.columns, families, key.properties);
  const cellTimestamp = compileCellTimestamp(entity, d.cellTimestamps, key.properties, columns);
  const columnsByProperty: Record<string, ColumnSchema> = Object.create(null) as Record<string, ColumnSchema>;
  for (const c of columns) columnsByProperty[c.property] = c;
  const denormalized = compileDenormalized({ entity, key, columns }, d.denormalized, pass);
  const aggregateCopy = denormalized.find((copy) => columnsByProperty[copy.property]?.aggregate !== undefined);
  if (aggregateCopy !== undefined) {
    throw new MetadataError(
      entity,
      aggregateCopy.property,
      `is a @Denormalized copy on the aggregate family '${columnsByProperty[aggregateCopy.property]?.family}', which only add() writes`,
      'keep copies in a plain family',
    );
  }
  const validated = compileValidatedProperties(
    entity,
    d.keyParts,
    d.columns,
    denormalized.map((copy) => copy.property),
  );
  const plans = deepFreeze(columns.map((column) => planColumn({ families, denormalized }, column)));
  const lintNames = new Set([
    ...key.properties,
    ...columns.map((c) => c.property),
    ...(cellTimestamp === undefined ? [] : [cellTimestamp]),
    ...families.map((f) => f.name),
  ]);
  const lintSuppressions = compileLintSuppressions(entity, d.entity.lint, lintNames);
  const schema = {
    name: entity,
    target,
    table: d.entity.table,
    key: deepFreeze(key),
    families: deepFreeze(families),
    columns: deepFreeze(columns),
    columnsByProperty: deepFreeze(columnsByProperty),
    cellTimestamp,
    denormalized: deepFreeze(denormalized),
    lintSuppressions,
  };
  return Object.freeze(withCompiled(schema, Object.freeze({ columns: plans, validated })));
}

function compileCellTimestamp(
  entity: string,
  stamps: readonly string[],
  keyProperties: readonly string[],
  columns: readonly ColumnSchema[],
): string | undefined {
  if (stamps.length > 1) {
    throw new MetadataError(
      entity,
      stamps[1],
      `@CellTimestamp is declared on ${stamps.join(' and ')}`,
      'keep @CellTimestamp on one property',
    );
  }
  const stamp = stamps[0];
  if (stamp !== undefined && (keyProperties.includes(stamp) || columns.some((c) => c.property === stamp))) {
    throw new MetadataError(
      entity,
      stamp,
      '@CellTimestamp cannot also be a key part or a column',
      'use a separate Date property for the cell timestamp',
    );
  }
  return stamp;
}
