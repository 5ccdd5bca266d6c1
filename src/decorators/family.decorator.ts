import type { FamilyDeclaration, FamilyOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { decorateClass } from './decorator-call.js';
import type { MapperClassDecorator } from './decorator-types.js';
import { assertFamilyName, assertNotResaltFamily } from './identifiers.js';

/**
 * Declares a column family of the entity's table, with its garbage-collection
 * policy. Group columns that are read together in one family.
 *
 * @example
 * ```ts
 * @Entity({ table: 'readings' })
 * @Family('measurements', { gc: { maxVersions: 5 } })
 * @Family('logs', { gc: { maxAge: '30d' } })
 * class Reading { ... }
 * ```
 */
export function Family(name: string, options: FamilyOptions = {}): MapperClassDecorator {
  return (...args: unknown[]) =>
    decorateClass('@Family', args, ({ entity, holder }) => {
      assertFamilyName(entity, name);
      assertNotResaltFamily(entity, name);
      const declaration: FamilyDeclaration = { name, options: { ...options } };
      appendOwn(MetadataKeys.families, holder, declaration);
    });
}
