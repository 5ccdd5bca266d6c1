import { ValidationError } from '../errors/errors.js';
import type { Constructor } from '../model/declarations.js';
import type { EntitySchema } from '../metadata/entity-schema.js';

/**
 * Which source entity of `schema`'s copies `source` is: the class it is an
 * instance of, or, for a plain object, the only source class there is.
 *
 * @example
 * ```ts
 * resolveSourceClass(compileEntity(Reading), { id: 's1', location: 'lab' }); // Sensor
 * ```
 * @internal
 */
export function resolveSourceClass(schema: EntitySchema, source: unknown): Constructor {
  const classes = [...new Set(schema.denormalized.map((d) => d.source))];
  const names = classes.map((c) => c.name).join(', ');
  if (classes.length === 0) {
    throw new ValidationError(
      `${schema.name}: has no @Denormalized columns, so there is nothing to propagate. Fix: declare @Denormalized on the copied columns`,
      { entity: schema.name },
    );
  }
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    throw new ValidationError(
      `${schema.name}: propagate() needs the changed source entity (${names}). Fix: pass e.g. the ${classes[0]?.name} you just saved`,
      { entity: schema.name },
    );
  }
  const match = classes.find((c) => source instanceof c);
  if (match !== undefined) return match;
  if (classes.length === 1) return classes[0] as Constructor;
  throw new ValidationError(
    `${schema.name}: copies come from ${names}, and a plain object does not say which. Fix: pass an instance of the source class`,
    { entity: schema.name },
  );
}
