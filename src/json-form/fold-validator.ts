import type { SchemaObject } from './json-values.js';

/** Keywords that name or point into a schema document: a validator's schema holding one cannot be moved into another document. */
const DOCUMENT_KEYWORDS = new Set([
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$defs',
  'definitions',
]);

/** Keywords whose intersection is their larger value, and those whose intersection is their smaller. */
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Keywords that describe and do not constrain: the mapper's own text (which documents the encoding) wins. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default', 'deprecated']);

/**
 * The mapper's schema of a value, narrowed by a validator's JSON Schema of
 * the same value: the intersection of both, as one schema where their
 * keywords combine (bounds take the tighter value, `required` lists merge,
 * `properties` merge property by property), else `allOf` of the two. A
 * validator schema that refers into its own document (`$ref`, `$defs`,
 * `$id`, ...) is left out, since its references would break once moved:
 * the mapper's schema stays as it is.
 * @internal
 */
export function foldValidatorSchema(derived: SchemaObject, validator: Readonly<Record<string, unknown>>): SchemaObject {
  if (refersToDocument(validator)) return derived;
  const own: SchemaObject = structuredClone({ ...validator }) as SchemaObject;
  delete own['$schema'];
  const narrowed = typeof own['type'] === 'string' ? narrowChoice(derived, own['type']) : derived;
  return merge(narrowed, own) ?? { allOf: [narrowed, own] };
}

/**
 * The mapper's schema without the choices of its `anyOf` that the
 * validator's `type` rules out (an embedded object or array, when the
 * validator says object; a float's text forms, when it says number): the same
 * intersection, written without branches no value can take.
 */
function narrowChoice(derived: SchemaObject, type: string): SchemaObject {
  const choices = derived['anyOf'];
  if (!Array.isArray(choices)) return derived;
  const kept = (choices as unknown[]).filter((choice) => !isObject(choice) || admits(choice, type));
  if (kept.length === choices.length) return derived;
  const { anyOf: _dropped, ...rest } = derived;
  const [only] = kept;
  if (kept.length === 1 && isObject(only)) return merge(rest, only) ?? { ...rest, anyOf: kept };
  return kept.length === 0 ? { ...rest, not: {} } : { ...rest, anyOf: kept };
}

/** Whether a choice of the mapper's schema can hold a value of JSON type `type`. */
function admits(choice: SchemaObject, type: string): boolean {
  const own = choice['type'];
  if (typeof own === 'string')
    return own === type || (own === 'number' && type === 'integer') || (own === 'integer' && type === 'number');
  const values = choice['enum'];
  if (Array.isArray(values))
    return (values as unknown[]).some((v) => jsonType(v) === type || (type === 'number' && jsonType(v) === 'integer'));
  return true;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * One schema for both, or `undefined` when some keyword of both cannot be
 * combined. Keywords of one schema object hold together, so their union is
 * the intersection, except where a keyword reads its neighbours:
 * `additionalProperties` applies to the keys that `properties` and
 * `patternProperties` beside it do not name, `items` to what `prefixItems`
 * leaves, the `unevaluated*` keywords to everything beside them. When both
 * schemas use such a group, it merges only if they name the same properties,
 * the same patterns and prefixes, and the same `unevaluated*` rule.
 */
function merge(a: SchemaObject, b: SchemaObject): SchemaObject | undefined {
  if (!neighboursAgree(a, b)) return undefined;
  const merged: SchemaObject = { ...a };
  for (const [keyword, value] of Object.entries(b)) {
    if (!Object.hasOwn(merged, keyword)) {
      merged[keyword] = value;
      continue;
    }
    const mine = merged[keyword];
    if (sameJson(mine, value) || ANNOTATIONS.has(keyword)) continue;
    const combined = combine(keyword, mine, value);
    if (combined === undefined) return undefined;
    merged[keyword] = combined;
  }
  return merged;
}

function combine(keyword: string, a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    if (LOWER_BOUNDS.has(keyword)) return Math.max(a, b);
    if (UPPER_BOUNDS.has(keyword)) return Math.min(a, b);
    return undefined;
  }
  if (keyword === 'type') {
    const types = [a, b].sort();
    return types[0] === 'integer' && types[1] === 'number' ? 'integer' : undefined;
  }
  if (keyword === 'required' && Array.isArray(a) && Array.isArray(b)) return [...new Set([...a, ...b])];
  if (keyword === 'properties' && isObject(a) && isObject(b)) {
    const properties: SchemaObject = { ...a };
    for (const [name, schema] of Object.entries(b)) {
      const mine = properties[name];
      properties[name] =
        mine === undefined || !isObject(mine) || !isObject(schema)
          ? schema
          : (merge(mine, schema) ?? { allOf: [mine, schema] });
    }
    return properties;
  }
  return undefined;
}

const OBJECT_GROUP = ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'];
const ARRAY_GROUP = ['prefixItems', 'items', 'unevaluatedItems'];

function neighboursAgree(a: SchemaObject, b: SchemaObject): boolean {
  const uses = (schema: SchemaObject, group: readonly string[]) => group.some((k) => Object.hasOwn(schema, k));
  if (uses(a, OBJECT_GROUP) && uses(b, OBJECT_GROUP)) {
    const names = (schema: SchemaObject) =>
      isObject(schema['properties']) ? Object.keys(schema['properties']).sort() : [];
    if (!sameJson(names(a), names(b))) return false;
    if (!sameJson(a['patternProperties'], b['patternProperties'])) return false;
    if (!sameJson(a['unevaluatedProperties'], b['unevaluatedProperties'])) return false;
  }
  if (uses(a, ARRAY_GROUP) && uses(b, ARRAY_GROUP)) {
    if (!sameJson(a['prefixItems'], b['prefixItems'])) return false;
    if (!sameJson(a['unevaluatedItems'], b['unevaluatedItems'])) return false;
  }
  return true;
}

function refersToDocument(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (DOCUMENT_KEYWORDS.has(key)) return true;
      pending.push(child);
    }
  }
  return false;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
