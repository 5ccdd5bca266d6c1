import { KeyEncodingError } from '../errors/key-encoding-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { DECODE_FIX } from './key-codec-context.js';
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
  const { components, separator } = schema.key;
  const parts = text.split(separator);
  const mismatch = (problem: string): ValidationError =>
    new ValidationError(`${schema.name}: row key ${preview(text)} ${problem} (key layout ${describeKeyLayout(schema)}). Fix: ${DECODE_FIX}.`, {
      entity: schema.name,
      rowKey: text,
    });
  if (parts.length !== components.length) throw mismatch(`has ${parts.length} components, expected ${components.length}`);
  const values: Record<string, unknown> = {};
  for (const [index, component] of components.entries()) {
    const part = parts[index] as string;
    if (component.kind === 'literal') {
      if (part !== component.literal) throw mismatch(`has ${preview(part)} at position ${index}, expected the literal ${preview(component.literal)}`);
      continue;
    }
    const property = component.property as string;
    try {
      values[property] = (component.codec as NonNullable<typeof component.codec>).decode(part);
    } catch (err) {
      if (!(err instanceof KeyEncodingError)) throw err;
      throw new KeyEncodingError(schema.name, property, text, `is not a valid row key: component ${index} ${preview(part)} ${String(err.details.reason)}`, DECODE_FIX);
    }
  }
  return values;
}
