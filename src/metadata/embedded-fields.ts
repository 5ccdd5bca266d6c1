import { instanceToPlain } from 'class-transformer';
import type { Constructor } from '../model/declarations.js';

/**
 * The fields of a class as class-transformer exposes them: the plain names of
 * its `@Expose()`d properties (renamed by `@Expose({ name })`), found by
 * turning an empty instance into a plain object with `excludeExtraneousValues`.
 * Empty when the class exposes nothing or the probe throws (e.g. a getter
 * that needs state); callers then ask for an explicit `fields` list.
 * @internal
 */
export function exposedFields(cls: Constructor): string[] {
  try {
    const probe = Object.create(cls.prototype as object) as object;
    const plain = instanceToPlain(probe, { excludeExtraneousValues: true, exposeUnsetFields: true });
    return plain !== null && typeof plain === 'object' ? Object.keys(plain) : [];
  } catch {
    return [];
  }
}
