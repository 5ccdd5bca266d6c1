import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { ColumnLayout, ColumnOptions, Constructor } from '../model/declarations.js';
import type { EmbeddedFieldSchema } from './entity-schema.js';
import { checkPropertyName } from './reserved-names.js';
import { instanceToPlain } from 'class-transformer';

/** The layout of a column and, for `flatten`, its field cells. */
interface CompiledLayout {
  readonly layout: ColumnLayout | undefined;
  readonly fields: readonly EmbeddedFieldSchema[] | undefined;
}

/**
 * Validates `layout`, `fields` and `fieldPrefix` of a `@Column`: they apply to
 * class-typed columns; `flatten` cannot keep versions and needs the field list
 * (explicit `fields`, else the class's `@Expose()`d properties). Each field is
 * stored under `fieldPrefix + field` (default `<qualifier>.<field>`).
 * @internal
 */
export function compileLayout(
  entity: string,
  property: string,
  options: ColumnOptions,
  qualifier: string,
): CompiledLayout {
  const { layout, fields, fieldPrefix, type } = options;
  if (layout !== undefined && layout !== 'json' && layout !== 'flatten') {
    throw new MetadataError(
      entity,
      property,
      `layout ${preview(layout)} is not known`,
      "use layout: 'json' (one cell, the default) or 'flatten' (one cell per field)",
    );
  }
  if (typeof type !== 'function') {
    if (layout !== undefined || fields !== undefined || fieldPrefix !== undefined) {
      throw new MetadataError(
        entity,
        property,
        `layout, fields and fieldPrefix apply to class-typed columns, not to type ${preview(type)}`,
        'remove them, or declare type: SomeClass',
      );
    }
    return { layout: undefined, fields: undefined };
  }
  if ((layout ?? 'json') === 'json') {
    if (fields !== undefined || fieldPrefix !== undefined) {
      throw new MetadataError(
        entity,
        property,
        "fields and fieldPrefix apply to layout: 'flatten' only",
        "add layout: 'flatten', or remove them",
      );
    }
    return { layout: 'json', fields: undefined };
  }
  if (options.versions !== undefined) {
    throw new MetadataError(
      entity,
      property,
      'a flattened column cannot keep versions',
      "use layout: 'json' for a versioned object, or remove versions",
    );
  }
  const prefix = fieldPrefix ?? `${qualifier}.`;
  if (typeof prefix !== 'string') {
    throw new MetadataError(
      entity,
      property,
      `fieldPrefix ${preview(prefix)} must be a string`,
      `omit it for the default '${qualifier}.'`,
    );
  }
  const names = fields === undefined ? exposedFields(type) : checkFields(entity, property, fields);
  for (const name of names) checkPropertyName(entity, name, 'flattened field', `${property}.${name}`);
  if (names.length === 0) {
    throw new MetadataError(
      entity,
      property,
      `cannot flatten ${type.name || 'the class'}: its fields are unknown (no @Expose()d properties)`,
      `list them, e.g. fields: ['street', 'city'], or mark each field of ${type.name || 'the class'} with @Expose()`,
    );
  }
  return { layout: 'flatten', fields: names.map((name) => Object.freeze({ name, qualifier: `${prefix}${name}` })) };
}

function checkFields(entity: string, property: string, fields: unknown): string[] {
  const fix = "list the plain field names once each, e.g. fields: ['street', 'city']";
  if (!Array.isArray(fields) || fields.length === 0)
    throw new MetadataError(entity, property, `fields ${preview(fields)} must be a non-empty array`, fix);
  const seen = new Set<string>();
  for (const name of fields as unknown[]) {
    if (typeof name !== 'string' || name === '')
      throw new MetadataError(entity, property, `fields lists ${preview(name)}, which is not a field name`, fix);
    if (seen.has(name)) throw new MetadataError(entity, property, `fields lists "${name}" twice`, fix);
    seen.add(name);
  }
  return [...seen];
}

/**
 * The fields of a class as class-transformer exposes them: the plain names of
 * its `@Expose()`d properties (renamed by `@Expose({ name })`), found by
 * turning an empty instance into a plain object with `excludeExtraneousValues`.
 * Empty when the class exposes nothing or the probe throws (e.g. a getter
 * that needs state); callers then ask for an explicit `fields` list.
 * @internal
 */
function exposedFields(cls: Constructor): string[] {
  try {
    const probe = Object.create(cls.prototype as object) as object;
    const plain = instanceToPlain(probe, { excludeExtraneousValues: true, exposeUnsetFields: true });
    return plain !== null && typeof plain === 'object' ? Object.keys(plain) : [];
  } catch {
    return [];
  }
}
