import type { EntitySchema, KeyComponentSchema } from '../metadata/entity-schema.js';
import { ValidationError } from '../errors/validation-error.js';

/**
 * The part of an `EntitySchema` the row-key functions (`encodeRowKey`,
 * `decodeRowKey`) need: its name and key plan. Any `compileEntity()` result
 * is one.
 *
 * @example
 * ```ts
 * const keySchema: KeySchema = compileEntity(Reading);
 * ```
 */
export type KeySchema = Pick<EntitySchema, 'name' | 'key'>;

/**
 * The key layout as text for messages, e.g. `event#sensorId#ts` (literals in quotes).
 *
 * @example
 * ```ts
 * describeKeyLayout(schema); // '"event"#sensorId#ts'
 * ```
 * @internal
 */
export function describeKeyLayout(schema: KeySchema): string {
  return schema.key.components
    .map((c) => (c.kind === 'literal' ? JSON.stringify(c.literal) : c.property))
    .join(schema.key.separator);
}

/**
 * Encodes the logical key components in order (literals as their text).
 * `full` needs every key property; `prefix` stops at the first `undefined`
 * property (literals before it are kept) and rejects a property given after a
 * missing one. Throws `ValidationError` for missing parts and
 * `KeyEncodingError` for bad values.
 *
 * @example
 * ```ts
 * encodeKeyComponents(schema, { sensorId: 'sensor123', ts: new Date('2023-05-01T12:00:00Z') }, 'full');
 * // ['sensor123', '2023-05-01T12:00:00.000Z']
 * encodeKeyComponents(schema, { sensorId: 'sensor123' }, 'prefix'); // ['sensor123']
 * ```
 */
export function encodeKeyComponents(
  schema: KeySchema,
  values: Readonly<Record<string, unknown>>,
  mode: 'full' | 'prefix',
): string[] {
  return encodeKey(schema, values, mode).encoded;
}

/**
 * {@link encodeKeyComponents} in `prefix` mode, and the key property right
 * after the prefix (`undefined` when every property is given).
 * @internal
 */
export function encodeKeyPrefix(
  schema: KeySchema,
  values: Readonly<Record<string, unknown>>,
): { encoded: string[]; next: PropertyComponent | undefined } {
  return encodeKey(schema, values, 'prefix');
}

type PropertyComponent = Extract<KeyComponentSchema, { kind: 'property' }>;

function encodeKey(
  schema: KeySchema,
  values: Readonly<Record<string, unknown>>,
  mode: 'full' | 'prefix',
): { encoded: string[]; next: PropertyComponent | undefined } {
  const { components } = schema.key;
  const encoded: string[] = [];
  for (const [index, component] of components.entries()) {
    if (component.kind === 'literal') {
      encoded.push(component.literal);
      continue;
    }
    const { property } = component;
    const value = values[property];
    if (value !== undefined) {
      encoded.push(component.codec.encode(value));
      continue;
    }
    const layout = describeKeyLayout(schema);
    if (mode === 'full') {
      throw new ValidationError(`${schema.name}: key is missing "${property}". Fix: pass every key part (${layout}).`, {
        entity: schema.name,
        property,
      });
    }
    for (const later of components.slice(index + 1)) {
      if (later.kind === 'property' && values[later.property] !== undefined) {
        throw new ValidationError(
          `${schema.name}: key prefix gives "${later.property}" but not "${property}", which comes before it in the key (${layout}). Fix: also pass "${property}", or leave out "${later.property}".`,
          { entity: schema.name, property, given: later.property },
        );
      }
    }
    return { encoded, next: component };
  }
  return { encoded, next: undefined };
}

/**
 * Joins encoded components into logical key text. A complete key is joined
 * with the separator; a prefix ends with the separator (or is `''` when it has
 * no components), so it never matches a longer value of its last component.
 *
 * @example
 * ```ts
 * joinLogicalKey('#', ['sensor123', '2023-05-01T12:00:00.000Z'], true); // 'sensor123#2023-05-01T12:00:00.000Z'
 * joinLogicalKey('#', ['sensor123'], false);                            // 'sensor123#'
 * ```
 */
export function joinLogicalKey(separator: string, components: readonly string[], complete: boolean): string {
  if (complete || components.length === 0) return components.join(separator);
  return `${components.join(separator)}${separator}`;
}
