import { createKeyCodec } from '../../src/codec/key-codecs.js';
import type { KeySchema } from '../../src/key/logical-key.js';
import type { KeyPartOptions } from '../../src/model/declarations.js';
import type { KeyComponentSchema } from '../../src/metadata/entity-schema.js';

/**
 * One key part of a test schema: a literal or a typed property.
 *
 * @example
 * ```ts
 * const parts: KeyPartSpec[] = [{ literal: 'event' }, { property: 'id', options: { type: 'string' } }];
 * ```
 */
export type KeyPartSpec = { literal: string } | { property: string; options: KeyPartOptions };

/**
 * Builds the `{ name, key }` part of an `EntitySchema` from key-part specs,
 * with codecs from `createKeyCodec`, without decorators.
 *
 * @example
 * ```ts
 * const schema = keySchema('Reading', [
 *   { property: 'sensorId', options: { type: 'string' } },
 *   { property: 'ts', options: { type: 'timestamp' } },
 * ]);
 * ```
 */
export function keySchema(name: string, parts: readonly KeyPartSpec[], separator = '#'): KeySchema {
  const components: KeyComponentSchema[] = parts.map((part, position) =>
    'literal' in part
      ? { kind: 'literal', position, literal: part.literal }
      : {
          kind: 'property',
          position,
          property: part.property,
          codec: createKeyCodec(name, part.property, part.options, separator),
        },
  );
  return {
    name,
    key: {
      format: 'text',
      separator,
      components,
      properties: components.flatMap((c) => (c.kind === 'property' ? [c.property] : [])),
      salt: undefined,
    },
  };
}
