import { createKeyCodec } from '../../src/codec/key-codecs.js';
import type { KeySchema } from '../../src/key/logical-key.js';
import type { KeyPartOptions } from '../../src/model/declarations.js';
import type { KeyComponentSchema, SaltSchema } from '../../src/metadata/entity-schema.js';
import { withCompiledKey } from '../../src/metadata/compile-key-plan.js';

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
 * with codecs from `createKeyCodec` and the key plan's compiled part (its
 * byte layout), without decorators.
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
    key: withCompiledKey({
      format: 'text',
      separator,
      components,
      properties: components.flatMap((c) => (c.kind === 'property' ? [c.property] : [])),
      salt: undefined,
    }),
  };
}

/**
 * A test schema with a salt: its key plan copied (with what the compile pass
 * derives from it) and `salt` set.
 *
 * @example
 * ```ts
 * const salted = withSalt(schema, compileSalt('K', { buckets: 4 }, schema.key.components, '#'));
 * ```
 */
export function withSalt(schema: KeySchema, salt: SaltSchema | undefined): KeySchema {
  return { ...schema, key: withCompiledKey({ ...schema.key, salt }) };
}
