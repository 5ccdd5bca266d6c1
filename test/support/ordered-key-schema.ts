import type { KeySchema } from '../../src/key/logical-key.js';
import type { KeyPartDeclaration, KeyPartOptions, SaltOptions } from '../../src/model/declarations.js';
import { compileKeyPlan } from '../../src/metadata/compile-key-plan.js';

/**
 * One key part of an ordered-code test schema: a literal or a typed property.
 *
 * @example
 * ```ts
 * const parts: OrderedPartSpec[] = [{ literal: 'event' }, { property: 'id', options: { type: 'string' } }];
 * ```
 */
export type OrderedPartSpec = { literal: string } | { property: string; options: KeyPartOptions };

/**
 * The `{ name, key }` part of an `EntitySchema` with `keyFormat:
 * 'ordered-code'`, compiled from key-part specs by the compile pass itself
 * (without decorators).
 *
 * @example
 * ```ts
 * const schema = orderedKeySchema('Reading', [{ property: 'id', options: { type: 'string' } }], { buckets: 4 });
 * ```
 */
export function orderedKeySchema(name: string, parts: readonly OrderedPartSpec[], salt?: SaltOptions): KeySchema {
  const declarations: KeyPartDeclaration[] = parts.map((part, position) =>
    'literal' in part
      ? { position, options: { literal: part.literal } }
      : { position, property: part.property, options: part.options },
  );
  return { name, key: compileKeyPlan(name, class {}, declarations, '#', salt, 'ordered-code') };
}
