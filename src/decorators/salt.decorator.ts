import { MetadataError } from '../errors/errors.js';
import type { SaltOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { setOwnValue } from '../metadata/store.js';
import { decorateClass } from './decorator-call.js';
import type { MapperClassDecorator } from './decorator-types.js';

/**
 * Salts the entity's row keys with a hash bucket so sequential writes spread
 * over `buckets` key ranges. Point reads still compute one key; scans fan out
 * over the buckets in parallel and merge back in key order.
 *
 * @example
 * ```ts
 * @Entity({ table: 'page-views' })
 * @Salt({ buckets: 8, on: ['userId', 'site'] }) // per user+site scans stay in one bucket
 * class PageView {
 *   @KeyPart(0, { type: 'string' }) userId!: string;
 *   @KeyPart(1, { type: 'string' }) site!: string;
 *   @KeyPart(2, { type: 'timestamp', format: 'epoch-ms' }) at!: Date;
 * }
 * ```
 */
export function Salt(options: SaltOptions): MapperClassDecorator {
  return (...args: unknown[]) =>
    decorateClass('@Salt', args, ({ entity, holder }) => {
      if (options === null || typeof options !== 'object') {
        throw new MetadataError(entity, undefined, '@Salt needs an options object', 'write @Salt({ buckets: 8 })');
      }
      setOwnValue(MetadataKeys.salt, holder, { ...options });
    });
}
