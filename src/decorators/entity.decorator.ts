import { MetadataError } from '../errors/errors.js';
import type { EntityOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { setOwnValue } from '../metadata/store.js';
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
export function Entity(options: EntityOptions): ClassDecorator {
  return (target) => {
    if (options === null || typeof options !== 'object') {
      throw new MetadataError(
        target.name,
        undefined,
        '@Entity needs an options object',
        "write @Entity({ table: 'my-table' })",
      );
    }
    assertTableId(target.name, options.table);
    if (options.separator !== undefined) assertSeparator(target.name, options.separator);
    setOwnValue(MetadataKeys.entity, target, { ...options });
  };
}
