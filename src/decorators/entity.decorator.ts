import { MetadataError } from '../errors/errors.js';
import type { EntityOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { setOwnValue } from '../metadata/store.js';
import { decorateClass } from './decorator-call.js';
import type { MapperClassDecorator } from './decorator-types.js';
import { assertSeparator, assertTableId } from './identifiers.js';

/**
 * Marks a class as a Bigtable entity stored in `table`.
 *
 * @example
 * ```ts
 * @Entity({ table: 'readings' })
 * class Reading {
 *   @KeyPart(0, { type: 'string' }) sensorId!: string;
 * }
 * ```
 */
export function Entity(options: EntityOptions): MapperClassDecorator {
  return (...args: unknown[]) =>
    decorateClass('@Entity', args, ({ entity, holder }) => {
      if (options === null || typeof options !== 'object') {
        throw new MetadataError(
          entity,
          undefined,
          '@Entity needs an options object',
          "write @Entity({ table: 'my-table' })",
        );
      }
      assertTableId(entity, options.table);
      if (options.separator !== undefined) assertSeparator(entity, options.separator);
      setOwnValue(MetadataKeys.entity, holder, { ...options });
    });
}
