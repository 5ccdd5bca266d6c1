import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { instantiate } from '../read/hydrate.js';
import { closestName } from '../util/option-names.js';
import { checkValues } from '../mutation/validate-values.js';

/**
 * A new instance of the schema's class holding `props`: the props object's
 * own enumerable properties, each assigned (so class setters run). Inherited
 * properties are ignored, and a `__proto__` key (as `JSON.parse` makes one) is
 * refused rather than assigned, which would change the instance's prototype.
 * Only the entity's mapped properties, fields its constructor sets and
 * properties with a setter are taken: an unknown key (a typo, or an extra
 * field of a request body) and a getter without a setter are
 * `ValidationError`s naming `Entity.property`, never a `TypeError` nor a
 * stray property echoed back to a client. The `validate` validators then
 * check the instance's values (those it holds, the constructor's defaults
 * included), as a write would.
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
    checkAssignable(schema, entity, name);
    entity[name] = (props as Record<string, unknown>)[name];
  }
  checkValues(schema, entity);
  return entity as T;
}

/** Throws unless `name` is a mapped property, a field the constructor set, or an accessor with a setter. */
function checkAssignable(schema: EntitySchema, entity: object, name: string): void {
  const accessor = accessorOf(entity, name);
  if (accessor !== undefined && accessor.set === undefined) {
    throw new ValidationError(
      `${schema.name}.${name}: is read-only (a getter without a setter), so create() cannot set it. Fix: drop ${name} from the input; the getter computes it`,
      { entity: schema.name, property: name },
    );
  }
  if (accessor !== undefined || Object.hasOwn(entity, name) || mappedProperties(schema).includes(name)) return;
  const suggestion = closestName(name, mappedProperties(schema));
  throw new ValidationError(
    `${schema.name}.${name}: not a property of ${schema.name}.${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`} Fix: ${suggestion === undefined ? `drop it from the input (properties: ${mappedProperties(schema).join(', ')})` : `rename it to "${suggestion}"`}`,
    { entity: schema.name, property: name.slice(0, 80), suggestion },
  );
}

/** The accessor that defines `name` on the instance's prototype chain, if any (never on Object.prototype). */
function accessorOf(entity: object, name: string): PropertyDescriptor | undefined {
  for (let proto = Object.getPrototypeOf(entity) as object | null; proto !== null && proto !== Object.prototype;) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor !== undefined)
      return descriptor.get !== undefined || descriptor.set !== undefined ? descriptor : undefined;
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return undefined;
}

function mappedProperties(schema: EntitySchema): string[] {
  const names = [...schema.key.properties, ...schema.columns.map((c) => c.property)];
  return schema.cellTimestamp === undefined ? names : [...names, schema.cellTimestamp];
}
