import { instanceToPlain } from 'class-transformer';
import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { invalidValues, type FoundIssue } from '../errors/validation-issues.js';
import type { KeyComponentCodec } from '../codec/codec-contracts.js';
import type { EntityChanges } from '../metadata/compile-key-plan.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { ColumnSchema, EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor, EntityData } from '../model/declarations.js';
import { closestName } from '../util/option-names.js';
import {
  bigintFromJson,
  bytesFromJson,
  dateFromJson,
  floatFromJson,
  floatToJson,
  JsonMismatch,
  keyPartFromJson,
  type JsonValue,
} from './json-values.js';

export type { JsonValue } from './json-values.js';

/**
 * What `fromJson` reads: the JSON body that creates an entity (its key parts
 * and columns) or that changes one (columns only; `null` deletes a cell).
 *
 * @example
 * ```ts
 * const options: FromJsonOptions = { for: 'create' };
 * ```
 */
export interface FromJsonOptions {
  /** `create`: a body of `toJsonSchema(Entity, { for: 'create' })`; `update`: of `{ for: 'update' }`. */
  for: 'create' | 'update';
}

const FIX_JSON =
  'send the JSON form of the entity (see toJsonSchema): dates as RFC 3339 date-time text, 64-bit integers as decimal text, bytes as base64';

/**
 * The entity data a JSON body holds, in the JSON form `toJsonSchema`
 * describes: `date-time` text becomes a `Date`, decimal text a `bigint`,
 * base64 text a `Buffer`, a versioned column's `[{ value, timestamp }]`
 * versions with their `Date`s, the text `NaN`, `Infinity` or `-Infinity` of
 * a `float` column its number; every other value stays as it is, for the
 * mapper's own checks (types, ranges, key encoding, `validate` validators)
 * when `repo.create()` and the write receive it. What cannot be read is one
 * `ValidationError` listing every problem with its path (HTTP 400): a body
 * that is no object, a property the entity does not have (the closest one is
 * suggested), a key part in an update, `null` anywhere but for a column of an
 * update (where it deletes the cell), a value not in its JSON form. Nothing
 * is read from the body's prototype, and a `__proto__` key is an unknown
 * property.
 *
 * @example
 * ```ts
 * import { fromJson } from 'bigtable-mapper/json';
 *
 * app.post('/readings', async (req, res) => {
 *   const reading = readings.create(fromJson(Reading, req.body, { for: 'create' }));
 *   await readings.save(reading);
 *   res.status(201).json(toJson(Reading, reading));
 * });
 * app.patch('/readings/:sensorId/:ts', async (req, res) => {
 *   await readings.update(keyOf(req.params), fromJson(Reading, req.body, { for: 'update' }));
 *   res.status(204).end();
 * });
 * ```
 */
export function fromJson<T>(entity: Constructor<T>, json: unknown, options: { for: 'create' }): EntityData<T>;
/**
 * The changes a JSON body of `toJsonSchema(Entity, { for: 'update' })` holds,
 * for `repo.update(key, changes)`: see the other signature.
 *
 * @example
 * ```ts
 * await readings.update(key, fromJson(Reading, req.body, { for: 'update' })); // { "temperature": null } deletes it
 * ```
 */
export function fromJson<T>(entity: Constructor<T>, json: unknown, options: { for: 'update' }): EntityChanges<T>;
export function fromJson<T>(
  entity: Constructor<T>,
  json: unknown,
  options: FromJsonOptions,
): EntityData<T> | EntityChanges<T> {
  const schema = compileEntity(entity) as EntitySchema;
  const purpose = (options as Partial<FromJsonOptions> | null | undefined)?.for;
  if (purpose !== 'create' && purpose !== 'update') {
    throw new ValidationError(
      `${schema.name}: fromJson() needs { for: 'create' | 'update' }, got ${preview(options)}. Fix: say what the body is for, e.g. fromJson(${schema.name}, body, { for: 'create' })`,
      { entity: schema.name, option: 'for' },
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ValidationError(
      `${schema.name}: the JSON body must be an object, got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : preview(json)}. Fix: ${FIX_JSON}`,
      { entity: schema.name },
    );
  }
  const keyCodecs = new Map<string, KeyComponentCodec>();
  for (const c of schema.key.components) if (c.kind === 'property') keyCodecs.set(c.property, c.codec);
  const columns = new Map(schema.columns.map((c) => [c.property, c]));
  const found: FoundIssue[] = [];
  const data: Record<string, unknown> = {};
  for (const name of Object.keys(json)) {
    const value = (json as Record<string, unknown>)[name];
    const issue = (message: string, path: readonly unknown[] = []) => found.push({ property: name, path, message });
    const keyCodec = keyCodecs.get(name);
    const column = columns.get(name);
    if (keyCodec === undefined && column === undefined && name !== schema.cellTimestamp) {
      issue(unknownProperty(schema, name, purpose));
    } else if (keyCodec !== undefined && purpose === 'update') {
      issue('is a key part: an update changes columns only, the key names the row');
    } else if (value === null) {
      if (column !== undefined && purpose === 'update') data[name] = null;
      else
        issue(
          column !== undefined
            ? 'null deletes a cell, which only an update does: leave the property out'
            : 'null: leave the property out',
        );
    } else {
      const converted =
        keyCodec !== undefined
          ? keyPartFromJson(keyCodec, value)
          : column !== undefined
            ? columnFromJson(column, value, issue)
            : dateFromJson(value);
      if (converted instanceof JsonMismatch) issue(converted.message);
      else data[name] = converted;
    }
  }
  if (found.length > 0) throw invalidValues(schema.name, found, 'the JSON body does not fit', FIX_JSON);
  return data as EntityData<T> | EntityChanges<T>;
}

function unknownProperty(schema: EntitySchema, name: string, purpose: 'create' | 'update'): string {
  const names = [
    ...(purpose === 'create' ? schema.key.properties : []),
    ...schema.columns.map((c) => c.property),
    ...(schema.cellTimestamp === undefined ? [] : [schema.cellTimestamp]),
  ];
  const suggestion = closestName(name, names);
  return suggestion === undefined
    ? `not a property of ${schema.name} (properties: ${names.join(', ')})`
    : `not a property of ${schema.name}. Did you mean "${suggestion}"?`;
}

/** One column's value ← JSON; a versioned column's versions one by one, each problem reported with its path. */
function columnFromJson(
  column: ColumnSchema,
  value: unknown,
  issue: (message: string, path?: readonly unknown[]) => void,
): unknown {
  if (!column.versioned) return valueFromJson(column, value);
  if (!Array.isArray(value))
    return new JsonMismatch(
      `a versioned column takes an array of { value, timestamp } versions (timestamp optional), got ${preview(value)}`,
    );
  const versions: { value: unknown; timestamp?: Date }[] = [];
  for (const [i, version] of (value as unknown[]).entries()) {
    if (version === null || typeof version !== 'object' || Array.isArray(version)) {
      issue(`expected a version { value, timestamp }, got ${preview(version)}`, [i]);
      continue;
    }
    const entry = version as Record<string, unknown>;
    for (const key of Object.keys(entry))
      if (key !== 'value' && key !== 'timestamp') issue('not a field of a version: value and timestamp only', [i, key]);
    if (!Object.hasOwn(entry, 'value')) {
      issue('a version needs its value', [i]);
      continue;
    }
    const converted = valueFromJson(column, entry['value']);
    if (converted instanceof JsonMismatch) issue(converted.message, [i, 'value']);
    const out: { value: unknown; timestamp?: Date } = { value: converted };
    if (Object.hasOwn(entry, 'timestamp')) {
      const timestamp = dateFromJson(entry['timestamp']);
      if (timestamp instanceof JsonMismatch) issue(timestamp.message, [i, 'timestamp']);
      else out.timestamp = timestamp;
    }
    versions.push(out);
  }
  return versions;
}

/** One value of a column ← JSON. */
function valueFromJson(column: ColumnSchema, value: unknown): unknown {
  switch (column.type) {
    case 'date':
      return dateFromJson(value);
    case 'bigint':
      return bigintFromJson(value);
    case 'bytes':
      return bytesFromJson(value);
    case 'float':
      return floatFromJson(value);
    default:
      return value;
  }
}

/**
 * The JSON form of an entity (or of the properties a `select` read), as
 * `toJsonSchema(Entity, { for: 'read' })` describes it: a plain object of its
 * key parts, columns and `@CellTimestamp` property, each `Date` as ISO 8601
 * text, each `bigint` as decimal text, bytes as base64, a versioned column's
 * versions as `{ value, timestamp }`, a class-typed column as its plain form
 * (`instanceToPlain`), a non-finite `float` as `NaN`, `Infinity` or
 * `-Infinity` text. `undefined` and `null` properties are left out (a row
 * has no null cell), and so is everything the entity holds beside its mapped
 * properties. `JSON.stringify` writes the result as it is. A value that does
 * not fit its declared type (a `date` column holding text) is a
 * `ValidationError` listing each.
 *
 * @example
 * ```ts
 * import { toJson } from 'bigtable-mapper/json';
 *
 * res.json(toJson(Reading, await readings.findOneOrFail(key)));
 * // { sensorId: 's1', ts: '2024-05-01T12:00:00.000Z', temperature: 21.5 }
 * ```
 */
export function toJson<T>(entity: Constructor<T>, value: Partial<T>): { [property: string]: JsonValue } {
  const schema = compileEntity(entity) as EntitySchema;
  if (value === null || typeof value !== 'object') {
    throw new ValidationError(
      `${schema.name}: toJson() takes an entity, got ${preview(value)}. Fix: pass an instance of ${schema.name} (or an object of its properties)`,
      { entity: schema.name },
    );
  }
  const record = value as Record<string, unknown>;
  const found: FoundIssue[] = [];
  const json: { [property: string]: JsonValue } = {};
  const put = (property: string, convert: (v: unknown) => JsonValue | JsonMismatch) => {
    const v = record[property];
    if (v === undefined || v === null) return;
    const converted = convert(v);
    if (converted instanceof JsonMismatch) found.push({ property, path: [], message: converted.message });
    else json[property] = converted;
  };
  for (const c of schema.key.components) {
    if (c.kind === 'property') put(c.property, (v) => scalarToJson(c.codec.type, v));
  }
  for (const column of schema.columns) {
    put(column.property, (v) => (column.versioned ? versionsToJson(column, v) : columnValueToJson(column, v)));
  }
  if (schema.cellTimestamp !== undefined) put(schema.cellTimestamp, (v) => scalarToJson('timestamp', v));
  if (found.length > 0)
    throw invalidValues(
      schema.name,
      found,
      'values do not fit their declared types',
      'give each property a value of its declared type',
    );
  return json;
}

function versionsToJson(column: ColumnSchema, value: unknown): JsonValue | JsonMismatch {
  if (!Array.isArray(value))
    return new JsonMismatch(`a versioned column holds an array of versions, got ${preview(value)}`);
  const versions: JsonValue[] = [];
  for (const version of value as unknown[]) {
    const { value: v, timestamp } = (version ?? {}) as { value?: unknown; timestamp?: unknown };
    const converted = columnValueToJson(column, v);
    if (converted instanceof JsonMismatch) return converted;
    const time = scalarToJson('timestamp', timestamp);
    if (time instanceof JsonMismatch) return time;
    versions.push({ value: converted, timestamp: time });
  }
  return versions;
}

function columnValueToJson(column: ColumnSchema, value: unknown): JsonValue | JsonMismatch {
  switch (column.type) {
    case 'int':
      // Past 2^53 only an increment takes a counter, and a read gives its exact bigint.
      return typeof value === 'bigint' ? value.toString() : scalarToJson('int', value);
    case 'float':
      return typeof value === 'number' ? floatToJson(value) : mismatch('a number', value);
    case 'date':
      return scalarToJson('timestamp', value);
    case 'json':
      return plainJson(value);
    case 'class':
      return typeof value === 'object' && value !== null
        ? plainJson(instanceToPlain(value))
        : mismatch('an object', value);
    default:
      return scalarToJson(column.type, value);
  }
}

/** A value of a key part type (or of the scalar column types they share) → JSON. */
function scalarToJson(type: string, value: unknown): JsonValue | JsonMismatch {
  switch (type) {
    case 'timestamp':
      return value instanceof Date && !Number.isNaN(value.getTime())
        ? value.toISOString()
        : mismatch('a valid Date', value);
    case 'bigint':
      return typeof value === 'bigint' ? value.toString() : mismatch('a bigint', value);
    case 'bytes':
      return value instanceof Uint8Array
        ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')
        : mismatch('a Buffer or Uint8Array', value);
    case 'string':
      return typeof value === 'string' ? value : mismatch('a string', value);
    case 'boolean':
      return typeof value === 'boolean' ? value : mismatch('a boolean', value);
    default:
      // uint, int and float key parts, int columns: finite numbers.
      return typeof value === 'number' && Number.isFinite(value) ? value : mismatch('a finite number', value);
  }
}

/** A JSON value holding only what JSON can write (Dates as their text), or the reason it cannot be one. */
function plainJson(value: unknown): JsonValue | JsonMismatch {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? mismatch('a JSON value', value) : (JSON.parse(text) as JsonValue);
  } catch (err) {
    return new JsonMismatch(
      `cannot be written as JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    );
  }
}

function mismatch(expected: string, value: unknown): JsonMismatch {
  return new JsonMismatch(`expected ${expected}, got ${preview(value)}`);
}
