import { KeyEncodingError, ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { COMPILED, type EntitySchema, type KeyByteStep, type KeyComponentSchema } from '../metadata/entity-schema.js';
import { DECODE_FIX } from '../codec/key-codecs.js';
import { sameBytesAt } from '../util/compare-bytes.js';

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

type PropertyComponent = Extract<KeyComponentSchema, { kind: 'property' }>;

/**
 * The key layout as text for messages, e.g. `event#sensorId#ts` (literals in quotes).
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
 * @internal
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

function encodeKey(
  schema: KeySchema,
  values: Readonly<Record<string, unknown>>,
  mode: 'full' | 'prefix',
): { encoded: string[]; next: PropertyComponent | undefined } {
  const { components } = schema.key;
  const encoded: string[] = [];
  for (let index = 0; index < components.length; index++) {
    const component = components[index] as KeyComponentSchema;
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
 * @internal
 */
export function joinLogicalKey(separator: string, components: readonly string[], complete: boolean): string {
  if (complete || components.length === 0) return components.join(separator);
  return `${components.join(separator)}${separator}`;
}

/**
 * Decodes logical key text (no salt) back into the key properties. Throws
 * `ValidationError` when the number of components or a literal does not match
 * the layout, and `KeyEncodingError` (with the key text) when a component does
 * not decode.
 * @internal
 */
export function decodeLogicalKey(schema: KeySchema, text: string): Record<string, unknown> {
  // One pass with indexOf and no intermediate parts; anything unexpected (a
  // layout mismatch, a component that does not decode) is left to decodeSplit,
  // which throws the error the layout check or the codec calls for.
  const { components, separator } = schema.key;
  const values: Record<string, unknown> = {};
  const last = components.length - 1;
  if (last < 0 || separator === '') return decodeSplit(schema, text);
  let start = 0;
  for (let index = 0; index <= last; index++) {
    const component = components[index] as KeyComponentSchema;
    const end = componentEnd(component, text, start, index === last, separator);
    if (end < 0) return decodeSplit(schema, text);
    if (component.kind === 'literal') {
      const { literal } = component;
      if (end - start !== literal.length || !text.startsWith(literal, start)) return decodeSplit(schema, text);
    } else {
      try {
        values[component.property] = component.codec.decode(text.slice(start, end));
      } catch {
        return decodeSplit(schema, text);
      }
    }
    start = end + separator.length;
  }
  return values;
}

/**
 * Where the component that starts at `start` ends: at the next separator, or
 * the end of the text for the last one. A verbatim part with a width takes
 * exactly that many code units (then a separator or the end must follow); a
 * last verbatim part takes the rest of the key, separators included. -1 when
 * the text does not fit the layout.
 */
function componentEnd(
  component: KeyComponentSchema,
  text: string,
  start: number,
  isLast: boolean,
  separator: string,
): number {
  const verbatim = component.kind === 'property' ? component.codec.verbatim : undefined;
  if (verbatim?.width !== undefined) {
    const end = start + verbatim.width;
    if (end > text.length) return -1;
    if (isLast) return end === text.length ? end : -1;
    return text.startsWith(separator, end) ? end : -1;
  }
  if (isLast && verbatim !== undefined) return text.length;
  const next = text.indexOf(separator, start);
  if (!isLast) return next;
  return next === -1 ? text.length : -1;
}

/** The key text cut into its components, by {@link componentEnd} when a part is verbatim, else by `split`. */
function splitKey(schema: KeySchema, text: string): string[] {
  const { components, separator } = schema.key;
  if (!components.some((c) => c.kind === 'property' && c.codec.verbatim !== undefined)) return text.split(separator);
  const parts: string[] = [];
  let start = 0;
  for (const [index, component] of components.entries()) {
    const end = componentEnd(component, text, start, index === components.length - 1, separator);
    if (end < 0)
      throw layoutMismatch(
        schema,
        text,
        `does not split into its key parts: component ${index} (${describeComponent(component)}) does not fit at character ${start}`,
      );
    parts.push(text.slice(start, end));
    start = end + separator.length;
  }
  return parts;
}

function describeComponent(component: KeyComponentSchema): string {
  if (component.kind === 'literal') return `the literal ${preview(component.literal)}`;
  const width = component.codec.verbatim?.width;
  return width === undefined ? component.property : `${component.property}, exactly ${width} characters`;
}

/** {@link decodeLogicalKey} by `split`, for keys whose layout does not match (it throws the error naming the problem). */
function decodeSplit(schema: KeySchema, text: string): Record<string, unknown> {
  const { components } = schema.key;
  const parts = splitKey(schema, text);
  if (parts.length !== components.length)
    throw layoutMismatch(schema, text, `has ${parts.length} components, expected ${components.length}`);
  const values: Record<string, unknown> = {};
  for (let index = 0; index < components.length; index++) {
    const component = components[index] as KeyComponentSchema;
    const part = parts[index] as string;
    if (component.kind === 'literal') {
      if (part !== component.literal)
        throw layoutMismatch(
          schema,
          text,
          `has ${preview(part)} at position ${index}, expected the literal ${preview(component.literal)}`,
        );
      continue;
    }
    values[component.property] = decodeComponent(schema, component, index, part, text);
  }
  return values;
}

/** One property component's value; a codec `KeyEncodingError` is rethrown naming the whole key text. */
function decodeComponent(
  schema: KeySchema,
  component: PropertyComponent,
  index: number,
  part: string,
  text: string,
): unknown {
  try {
    return component.codec.decode(part);
  } catch (err) {
    if (!(err instanceof KeyEncodingError)) throw err;
    throw new KeyEncodingError(
      schema.name,
      component.property,
      text,
      `is not a valid row key: component ${index} ${preview(part)} ${String(err.details.reason)}`,
      DECODE_FIX,
    );
  }
}

function layoutMismatch(schema: KeySchema, text: string, problem: string): ValidationError {
  return new ValidationError(
    `${schema.name}: row key ${preview(text)} ${problem} (key layout ${describeKeyLayout(schema)}). Fix: ${DECODE_FIX}.`,
    {
      entity: schema.name,
      rowKey: text,
    },
  );
}

/**
 * Decodes the logical key that starts at byte `start` of a physical key (0,
 * or after the salt segment) straight from the bytes, by the byte layout the
 * compile pass found (literals and digit components only), skipping the
 * UTF-8 text: the same values `decodeLogicalKey` returns for that part of the
 * key's text. `undefined` when the schema has no byte layout or this key
 * needs the text path (which also throws the errors): a layout mismatch, a
 * component that does not decode.
 *
 * The separator is ASCII, and UTF-8 decoding never turns other bytes into an
 * ASCII character nor swallows one, so the byte segments are the text's
 * components; literals and digits match byte for byte.
 * @internal
 */
export function decodeKeyBytes(schema: KeySchema, key: Uint8Array, start: number): Record<string, unknown> | undefined {
  const layout = schema.key[COMPILED]?.byteLayout;
  if (layout === undefined) return undefined;
  const { separator, steps } = layout;
  const last = steps.length - 1;
  const values: Record<string, unknown> = {};
  for (let index = 0; index <= last; index++) {
    let end = start;
    while (end < key.length && key[end] !== separator) end++;
    if (index < last ? end === key.length : end !== key.length) return undefined;
    const step = steps[index] as KeyByteStep;
    if (step.literal !== undefined) {
      if (!sameBytesAt(key, start, end, step.literal)) return undefined;
    } else {
      const value = step.decode(key, start, end);
      if (value === undefined) return undefined;
      values[step.property] = value;
    }
    start = end + 1;
  }
  return values;
}
