import { MetadataError } from '../errors/errors.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';

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
export function CellTimestamp(): PropertyDecorator {
  return (target, propertyKey) => {
    if (typeof propertyKey === 'symbol') {
      throw new MetadataError(
        target.constructor.name,
        String(propertyKey),
        'symbol-keyed properties cannot be @CellTimestamp',
        'use a string property name',
      );
    }
    appendOwn(MetadataKeys.cellTimestamp, target.constructor, propertyKey);
  };
}
