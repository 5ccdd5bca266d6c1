import { invalidValues, type FoundIssue } from '../errors/validation-issues.js';
import { COMPILED, type EntitySchema } from '../metadata/entity-schema.js';
import type { ValidatedProperty } from '../metadata/property-validator.js';

const FIX = 'correct the values listed (each names Entity.property and the path inside the value)';

/**
 * Runs the `validate` validators of an entity's key parts and columns on the
 * values of `entity` as given, before anything is encoded or sent, and throws
 * one `ValidationError` listing every issue of every validator that failed.
 * A key part is checked unless it is `undefined` (the key encoder reports a
 * missing one); a column unless it is `undefined` or `null` (written as
 * nothing, or as a delete); a versioned column's array, version by version
 * (the `value` of each).
 * @internal
 */
export function checkValues(schema: EntitySchema, entity: unknown): void {
  const validated = schema[COMPILED].validated;
  // Anything but an object is the compiler's to refuse (asRecord).
  if (validated.length === 0 || !isObject(entity)) return;
  const found: FoundIssue[] = [];
  for (const v of validated) {
    const value = entity[v.property];
    if (v.kind === 'key') {
      if (value !== undefined) found.push(...v.validator.check(value));
    } else {
      found.push(...columnIssues(v, value));
    }
  }
  if (found.length > 0) throw invalidValues(schema.name, found, 'invalid values', FIX);
}

/**
 * {@link checkValues} for `update(key, changes)`: the key parts of `key`, and
 * the columns `changes` names (its own enumerable properties, as the update
 * writes them; a key part given there again is the key's own).
 * @internal
 */
export function checkChanges(schema: EntitySchema, key: unknown, changes: unknown): void {
  const validated = schema[COMPILED].validated;
  if (validated.length === 0 || !isObject(key) || !isObject(changes)) return;
  const found: FoundIssue[] = [];
  for (const v of validated) {
    if (v.kind === 'key') {
      const value = key[v.property];
      if (value !== undefined) found.push(...v.validator.check(value));
    } else if (Object.prototype.propertyIsEnumerable.call(changes, v.property)) {
      found.push(...columnIssues(v, changes[v.property]));
    }
  }
  if (found.length > 0) throw invalidValues(schema.name, found, 'invalid values', FIX);
}

/**
 * {@link checkValues} for the key parts of `key` alone: what a write that
 * touches no validated column (`increment`) checks before it can create a row.
 * @internal
 */
export function checkKeyValues(schema: EntitySchema, key: unknown): void {
  checkChanges(schema, key, {});
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function columnIssues(v: ValidatedProperty, value: unknown): FoundIssue[] {
  if (value === undefined || value === null) return [];
  if (!v.versioned || !Array.isArray(value)) return v.validator.check(value);
  const found: FoundIssue[] = [];
  for (const [i, version] of (value as unknown[]).entries()) {
    // A malformed version is the encoder's to report; only values are the validator's.
    if (version === null || typeof version !== 'object' || !('value' in version)) continue;
    const inner = (version as { value: unknown }).value;
    if (inner !== undefined) found.push(...v.validator.check(inner, [i, 'value']));
  }
  return found;
}
