import { ValidationError } from '../errors/errors.js';
import { toJsonSchema, type JsonSchemaOptions } from '../json-form/to-json-schema.js';
import type { Constructor } from '../model/declarations.js';

/**
 * An OpenAPI Schema Object, as `toOpenApiSchema` returns it: a plain value of
 * the shape `@nestjs/swagger` takes (`@ApiBody({ schema })`,
 * `@ApiResponse({ schema })`, `document.components.schemas`), without this
 * library depending on `@nestjs/swagger`. `type` is always one type name;
 * other keywords of the schema's OpenAPI version may be present.
 *
 * @example
 * ```ts
 * const schema: OpenApiSchemaObject = toOpenApiSchema(PageView, { for: 'create' });
 * schema.required; // ['userId', 'site', 'at']
 * ```
 */
export interface OpenApiSchemaObject {
  /** One JSON type name. */
  type?: string;
  /** OpenAPI 3.0: `null` is a value too. */
  nullable?: boolean;
  /** A format (`date-time`, `byte`, `email`, ...). */
  format?: string;
  /** A title. */
  title?: string;
  /** What the value is. */
  description?: string;
  /** The schemas of an object's properties. */
  properties?: Record<string, OpenApiSchemaObject>;
  /** An object's required properties. */
  required?: string[];
  /** The schema of an object's other properties, or whether there may be any. */
  additionalProperties?: OpenApiSchemaObject | boolean;
  /** The schema of an array's items. */
  items?: OpenApiSchemaObject;
  /** Schemas the value must all match. */
  allOf?: OpenApiSchemaObject[];
  /** Schemas the value must match one or more of. */
  anyOf?: OpenApiSchemaObject[];
  /** Schemas the value must match exactly one of. */
  oneOf?: OpenApiSchemaObject[];
  /** A schema the value must not match. */
  not?: OpenApiSchemaObject;
  /** The values allowed. */
  enum?: unknown[];
  /** A regular expression text must match. */
  pattern?: string;
  /** Shortest text, in characters. */
  minLength?: number;
  /** Longest text, in characters. */
  maxLength?: number;
  /** Smallest number. */
  minimum?: number;
  /** Largest number. */
  maximum?: number;
  /** Fewest array items. */
  minItems?: number;
  /** Most array items. */
  maxItems?: number;
  /** Fewest object properties. */
  minProperties?: number;
  /** Most object properties. */
  maxProperties?: number;
  /** Any other keyword of the OpenAPI version's schema dialect. */
  [keyword: string]: unknown;
}

/**
 * Options of `toOpenApiSchema`: what the schema describes (as for
 * `toJsonSchema`) and the OpenAPI version of the document it goes into.
 *
 * @example
 * ```ts
 * const options: OpenApiSchemaOptions = { for: 'update', openapi: '3.0' };
 * ```
 */
export interface OpenApiSchemaOptions extends JsonSchemaOptions {
  /**
   * `3.1` (default): the schema is JSON Schema 2020-12, which OpenAPI 3.1
   * takes as it is. `3.0`, the version `@nestjs/swagger` writes unless told
   * otherwise: `null` becomes `nullable`, `const` an `enum`, a numeric
   * `exclusiveMinimum` a `minimum` with `exclusiveMinimum: true`, base64 text
   * `format: byte`; keywords 3.0 lacks (`propertyNames`, `prefixItems`,
   * `if`/`then`/`else`, `dependentRequired`, `unevaluated*`, ...) are left out,
   * so the schema may accept more than the mapper does.
   */
  openapi?: '3.0' | '3.1';
}

/** Keywords OpenAPI 3.0's Schema Object lacks; a 3.0 schema leaves them out. */
const NOT_IN_3_0 = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  '$comment',
  'propertyNames',
  'patternProperties',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'if',
  'then',
  'else',
  'contentMediaType',
  'contentSchema',
]);

/** Keywords whose value is a schema, a list of schemas, or a map of schemas. */
const SUBSCHEMA = new Set(['not', 'items', 'additionalProperties']);
const SUBSCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SUBSCHEMA_MAPS = new Set(['properties']);

/**
 * The OpenAPI Schema Object of an entity's JSON form, for `@nestjs/swagger`:
 * `toJsonSchema(Entity, { for })` (see there: the create body, the update
 * body, or the entity as read, with the encodings of dates, 64-bit integers
 * and bytes), written for an OpenAPI 3.1 document (the default) or a 3.0 one.
 * A plain value: `@nestjs/swagger` is not a dependency of this library.
 *
 * @example
 * ```ts
 * import { ApiBody, ApiOkResponse } from '@nestjs/swagger';
 * import { toOpenApiSchema } from 'bigtable-mapper/nest';
 *
 * @Post()
 * @ApiBody({ schema: toOpenApiSchema(PageView, { for: 'create', openapi: '3.0' }) })
 * @ApiOkResponse({ schema: toOpenApiSchema(PageView, { for: 'read', openapi: '3.0' }) })
 * create(@Body() body: unknown) { ... }
 * ```
 */
export function toOpenApiSchema(entity: Constructor, options: OpenApiSchemaOptions): OpenApiSchemaObject {
  const version = (options as Partial<OpenApiSchemaOptions> | null | undefined)?.openapi ?? '3.1';
  if (version !== '3.0' && version !== '3.1') {
    throw new ValidationError(
      `toOpenApiSchema(): openapi must be '3.0' or '3.1', got ${JSON.stringify(version)}. Fix: give the version of the document the schema goes into`,
      { option: 'openapi' },
    );
  }
  const { $schema: _dialect, ...schema } = toJsonSchema(entity, { for: options.for });
  return (version === '3.0' ? toOpenApi30(schema) : toOpenApi31(schema)) as OpenApiSchemaObject;
}

/** OpenAPI 3.1 takes JSON Schema 2020-12; only a list of types becomes a choice, so `type` is one name. */
function toOpenApi31(schema: unknown): unknown {
  return rewrite(schema, (node) => {
    if (!Array.isArray(node['type'])) return node;
    const { type, ...rest } = node;
    const choices = (type as unknown[]).map((t) => ({ type: t }));
    return choices.length === 1
      ? { ...rest, ...choices[0] }
      : { ...rest, anyOf: [...((rest['anyOf'] as unknown[]) ?? []), ...choices] };
  });
}

/** JSON Schema 2020-12 → an OpenAPI 3.0 Schema Object (see {@link OpenApiSchemaOptions.openapi}). */
function toOpenApi30(schema: unknown): unknown {
  return rewrite(
    schema,
    (input) => {
      const node: Record<string, unknown> = {};
      for (const [keyword, value] of Object.entries(input)) if (!NOT_IN_3_0.has(keyword)) node[keyword] = value;
      if (Object.hasOwn(node, 'const')) {
        node['enum'] = [node['const']];
        delete node['const'];
      }
      if (Array.isArray(node['examples'])) {
        if ((node['examples'] as unknown[]).length > 0) node['example'] = (node['examples'] as unknown[])[0];
        delete node['examples'];
      }
      if (node['contentEncoding'] === 'base64') {
        node['format'] ??= 'byte';
        delete node['contentEncoding'];
      }
      exclusiveBound(node, 'exclusiveMinimum', 'minimum', (a, b) => a >= b);
      exclusiveBound(node, 'exclusiveMaximum', 'maximum', (a, b) => a <= b);
      if (Array.isArray(node['type'])) {
        const types = (node['type'] as unknown[]).filter((t) => t !== 'null');
        if (types.length < (node['type'] as unknown[]).length) node['nullable'] = true;
        if (types.length === 1) node['type'] = types[0];
        else {
          delete node['type'];
          node['anyOf'] = [...((node['anyOf'] as unknown[]) ?? []), ...types.map((t) => ({ type: t }))];
        }
      }
      for (const list of ['anyOf', 'oneOf'] as const) {
        const choices = node[list];
        if (!Array.isArray(choices)) continue;
        const kept = (choices as unknown[]).filter((c) => !isNullType(c));
        if (kept.length === choices.length) continue;
        node['nullable'] = true;
        const [only] = kept;
        if (
          kept.length === 1 &&
          isObject(only) &&
          Object.keys(only).every((k) => !Object.hasOwn(node, k) || k === 'description')
        ) {
          delete node[list];
          Object.assign(node, {
            ...only,
            ...(node['description'] === undefined ? {} : { description: node['description'] }),
          });
        } else node[list] = kept;
      }
      // 3.0 has no null type: a value is not null unless nullable, and a schema of null alone is an enum.
      if (isNullType(node['not'])) delete node['not'];
      if (node['type'] === 'null') {
        delete node['type'];
        Object.assign(node, { nullable: true, enum: [null] });
      }
      return node;
    },
    true,
  );
}

/** A 2020-12 numeric `exclusiveMinimum` (or maximum) as 3.0 writes it: the bound, with the boolean flag. */
function exclusiveBound(
  node: Record<string, unknown>,
  exclusive: 'exclusiveMinimum' | 'exclusiveMaximum',
  inclusive: 'minimum' | 'maximum',
  tighter: (a: number, b: number) => boolean,
): void {
  const bound = node[exclusive];
  if (typeof bound !== 'number') return;
  const other = node[inclusive];
  if (typeof other === 'number' && other !== bound && tighter(other, bound)) delete node[exclusive];
  else {
    node[inclusive] = bound;
    node[exclusive] = true;
  }
}

/** A schema of `null` alone: 2020-12's null type, or the 3.0 form this module writes for it (inner schemas go first). */
function isNullType(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema['type'] === 'null') return true;
  const values = schema['enum'];
  return schema['nullable'] === true && Array.isArray(values) && values.length === 1 && values[0] === null;
}

/**
 * A copy of a schema with `visit` applied to every schema object in it,
 * innermost first. `booleans`: `true` and `false` schemas become `{}` and
 * `{ not: {} }` (OpenAPI 3.0 has no boolean schemas).
 */
function rewrite(
  schema: unknown,
  visit: (node: Record<string, unknown>) => Record<string, unknown>,
  booleans = false,
): unknown {
  if (typeof schema === 'boolean') return !booleans ? schema : schema ? {} : { not: {} };
  if (!isObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SUBSCHEMA.has(keyword) && (isObject(value) || typeof value === 'boolean'))
      copy[keyword] =
        keyword === 'additionalProperties' && typeof value === 'boolean' ? value : rewrite(value, visit, booleans);
    else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value))
      copy[keyword] = (value as unknown[]).map((s) => rewrite(s, visit, booleans));
    else if (SUBSCHEMA_MAPS.has(keyword) && isObject(value))
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, rewrite(s, visit, booleans)]));
    else copy[keyword] = structuredClone(value);
  }
  return visit(copy);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
