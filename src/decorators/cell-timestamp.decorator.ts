import { MetadataError } from '../errors/errors.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { decorateProperty } from './decorator-call.js';
import type { MapperPropertyDecorator } from './decorator-types.js';

/**
 * Marks a `Date` property as the cell timestamp: saves write every cell with
 * this time (so a retried write is idempotent and versions follow event time),
 * and reads fill it with the newest cell's time.
 *
 * @example
 * ```ts
 * @CellTimestamp() readAt!: Date;
 * ```
 */
export function CellTimestamp(): MapperPropertyDecorator {
  return (...args: unknown[]) =>
    decorateProperty('@CellTimestamp', args, ({ entity, holder, property }) => {
      if (typeof property === 'symbol') {
        throw new MetadataError(
          entity,
          String(property),
          'symbol-keyed properties cannot be @CellTimestamp',
          'use a string property name',
        );
      }
      appendOwn(MetadataKeys.cellTimestamp, holder, property);
    });
}
