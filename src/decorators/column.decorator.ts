import { MetadataError } from '../errors/errors.js';
import type { ColumnDeclaration, ColumnOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { decorateProperty } from './decorator-call.js';
import type { MapperPropertyDecorator } from './decorator-types.js';

/**
 * Maps a property to a column `family:qualifier`, stored with the codec of
 * `type`. With `versions: n` the property holds up to n `{ value, timestamp }`
 * versions, newest first. `undefined` properties are not written (sparse rows).
 *
 * @example
 * ```ts
 * @Column({ family: 'measurements', type: 'float', versions: 5 })
 * temperature?: Versioned<number>;
 * @Column({ family: 'logs', qualifier: 'sys', type: 'string' })
 * systemLog?: string;
 * ```
 */
export function Column(options: ColumnOptions): MapperPropertyDecorator {
  return (...args: unknown[]) =>
    decorateProperty('@Column', args, ({ entity, holder, property }) => {
      if (typeof property === 'symbol') {
        throw new MetadataError(
          entity,
          String(property),
          'symbol-keyed properties cannot be columns',
          'use a string property name',
        );
      }
      if (options === null || typeof options !== 'object') {
        throw new MetadataError(
          entity,
          property,
          '@Column needs an options object',
          "write @Column({ family: 'f', type: 'string' })",
        );
      }
      const declaration: ColumnDeclaration = { property, options: { ...options } };
      appendOwn(MetadataKeys.columns, holder, declaration);
    });
}
