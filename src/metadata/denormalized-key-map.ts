import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { ColumnSchema, EntitySchema, KeyPlan } from './entity-schema.js';
import { keyPropertyComponent } from './compile-key-plan.js';

/** The JS kind a key part or column value has, for compatibility checks. */
type ValueKind = 'string' | 'number' | 'bigint' | 'date' | 'other';

const KEY_KINDS: Readonly<Record<string, ValueKind>> = {
  string: 'string',
  uint: 'number',
  int: 'number',
  bigint: 'bigint',
  timestamp: 'date',
};
const COLUMN_KINDS: Readonly<Record<string, ValueKind>> = {
  string: 'string',
  int: 'number',
  float: 'number',
  bigint: 'bigint',
  date: 'date',
};

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
export function compileKeyMap(
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
  const sourceKind = keyKind(source.key, sourcePart) ?? 'other';
  const keyPartKind = keyKind(d.key, target);
  const column = d.columns.find((c) => c.property === target);
  let kind: ValueKind;
  if (keyPartKind !== undefined) kind = keyPartKind;
  else if (column !== undefined && !column.versioned && !d.copies.includes(target))
    kind = COLUMN_KINDS[column.type] ?? 'other';
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
  if (kind !== sourceKind) {
    throw new MetadataError(
      d.entity,
      d.property,
      `@Denormalized key maps ${source.name}.${sourcePart} (a ${sourceKind} key part) to ${d.entity}.${target}, which holds a ${kind}`,
      `map it to a property of the same type, or change the type of ${target}`,
    );
  }
  return target;
}

/** The value kind of a key property; `undefined` when `property` is not one. */
function keyKind(key: KeyPlan, property: string): ValueKind | undefined {
  const component = keyPropertyComponent(key.components, property);
  return component === undefined ? undefined : (KEY_KINDS[component.codec.type] ?? 'other');
}
