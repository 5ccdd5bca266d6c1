import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { ColumnScalarType, Constructor, DenormalizedDeclaration, KeyPartType } from '../model/declarations.js';
import type { ColumnSchema, DenormalizedSchema, EntitySchema, KeyPlan } from './entity-schema.js';
import { propagationStrategy } from './propagation-strategy.js';
import { keyPropertyComponent } from './compile-key-plan.js';

/**
 * The `compileEntity` call compiling a dependent entity: it compiles the
 * sources of `@Denormalized` columns within the same pass.
 * @internal
 */
export interface CompilePass {
  /** The classes being compiled, outermost first: a source met again here closes a denormalization cycle. */
  readonly compiling: readonly Function[];
  /** Errors naming a cycle: they pass through the compilers of the entities in the cycle unwrapped. */
  readonly cycleErrors: WeakSet<Error>;
  /** Compiles a source entity within this pass. */
  compile(source: Constructor): EntitySchema;
}

/** The dependent entity a `@Denormalized` belongs to. */
interface DependentEntity {
  readonly entity: string;
  readonly key: KeyPlan;
  readonly columns: readonly ColumnSchema[];
}

/**
 * Validates every `@Denormalized` of an entity and computes its propagation
 * strategy: the decorated property is a plain column; `from` is a class that
 * compiles; `field` is a plain column of it of the same type; `key` maps every
 * source key part (see `compileKeyMap`); no entity copies from itself, even
 * through others (the pass compiles each source, and knows which classes it is
 * compiling).
 * @internal
 */
export function compileDenormalized(
  dependent: DependentEntity,
  declarations: readonly DenormalizedDeclaration[],
  pass: CompilePass,
): DenormalizedSchema[] {
  const copies = declarations.map((d) => d.property);
  return declarations.map(({ property, options }) => {
    const { entity } = dependent;
    const column = copyColumn(dependent, property);
    const source = resolveSource(entity, property, options.from, pass);
    const field = sourceField(entity, property, source, options.field, column);
    const key = compileKeyMap({ ...dependent, property, copies }, source, options.key);
    const onMissingSource = options.onMissingSource ?? 'error';
    if (onMissingSource !== 'error' && onMissingSource !== 'skip') {
      throw new MetadataError(
        entity,
        property,
        `@Denormalized onMissingSource ${preview(onMissingSource)} is not known`,
        "use 'error' (the default) or 'skip'",
      );
    }
    const strategy = propagationStrategy(
      entity,
      dependent.key,
      source.name,
      key.map((k) => k.dependent),
    );
    return {
      property,
      source: source.target as Constructor,
      sourceName: source.name,
      field,
      key,
      onMissingSource,
      strategy,
    };
  });
}

function copyColumn(dependent: DependentEntity, property: string): ColumnSchema {
  const { entity } = dependent;
  const column = dependent.columns.find((c) => c.property === property);
  if (column === undefined) {
    const what = dependent.key.properties.includes(property) ? 'a key part' : 'not a column';
    throw new MetadataError(
      entity,
      property,
      `is @Denormalized but ${what}: a copy lives in a column`,
      `declare it with @Column({ family, type }) (and not as a @KeyPart)`,
    );
  }
  if (column.versioned) {
    throw new MetadataError(
      entity,
      property,
      'is @Denormalized and versioned: a copy holds the latest source value only',
      'remove versions from its @Column',
    );
  }
  return column;
}

function resolveSource(entity: string, property: string, from: unknown, pass: CompilePass): EntitySchema {
  const fix = 'write @Denormalized({ from: () => Sensor, ... }) with the source entity class';
  if (typeof from === 'function' && /^class\b/.test(Function.prototype.toString.call(from))) {
    throw new MetadataError(
      entity,
      property,
      `@Denormalized from must be a function returning the source class, got the class ${from.name} itself`,
      `${fix} (a thunk, so classes may be declared in any order)`,
    );
  }
  let source: unknown;
  try {
    source = typeof from === 'function' ? (from as () => unknown)() : from;
  } catch (err) {
    throw new MetadataError(
      entity,
      property,
      `@Denormalized from threw ${err instanceof Error ? err.message : String(err)}`,
      `${fix}, declared before the entity is compiled`,
    );
  }
  if (typeof from !== 'function' || typeof source !== 'function') {
    throw new MetadataError(
      entity,
      property,
      `@Denormalized from must be a function returning the source class, got ${preview(typeof from === 'function' ? source : from)}`,
      `${fix}, declared before the entity is compiled`,
    );
  }
  const at = pass.compiling.indexOf(source);
  if (at >= 0) {
    const names = [...pass.compiling.slice(at), source].map((c) => c.name || '(anonymous class)');
    const error = new MetadataError(
      entity,
      property,
      `copies from ${source.name}, which closes a denormalization cycle (${names.join(' → ')})`,
      'copies must flow one way: remove one @Denormalized of the cycle, or store that value directly',
    );
    pass.cycleErrors.add(error);
    throw error;
  }
  try {
    return pass.compile(source as Constructor);
  } catch (err) {
    if (err instanceof Error && pass.cycleErrors.has(err)) throw err;
    if (!(err instanceof MetadataError)) throw err;
    throw new MetadataError(
      entity,
      property,
      `its @Denormalized source ${source.name} does not compile (${err.message})`,
      `fix ${source.name} first`,
    );
  }
}

function sourceField(
  entity: string,
  property: string,
  source: EntitySchema,
  field: unknown,
  column: ColumnSchema,
): string {
  const plain = source.columns.filter((c) => !c.versioned).map((c) => c.property);
  const sourceColumn = typeof field === 'string' ? source.columnsByProperty[field] : undefined;
  if (sourceColumn === undefined || sourceColumn.versioned) {
    const why =
      sourceColumn !== undefined
        ? 'is versioned'
        : typeof field === 'string' && source.key.properties.includes(field)
          ? 'is a key part, not a column'
          : 'is not a column';
    throw new MetadataError(
      entity,
      property,
      `@Denormalized field ${preview(field)} of ${source.name} ${why}`,
      `copy one of ${source.name}'s plain columns: ${plain.join(', ') || '(none)'}`,
    );
  }
  if (sourceColumn.type !== column.type || sourceColumn.classType !== column.classType) {
    const type = (c: ColumnSchema): string => (c.classType === undefined ? `'${c.type}'` : c.classType.name);
    throw new MetadataError(
      entity,
      property,
      `is a ${type(column)} column but copies ${source.name}.${sourceColumn.property}, a ${type(sourceColumn)} column`,
      `declare ${property} with type: ${type(sourceColumn)}`,
    );
  }
  return sourceColumn.property;
}

/**
 * The kind of value a key part or column holds, for compatibility checks: an
 * integer fits a float column, every other kind needs its own.
 */
type ValueKind = 'string' | 'integer' | 'float' | 'bigint' | 'date' | 'bytes' | 'boolean' | 'json' | 'object';

const KEY_KINDS: Readonly<Record<KeyPartType, ValueKind>> = {
  string: 'string',
  uint: 'integer',
  int: 'integer',
  bigint: 'bigint',
  timestamp: 'date',
  bytes: 'bytes',
  float: 'float',
  boolean: 'boolean',
};
const COLUMN_KINDS: Readonly<Record<ColumnScalarType | 'class', ValueKind>> = {
  string: 'string',
  int: 'integer',
  float: 'float',
  bigint: 'bigint',
  date: 'date',
  bytes: 'bytes',
  boolean: 'boolean',
  json: 'json',
  class: 'object',
};
const KIND_NAMES: Readonly<Record<ValueKind, string>> = {
  string: 'a string',
  integer: 'an integer',
  float: 'a float',
  bigint: 'a bigint',
  date: 'a date',
  bytes: 'a bytes',
  boolean: 'a boolean',
  json: 'a json value',
  object: 'an embedded object',
};

/** Whether a dependent property of kind `target` holds every value of a source key part of kind `source`. */
function holds(target: ValueKind, source: ValueKind): boolean {
  return target === source || (source === 'integer' && target === 'float');
}

/** The dependent side of a `@Denormalized` key map. */
interface DependentKeyMap {
  readonly entity: string;
  readonly property: string;
  readonly key: KeyPlan;
  readonly columns: readonly ColumnSchema[];
  /** Properties holding copies (they cannot address a source). */
  readonly copies: readonly string[];
}

/**
 * Validates `key` of a `@Denormalized`: an object naming every key part of the
 * source exactly once, each mapped to a key part or a plain (not versioned,
 * not copied) column of the dependent whose values have the same JS type.
 * Returns the pairs in the source's key order.
 * @internal
 */
function compileKeyMap(
  d: DependentKeyMap,
  source: EntitySchema,
  map: unknown,
): { source: string; dependent: string }[] {
  const sourceParts = source.key.properties;
  const example = `key: { ${sourceParts.map((p) => `${p}: '${p === 'id' ? `${source.name.charAt(0).toLowerCase()}${source.name.slice(1)}Id` : p}'`).join(', ')} }`;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key ${preview(map)} must map each key part of ${source.name} to a property of ${d.entity}`,
      `write ${example}`,
    );
  }
  const record = map as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !sourceParts.includes(k));
  if (unknown !== undefined) {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key names "${unknown}", which is not a key part of ${source.name} (${sourceParts.join(', ')})`,
      `map exactly the key parts of ${source.name}: ${example}`,
    );
  }
  const missing = sourceParts.filter((p) => record[p] === undefined);
  if (missing.length > 0) {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key does not cover ${source.name}'s key part ${missing.join(', ')}, so a ${source.name} row cannot be addressed`,
      `map every key part of ${source.name}: ${example}`,
    );
  }
  return sourceParts.map((sourcePart) => ({
    source: sourcePart,
    dependent: checkTarget(d, source, sourcePart, record[sourcePart]),
  }));
}

function checkTarget(d: DependentKeyMap, source: EntitySchema, sourcePart: string, target: unknown): string {
  const choices = [
    ...d.key.properties,
    ...d.columns.filter((c) => !c.versioned && !d.copies.includes(c.property)).map((c) => c.property),
  ].join(', ');
  if (typeof target !== 'string') {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key maps ${source.name}.${sourcePart} to ${preview(target)}, which is not a property name`,
      `map it to one of ${choices}`,
    );
  }
  const sourceKind = keyKind(source.key, sourcePart) as ValueKind;
  const keyPartKind = keyKind(d.key, target);
  const column = d.columns.find((c) => c.property === target);
  let kind: ValueKind | undefined;
  if (keyPartKind !== undefined) kind = keyPartKind;
  else if (column !== undefined && !column.versioned && !d.copies.includes(target)) kind = COLUMN_KINDS[column.type];
  else {
    const why =
      column === undefined
        ? 'is neither a key part nor a column'
        : column.versioned
          ? 'is a versioned column'
          : 'is itself a @Denormalized copy';
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key maps ${source.name}.${sourcePart} to "${target}", which ${why}`,
      `map it to a key part or a plain column holding the ${source.name} key: one of ${choices}`,
    );
  }
  if (kind === undefined || !holds(kind, sourceKind)) {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key maps ${source.name}.${sourcePart} (${KIND_NAMES[sourceKind]} key part) to ${d.entity}.${target}, which holds ${kind === undefined ? 'another kind of value' : KIND_NAMES[kind]}`,
      `map it to a property of the same type, or change the type of ${target}`,
    );
  }
  return target;
}

/** The value kind of a key property; `undefined` when `property` is not one. */
function keyKind(key: KeyPlan, property: string): ValueKind | undefined {
  const component = keyPropertyComponent(key.components, property);
  return component === undefined ? undefined : KEY_KINDS[component.codec.type];
}
