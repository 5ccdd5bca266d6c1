import 'reflect-metadata';
import { ValidationError } from '../errors/errors.js';
import { compileEntity } from '../metadata/compile-entity.js';
import { COMPILED, type ColumnSchema, type EntitySchema } from '../metadata/entity-schema.js';
import type { PropertyValidator } from '../metadata/property-validator.js';
import type { Constructor } from '../model/declarations.js';
import { foldValidatorSchema } from './fold-validator.js';
import {
  bigintSchema,
  bytesSchema,
  dateTimeSchema,
  floatSchema,
  keyPartSchema,
  type SchemaObject,
} from './json-values.js';

/**
 * A JSON Schema (draft 2020-12), as a plain object.
 *
 * @example
 * ```ts
 * const schema: JsonSchema = toJsonSchema(Reading, { for: 'create' });
 * schema.required; // ['sensorId', 'ts']
 * ```
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * What a schema of `toJsonSchema` describes: the JSON body that creates an
 * entity (`create`), that changes one (`update`), or what `toJson` gives for
 * one that was read (`read`).
 *
 * @example
 * ```ts
 * const options: JsonSchemaOptions = { for: 'update' };
 * ```
 */
export interface JsonSchemaOptions {
  /**
   * `create`: key parts required, columns optional (at least one), no `null`;
   * `update`: the columns only, all optional (at least one), `null` deletes a
   * cell; `read`: key parts required, every version with its timestamp.
   */
  for: 'create' | 'update' | 'read';
}

/** The draft of the schemas written. */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const PURPOSES = ['create', 'update', 'read'] as const;
type Purpose = (typeof PURPOSES)[number];

const DATE_TIME = 'an RFC 3339 date-time with a time zone, e.g. 2024-05-01T12:00:00.000Z';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The JSON Schema (draft 2020-12) of an entity's JSON form, derived from its
 * decorators: what a request body must hold to create (`for: 'create'`) or
 * change (`for: 'update'`) one, through `fromJson`, and what `toJson` gives
 * for one that was read (`for: 'read'`).
 *
 * - Key parts are required on create and read, and left out of an update.
 *   Their `maxLength`, `width`, `charset` and numeric ranges become
 *   `minLength`, `maxLength`, `pattern`, `minimum` and `maximum`.
 * - Columns are optional; a create or an update must hold at least one
 *   (`anyOf`), since a row exists only while it has a cell. `null` is allowed
 *   in an update only, where it deletes the cell.
 * - Encodings: a `Date` is RFC 3339 `date-time` text (digits past the
 *   milliseconds are dropped), a `bigint` decimal text of a signed 64-bit
 *   integer, bytes padded base64 (`contentEncoding: base64`), `int` a safe
 *   integer; a `json` column any JSON value; a class-typed column an object
 *   (`flatten`: its fields only).
 * - A versioned column is an array of `{ value, timestamp }`, `timestamp`
 *   optional on writes (the write's time).
 * - A `validate` validator that describes itself in JSON Schema (Standard
 *   JSON Schema: zod 4, ArkType) narrows the value's schema on create and
 *   update, for the types whose JSON form is the value itself (strings,
 *   numbers, booleans, `json` and class-typed columns); one that describes
 *   nothing (valibot, a refinement) still runs when the entity is written.
 *
 * The schema accepts what `fromJson` turns into an entity the mapper saves,
 * except what no JSON Schema can say: the 4 KiB row key and Bigtable's
 * request limits, `maxLength` counted in UTF-16 units by the mapper but in
 * code points by JSON Schema, the time range of a key part or cell timestamp,
 * unpaired surrogates in text, `__proto__` keys inside an embedded object,
 * and validator rules the validator does not describe; the mapper refuses
 * those with an error answered 400 (docs/validation-and-schemas.md).
 *
 * @example
 * ```ts
 * import { toJsonSchema } from 'bigtable-mapper/json';
 * import Ajv2020 from 'ajv/dist/2020';
 * import addFormats from 'ajv-formats';
 *
 * const ajv = addFormats(new Ajv2020());
 * const validCreate = ajv.compile(toJsonSchema(PageView, { for: 'create' }));
 * if (!validCreate(body)) reply.status(400).send(validCreate.errors);
 * ```
 */
export function toJsonSchema(entity: Constructor, options: JsonSchemaOptions): JsonSchema {
  const purpose = purposeOf(entity, options);
  const schema = compileEntity(entity) as EntitySchema;
  const validators = new Map(schema[COMPILED].validated.map((v) => [v.property, v.validator]));
  const fold = (derived: SchemaObject, property: string): SchemaObject => {
    const found = purpose === 'read' ? undefined : validators.get(property)?.jsonSchema();
    return found === undefined ? derived : foldValidatorSchema(derived, found);
  };
  const properties: SchemaObject = {};
  if (purpose !== 'update') {
    for (const c of schema.key.components) {
      if (c.kind !== 'property') continue;
      const derived = keyPartSchema(c.codec);
      properties[c.property] = foldsAsIs(c.codec.type) ? fold(derived, c.property) : derived;
    }
  }
  for (const column of schema.columns) {
    properties[column.property] = columnSchema(schema, column, purpose, validators.get(column.property), fold);
  }
  if (schema.cellTimestamp !== undefined) {
    properties[schema.cellTimestamp] = dateTimeSchema(
      `${DATE_TIME}: the timestamp of the row's cells (@CellTimestamp)${purpose === 'read' ? '' : ', from 1970 to 2255 (default: the time of the write)'}`,
    );
  }
  const result: JsonSchema = {
    $schema: DIALECT,
    title: schema.name,
    description: describe(schema, purpose),
    type: 'object',
    properties,
  };
  if (purpose !== 'update') result['required'] = [...schema.key.properties];
  result['additionalProperties'] = false;
  const written = atLeastOneColumn(schema, purpose);
  if (written !== undefined) Object.assign(result, written);
  return result;
}

function purposeOf(entity: Constructor, options: JsonSchemaOptions): Purpose {
  const purpose = (options as Partial<JsonSchemaOptions> | null | undefined)?.for;
  if (!PURPOSES.includes(purpose as Purpose)) {
    const name = typeof entity === 'function' ? entity.name : String(entity);
    throw new ValidationError(
      `${name}: toJsonSchema() needs { for: 'create' | 'update' | 'read' }, got ${JSON.stringify(options) ?? String(options)}. Fix: say which JSON the schema describes, e.g. toJsonSchema(${name}, { for: 'create' })`,
      { entity: name, option: 'for' },
    );
  }
  return purpose as Purpose;
}

/** Whether a key part's value is the same in JSON as in JavaScript, so a validator's JSON Schema of it applies. */
function foldsAsIs(type: string): boolean {
  return type === 'string' || type === 'uint' || type === 'int' || type === 'float' || type === 'boolean';
}

function describe(schema: EntitySchema, purpose: Purpose): string {
  const body =
    purpose === 'create'
      ? `A ${schema.name} to save: its key parts and at least one column.`
      : purpose === 'update'
        ? `Changes to a ${schema.name}: at least one column; null deletes a cell. The key is not part of it.`
        : `A ${schema.name} as read.`;
  return `${body} Dates are RFC 3339 date-time text, 64-bit integers decimal text, bytes base64.`;
}

/**
 * The schema of one column's value in the JSON form: its value (narrowed by
 * the validator's JSON Schema), an array of versions for a versioned column,
 * `null` allowed in an update.
 */
function columnSchema(
  schema: EntitySchema,
  column: ColumnSchema,
  purpose: Purpose,
  validator: PropertyValidator | undefined,
  fold: (derived: SchemaObject, property: string) => SchemaObject,
): SchemaObject {
  const derived = valueSchema(schema, column, purpose);
  const value = validator !== undefined && columnFoldsAsIs(column) ? fold(derived, column.property) : derived;
  if (column.versioned) {
    const versions: SchemaObject = {
      type: 'array',
      description:
        purpose === 'read'
          ? `up to ${column.versions} versions, newest first`
          : 'versions to write, each { value, timestamp }; timestamp is optional (default: the time of the write)',
      items: {
        type: 'object',
        properties: {
          value,
          timestamp: dateTimeSchema(
            purpose === 'read'
              ? `${DATE_TIME}: the cell timestamp`
              : `${DATE_TIME}: the cell timestamp, from 1970 to 2255`,
          ),
        },
        required: purpose === 'read' ? ['value', 'timestamp'] : ['value'],
        additionalProperties: false,
      },
    };
    if (purpose === 'read') versions['maxItems'] = column.versions;
    return purpose === 'update' ? nullable(versions) : versions;
  }
  if (column.type === 'json') {
    if (purpose === 'create') return excludesNull(value) ? value : { ...value, not: { type: 'null' } };
    return purpose === 'update' ? { ...value, description: 'any JSON value; null deletes the cell' } : value;
  }
  return purpose === 'update' ? nullable(value) : value;
}

/**
 * An `int` column as read: a safe integer, or, past 2^53 (where only
 * increments take a counter), its exact value as decimal text, as `toJson`
 * writes the `bigint` a read gives then.
 */
function intReadSchema(): SchemaObject {
  return {
    anyOf: [
      { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE },
      { ...bigintSchema(), description: 'past 2^53 (only increments get there): decimal text' },
    ],
  };
}

/** Whether the schema's `type` already rules `null` out (a validator's `object`, say). */
function excludesNull(schema: SchemaObject): boolean {
  const type = schema['type'];
  return (typeof type === 'string' && type !== 'null') || (Array.isArray(type) && !type.includes('null'));
}

function columnFoldsAsIs(column: ColumnSchema): boolean {
  return column.type !== 'date' && column.type !== 'bigint' && column.type !== 'bytes';
}

const DELETE: SchemaObject = { type: 'null', description: 'deletes the cell' };

/** `null` (a delete, in an update) or the schema; a schema that is only a choice gets one more choice. */
function nullable(schema: SchemaObject): SchemaObject {
  const keywords = Object.keys(schema);
  if (Array.isArray(schema['anyOf']) && keywords.every((k) => k === 'anyOf' || k === 'description'))
    return { ...schema, anyOf: [...(schema['anyOf'] as unknown[]), DELETE] };
  return { anyOf: [schema, DELETE] };
}

/** The schema of one value of a column (one version's value for a versioned column). */
function valueSchema(schema: EntitySchema, column: ColumnSchema, purpose: Purpose): SchemaObject {
  switch (column.type) {
    case 'string':
      return { type: 'string' };
    case 'int':
      return purpose === 'read' ? intReadSchema() : { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE };
    case 'float':
      return floatSchema();
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return dateTimeSchema(`${DATE_TIME} (digits past milliseconds are dropped)`);
    case 'bigint':
      return bigintSchema();
    case 'bytes':
      return bytesSchema(false, undefined);
    case 'json':
      return { description: 'any JSON value' };
    case 'class':
      return embeddedSchema(schema, column, purpose);
  }
}

/**
 * An embedded object: a `flatten` column's fields (any JSON each; on writes no
 * other field, as the mapper refuses one that would be lost), else an object,
 * or an array when the property is typed as one (a class-typed column also
 * stores arrays of instances), as TypeScript's `design:type` tells when the
 * compiler emitted it.
 */
function embeddedSchema(schema: EntitySchema, column: ColumnSchema, purpose: Purpose): SchemaObject {
  const name = column.classType?.name ?? 'object';
  if (column.layout === 'flatten') {
    const properties: SchemaObject = {};
    for (const field of column.fields ?? []) properties[field.name] = {};
    const object: SchemaObject = { type: 'object', description: `a ${name}, one cell per field`, properties };
    if (purpose !== 'read') object['additionalProperties'] = false;
    return object;
  }
  const designed: unknown = Reflect.getMetadata('design:type', schema.target.prototype as object, column.property);
  if (designed === Array) return { type: 'array', description: `${name} objects, stored as JSON` };
  if (typeof designed === 'function' && designed !== Object)
    return { type: 'object', description: `a ${name}, stored as JSON` };
  return {
    anyOf: [{ type: 'object' }, { type: 'array' }],
    description: `a ${name} (or an array of them), stored as JSON`,
  };
}

/**
 * A create or an update writes at least one cell: one column present, a
 * versioned one with a version, a flattened one with a field (or `null`, in
 * an update). A create of an entity with `@Denormalized` copies may write
 * only the copies it fills, so it needs none.
 */
function atLeastOneColumn(schema: EntitySchema, purpose: Purpose): SchemaObject | undefined {
  if (purpose === 'read' || (purpose === 'create' && schema.denormalized.length > 0)) return undefined;
  if (schema.columns.length === 0) return { not: {} };
  return {
    anyOf: schema.columns.map((column) => {
      // Present, and for a versioned or flattened column not empty (an update's null is a delete, which writes).
      const written = column.versioned
        ? { not: { type: 'array', maxItems: 0 } }
        : column.layout === 'flatten'
          ? { not: { type: 'object', maxProperties: 0 } }
          : true;
      return { required: [column.property], properties: { [column.property]: written } };
    }),
  };
}
