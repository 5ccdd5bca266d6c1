import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { instantiate } from '../scan/hydrate.js';

/**
 * A new instance of the schema's class holding `props`: the props object's
 * own enumerable properties, each assigned (so class setters run). Inherited
 * properties are ignored, and a `__proto__` key (as `JSON.parse` makes one) is
 * refused rather than assigned, which would change the instance's prototype.
 * @internal
 */
export function createEntity<T>(schema: EntitySchema<T>, props: object): T {
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    throw new ValidationError(
      `${schema.name}: create() takes an object of properties, got ${props === null ? 'null' : Array.isArray(props) ? 'an array' : preview(props)}. Fix: pass e.g. { ${schema.key.properties.join(', ')} }`,
      { entity: schema.name },
    );
  }
  const entity = instantiate(schema.target) as Record<string, unknown>;
  for (const name of Object.keys(props)) {
    if (name === '__proto__') {
      throw new ValidationError(
        `${schema.name}.__proto__: create() does not assign __proto__. Fix: drop that key from the input`,
        { entity: schema.name, property: name },
      );
    }
    entity[name] = (props as Record<string, unknown>)[name];
  }
  return entity as T;
}
