import { MetadataError } from '../errors/errors.js';
import type { DenormalizedDeclaration, DenormalizedOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { decorateProperty } from './decorator-call.js';
import type { MapperPropertyDecorator } from './decorator-types.js';

/**
 * Marks a `@Column` as a copy of a column of another entity (docs/denormalization.md):
 * saves fill the copy from the source when it is `undefined` (sources are read
 * in batches), and `repo.propagate(source)` rewrites the copies when the source
 * changes. `key` maps every key part of the source to the property of this
 * entity holding its value; when those properties lead this entity's key, a
 * propagation reads one key prefix instead of the whole table. Otherwise
 * (a mapped property that is a column, or a key that starts with something
 * else) `propagate` must scan the whole table: it refuses to unless called
 * with `{ allowFullScan: true }`, and `lintEntity()` reports the copy as
 * `propagation-full-scan` at design time.
 *
 * @example
 * ```ts
 * @Entity({ table: 'readings' })
 * @Family('m')
 * class Reading {
 *   @KeyPart(0, { type: 'string' }) sensorId!: string;
 *   @KeyPart(1, { type: 'timestamp' }) ts!: Date;
 *   @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
 *   @Column({ family: 'm', type: 'string' }) location?: string;
 * }
 * ```
 */
export function Denormalized<S>(options: DenormalizedOptions<S>): MapperPropertyDecorator {
  return (...args: unknown[]) =>
    decorateProperty('@Denormalized', args, ({ entity, holder, property }) => {
      if (typeof property === 'symbol') {
        throw new MetadataError(
          entity,
          String(property),
          'symbol-keyed properties cannot be @Denormalized',
          'use a string property name',
        );
      }
      if (options === null || typeof options !== 'object') {
        throw new MetadataError(
          entity,
          property,
          '@Denormalized needs an options object',
          "write @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })",
        );
      }
      const declaration: DenormalizedDeclaration = {
        property,
        options: { ...(options as unknown as DenormalizedDeclaration['options']) },
      };
      appendOwn(MetadataKeys.denormalized, holder, declaration);
    });
}
