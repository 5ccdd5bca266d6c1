/**
 * `bigtable-mapper/json`: the JSON form of an entity. `toJsonSchema` derives
 * its JSON Schema (draft 2020-12) from the decorators, for the body that
 * creates an entity, the body that changes one, and the entity as read;
 * `fromJson` turns a body into entity data for `repo.create()` or
 * `repo.update()`, and `toJson` an entity into the JSON the read schema
 * describes. Dates are RFC 3339 text, 64-bit integers decimal text, bytes
 * base64. Importing it loads neither `@google-cloud/bigtable` nor gRPC.
 *
 * @example
 * ```ts
 * import { fromJson, toJson, toJsonSchema } from 'bigtable-mapper/json';
 * const createSchema = toJsonSchema(Reading, { for: 'create' });
 * ```
 *
 * @module bigtable-mapper/json
 */
export { toJsonSchema, type JsonSchema, type JsonSchemaOptions } from './json-form/to-json-schema.js';
export { fromJson, toJson, type FromJsonOptions, type JsonValue } from './json-form/json-conversion.js';
