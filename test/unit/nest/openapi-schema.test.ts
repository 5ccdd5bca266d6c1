import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { toJsonSchema } from '../../../src/json.js';
import { toOpenApiSchema, type OpenApiSchemaObject } from '../../../src/nest/index.js';
import { Sensor } from '../json-form/entities.js';

/**
 * The fields of an OpenAPI 3.0 Schema Object (OpenAPI 3.0.3, "Schema Object"), as `@nestjs/swagger`
 * declares them in its `SchemaObject` interface.
 */
interface SwaggerSchemaObject {
  nullable?: boolean;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  readOnly?: boolean;
  writeOnly?: boolean;
  xml?: Record<string, unknown>;
  externalDocs?: { url: string; description?: string };
  example?: unknown;
  examples?: unknown[] | Record<string, unknown>;
  deprecated?: boolean;
  type?: string;
  allOf?: SwaggerSchemaObject[];
  oneOf?: SwaggerSchemaObject[];
  anyOf?: SwaggerSchemaObject[];
  not?: SwaggerSchemaObject;
  items?: SwaggerSchemaObject;
  properties?: Record<string, SwaggerSchemaObject>;
  additionalProperties?: SwaggerSchemaObject | boolean;
  patternProperties?: unknown;
  description?: string;
  format?: string;
  default?: unknown;
  title?: string;
  multipleOf?: number;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  enum?: unknown[];
}

const OPENAPI_3_0_FIELDS = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'example',
  'deprecated',
]);

/** Every problem that keeps `schema` from being an OpenAPI 3.0 Schema Object, by JSON pointer. */
function notOpenApi30(schema: unknown, at = '#'): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [`${at}: not an object`];
  const problems: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    const here = `${at}/${keyword}`;
    if (!OPENAPI_3_0_FIELDS.has(keyword)) problems.push(`${here}: not a 3.0 field`);
    if (keyword === 'type' && (typeof value !== 'string' || value === 'null'))
      problems.push(`${here}: ${String(value)}`);
    if ((keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum') && typeof value !== 'boolean')
      problems.push(`${here}: not a boolean`);
    if (['not', 'items'].includes(keyword) || (keyword === 'additionalProperties' && typeof value !== 'boolean'))
      problems.push(...notOpenApi30(value, here));
    if (['allOf', 'anyOf', 'oneOf'].includes(keyword))
      (value as unknown[]).forEach((s, i) => problems.push(...notOpenApi30(s, `${here}/${i}`)));
    if (keyword === 'properties')
      for (const [name, s] of Object.entries(value as object)) problems.push(...notOpenApi30(s, `${here}/${name}`));
  }
  return problems;
}

@Entity({ table: 'accounts' })
@Family('a')
class Account {
  @KeyPart(0, { type: 'string', validate: z.string().uuid() }) id!: string;
  @Column({ family: 'a', type: 'int', validate: z.number().int().positive().lt(100) }) age?: number;
  @Column({ family: 'a', type: 'string', validate: z.literal('gold') }) tier?: string;
  @Column({ family: 'a', type: 'json', validate: z.union([z.string(), z.number()]).nullable() }) extra?: unknown;
}

describe('toOpenApiSchema', () => {
  it('is the JSON Schema itself for OpenAPI 3.1 (the default), without $schema', () => {
    for (const purpose of ['create', 'update', 'read'] as const) {
      const { $schema: _dialect, ...expected } = toJsonSchema(Sensor, { for: purpose });
      expect(toOpenApiSchema(Sensor, { for: purpose })).toEqual(expected);
      expect(toOpenApiSchema(Sensor, { for: purpose, openapi: '3.1' })).toEqual(expected);
    }
  });

  it('writes OpenAPI 3.0 Schema Objects: nullable, boolean exclusive bounds, enum for const, format byte', () => {
    for (const entity of [Sensor, Account])
      for (const purpose of ['create', 'update', 'read'] as const)
        expect(notOpenApi30(toOpenApiSchema(entity, { for: purpose, openapi: '3.0' }))).toEqual([]);
    const update = toOpenApiSchema(Sensor, { for: 'update', openapi: '3.0' }).properties ?? {};
    expect(update['active']).toEqual({ type: 'boolean', nullable: true });
    expect(update['firmware']).toMatchObject({ type: 'string', format: 'byte', nullable: true });
    const account = toOpenApiSchema(Account, { for: 'create', openapi: '3.0' }).properties ?? {};
    expect(account['age']).toMatchObject({
      type: 'integer',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 100,
      exclusiveMaximum: true,
    });
    expect(account['tier']).toMatchObject({ type: 'string', enum: ['gold'] });
    expect(account['id']).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('keeps the create body’s rule that one column at least is written, in 3.0 terms', () => {
    const create = toOpenApiSchema(Sensor, { for: 'create', openapi: '3.0' });
    expect(create.anyOf).toContainEqual({ required: ['label'], properties: { label: {} } });
    expect(create.required).toEqual(['site', 'chip', 'slot']);
  });

  it('gives values of the shape @nestjs/swagger takes', () => {
    expectTypeOf<OpenApiSchemaObject>().toExtend<SwaggerSchemaObject>();
    const schema: SwaggerSchemaObject = toOpenApiSchema(Sensor, { for: 'read', openapi: '3.0' });
    expect(schema.type).toBe('object');
  });

  it('refuses an OpenAPI version it does not write', () => {
    expect(() => toOpenApiSchema(Sensor, { for: 'create', openapi: '2.0' as never })).toThrow(ValidationError);
  });
});
