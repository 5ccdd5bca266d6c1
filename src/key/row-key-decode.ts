import { KeyEncodingError } from '../errors/key-encoding-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { KeyComponentSchema } from '../metadata/entity-schema.js';
import { DECODE_FIX } from '../codec/key-codec-context.js';
import { describeKeyLayout, type KeySchema } from './row-key-components.js';

/**
 * Decodes logical key text (no salt) back into the key properties. Throws
 * `ValidationError` when the number of components or a literal does not match
 * the layout, and `KeyEncodingError` (with the key text) when a component does
 * not decode.
 *
 * @example
 * ```ts
 * decodeLogicalKey(schema, 'sensor123#2023-05-01T12:00:00.000Z');
 * // { sensorId: 'sensor123', ts: Date 2023-05-01T12:00:00.000Z }
 * ```
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
    const next = text.indexOf(separator, start);
    const end = index < last ? next : next === -1 ? text.length : -1;
    if (end < 0) return decodeSplit(schema, text);
    const component = components[index] as KeyComponentSchema;
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

/** {@link decodeLogicalKey} by `split`, for keys whose layout does not match (it throws the error naming the problem). */
function decodeSplit(schema: KeySchema, text: string): Record<string, unknown> {
  const { components, separator } = schema.key;
  const parts = text.split(separator);
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
  component: Extract<KeyComponentSchema, { kind: 'property' }>,
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
