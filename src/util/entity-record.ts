import { ValidationError } from '../errors/errors.js';

/**
 * Checks that an entity (or a key, or the changes of an update) is an object,
 * and returns it as a record; `schema` names the entity in the message. Writes
 * and reads both take it.
 * @internal
 */
export function asRecord(schema: { readonly name: string }, entity: unknown): Record<string, unknown> {
  if (entity === null || typeof entity !== 'object' || Array.isArray(entity)) {
    throw new ValidationError(
      `${schema.name}: expected an entity object, got ${entity === null ? 'null' : Array.isArray(entity) ? 'an array' : typeof entity}. Fix: pass an instance of ${schema.name} or a plain object with its properties`,
      { entity: schema.name },
    );
  }
  return entity as Record<string, unknown>;
}
