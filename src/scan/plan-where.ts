import { ValidationError } from '../errors/errors.js';
import type { KeyRangeCondition } from '../key/key-ranges.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { KeyPartRange, rangeProblem } from './scan-query.js';

/** A `where` split into a fixed key prefix and an optional range on the next key part. */
interface SplitWhere {
  readonly fixed: Readonly<Record<string, unknown>>;
  readonly range: KeyRangeCondition | undefined;
}

/**
 * Validates a scan's `where`: only key parts; equality on a leading run; at
 * most one range (a {@link KeyPartRange}), on the key part right after that
 * run. An equality value must be a string, number, bigint or `Date`: any other
 * object (a plain object from `JSON.parse`, an array, a Buffer) is rejected,
 * so untrusted input cannot widen the scan.
 * @internal
 */
export function splitWhere(schema: EntitySchema, where: Readonly<Record<string, unknown>> | undefined): SplitWhere {
  if (where === undefined) return { fixed: {}, range: undefined };
  if (where === null || typeof where !== 'object' || Array.isArray(where)) {
    throw new ValidationError(
      `${schema.name}: where must be an object of key parts. Fix: pass e.g. { ${schema.key.properties[0]}: ... }`,
      { entity: schema.name },
    );
  }
  const keys = schema.key.properties;
  for (const property of Reflect.ownKeys(where)) {
    if (typeof property !== 'string') {
      throw new ValidationError(`${schema.name}: where has a symbol key. Fix: name key parts (${keys.join(', ')})`, {
        entity: schema.name,
      });
    }
    if (!keys.includes(property)) {
      throw new ValidationError(
        `${schema.name}.${property}: scans can only select rows by key parts (${keys.join(', ')}). Fix: filter other properties after reading, or make ${property} part of the key`,
        { entity: schema.name, property },
      );
    }
  }
  const fixed: Record<string, unknown> = {};
  let range: KeyRangeCondition | undefined;
  for (const property of keys) {
    const value = where[property];
    if (value === undefined) break;
    if (value instanceof KeyPartRange) {
      checkRange(schema, property, value);
      range = { property, gt: value.gt, gte: value.gte, lt: value.lt, lte: value.lte };
      break;
    }
    checkEqualityValue(schema, property, value);
    fixed[property] = value;
  }
  const used = Object.keys(fixed).length + (range === undefined ? 0 : 1);
  const ignored = keys.slice(used).find((p) => where[p] !== undefined);
  if (ignored !== undefined) {
    const missing = keys[used] as string;
    const reason =
      range !== undefined ? `comes after the range on ${range.property}` : `comes after ${missing}, which is not given`;
    throw new ValidationError(
      `${schema.name}.${ignored}: ${reason}; a scan reads a key prefix plus one range on the next key part. Fix: fix every key part before ${ignored} with an equality, or drop it from where`,
      { entity: schema.name, property: ignored },
    );
  }
  return { fixed, range };
}

/** A range built from bad bounds: its problem, now that the key part it is on is known. */
function checkRange(schema: EntitySchema, property: string, value: KeyPartRange<unknown>): void {
  const problem = rangeProblem(value);
  if (problem === undefined) return;
  throw new ValidationError(`${schema.name}.${property}: range() ${problem.problem}. Fix: ${problem.fix}`, {
    entity: schema.name,
    property,
    ...(problem.bound === undefined ? {} : { bound: problem.bound }),
  });
}

/** Key values are primitives, Dates, or bytes for a bytes part; any other object is refused rather than read as an operator. */
function checkEqualityValue(schema: EntitySchema, property: string, value: unknown): void {
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  if (value instanceof Uint8Array && isBytesPart(schema, property)) return;
  throw new ValidationError(
    `${schema.name}.${property}: where.${property} must be a key value (string, number, bigint, boolean, Date or Buffer), got ${Array.isArray(value) ? 'an array' : 'an object'}; plain objects are never read as ranges. Fix: wrap bounds in range({...}), e.g. { ${property}: range({ gte: from, lt: to }) }, or pass the value itself`,
    { entity: schema.name, property },
  );
}

function isBytesPart(schema: EntitySchema, property: string): boolean {
  return schema.key.components.some(
    (c) => c.kind === 'property' && c.property === property && c.codec.type === 'bytes',
  );
}
