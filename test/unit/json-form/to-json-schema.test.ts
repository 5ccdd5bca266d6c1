import 'reflect-metadata';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CellTimestamp, Column, Denormalized, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { MetadataError, ValidationError } from '../../../src/errors/index.js';
import { toJsonSchema, type JsonSchema } from '../../../src/json.js';
import { compileStrict } from '../../support/ajv.js';
import { Place, Sensor } from './entities.js';

const props = (schema: JsonSchema): Record<string, Record<string, unknown>> =>
  schema['properties'] as Record<string, Record<string, unknown>>;

const NULL = { type: 'null', description: 'deletes the cell' };

describe('toJsonSchema', () => {
  it('describes a create body: key parts required, columns optional, at least one of them', () => {
    const schema = toJsonSchema(Sensor, { for: 'create' });
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Sensor',
      type: 'object',
      required: ['site', 'chip', 'slot'],
      additionalProperties: false,
    });
    expect(Object.keys(props(schema))).toEqual([
      'site',
      'chip',
      'slot',
      'label',
      'count',
      'gain',
      'active',
      'installed',
      'serial',
      'firmware',
      'settings',
      'place',
      'shipping',
      'temperature',
    ]);
    expect(props(schema)['site']).toEqual({ type: 'string', minLength: 1, maxLength: 12 });
    expect(props(schema)['slot']).toEqual({ type: 'integer', minimum: 0, maximum: 9999 });
    expect(props(schema)['settings']).toEqual({ description: 'any JSON value', not: { type: 'null' } });
    expect(schema['anyOf']).toContainEqual({ required: ['label'], properties: { label: true } });
    expect(schema['anyOf']).toContainEqual({
      required: ['temperature'],
      properties: { temperature: { not: { type: 'array', maxItems: 0 } } },
    });
    expect(schema['anyOf']).toContainEqual({
      required: ['place'],
      properties: { place: { not: { type: 'object', maxProperties: 0 } } },
    });
  });

  it('describes an update body: no key, every column optional and nullable', () => {
    const schema = toJsonSchema(Sensor, { for: 'update' });
    expect(schema['required']).toBeUndefined();
    expect(Object.keys(props(schema))).not.toContain('site');
    expect(props(schema)['active']).toEqual({ anyOf: [{ type: 'boolean' }, NULL] });
    expect(props(schema)['settings']).toEqual({ description: 'any JSON value; null deletes the cell' });
    expect((props(schema)['gain']?.['anyOf'] as unknown[]).at(-1)).toEqual(NULL);
    expect((schema['anyOf'] as unknown[]).length).toBe(11);
  });

  it('describes an entity as read: versions with their timestamps, an int past 2^53 as text', () => {
    const schema = toJsonSchema(Sensor, { for: 'read' });
    expect(schema['required']).toEqual(['site', 'chip', 'slot']);
    expect(schema['anyOf']).toBeUndefined();
    const temperature = props(schema)['temperature'] as { maxItems: number; items: { required: string[] } };
    expect(temperature.maxItems).toBe(3);
    expect(temperature.items.required).toEqual(['value', 'timestamp']);
    expect((props(schema)['count']?.['anyOf'] as { type: string }[]).map((s) => s.type)).toEqual(['integer', 'string']);
    // Validators describe what is written, not what older rows hold.
    expect(props(schema)['label']).toEqual({ type: 'string' });
  });

  it('writes schemas that Ajv compiles in strict mode', () => {
    for (const purpose of ['create', 'update', 'read'] as const)
      expect(() => compileStrict(toJsonSchema(Sensor, { for: purpose }))).not.toThrow();
  });

  it('gives a fresh object each time, which the caller may change', () => {
    const first = toJsonSchema(Sensor, { for: 'create' });
    first['title'] = 'changed';
    (first['required'] as string[]).push('label');
    expect(toJsonSchema(Sensor, { for: 'create' })).toMatchObject({
      title: 'Sensor',
      required: ['site', 'chip', 'slot'],
    });
  });

  it('refuses a call without a purpose, and a class that is no entity', () => {
    expect(() => toJsonSchema(Sensor, {} as never)).toThrow(ValidationError);
    expect(() => toJsonSchema(Sensor, { for: 'delete' } as never)).toThrow(
      "Sensor: toJsonSchema() needs { for: 'create' | 'update' | 'read' }",
    );
    expect(() => toJsonSchema(Place, { for: 'create' })).toThrow(MetadataError);
  });
});

describe('key parts', () => {
  @Entity({ table: 'keys' })
  @KeyPart(0, { literal: 'k' })
  @Family('f')
  class Keys {
    @KeyPart(1, { type: 'int' }) int!: number;
    @KeyPart(2, { type: 'bigint' }) big!: bigint;
    @KeyPart(3, { type: 'float', descending: true }) float!: number;
    @KeyPart(4, { type: 'boolean' }) flag!: boolean;
    @KeyPart(5, { type: 'timestamp' }) iso!: Date;
    @KeyPart(6, { type: 'timestamp', format: 'epoch-ms' }) ms!: Date;
    @KeyPart(7, { type: 'timestamp', format: 'epoch-s', width: 11 }) s!: Date;
    @KeyPart(8, { type: 'uint', width: 20 }) wide!: number;
    @KeyPart(9, { type: 'string', verbatim: true, width: 3 }) code!: string;
    @KeyPart(10, { type: 'string', verbatim: true, charset: 'hex' }) hex!: string;
    @KeyPart(11, { type: 'string' }) rest!: string;
    @Column({ family: 'f', type: 'string' }) note?: string;
  }

  it('carry their ranges, lengths, charsets and text forms', () => {
    const p = props(toJsonSchema(Keys, { for: 'create' }));
    expect(Object.keys(p)).not.toContain('k');
    expect(p['int']).toEqual({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 });
    expect(p['big']?.['type']).toBe('string');
    expect(p['float']).toEqual({ type: 'number' });
    expect(p['flag']).toEqual({ type: 'boolean' });
    expect(p['iso']?.['description']).toContain('years 0000 to 9999 (UTC)');
    expect(p['ms']?.['description']).toContain('from 1970-01-01T00:00:00Z to 2286-11-20T17:46:39.999Z');
    expect(p['s']?.['description']).toContain('whole seconds, from 1970-01-01T00:00:00Z to 5138-11-16T09:46:39.000Z');
    expect(p['s']?.['pattern']).not.toEqual(p['ms']?.['pattern']);
    expect(p['wide']).toEqual({ type: 'integer', minimum: 0, maximum: 9007199254740991 });
    expect(p['code']).toEqual({ type: 'string', minLength: 3, maxLength: 3 });
    expect(p['hex']).toEqual({ type: 'string', maxLength: 4096, pattern: '^[0-9A-Fa-f]*$' });
    expect(p['rest']).toEqual({ type: 'string', minLength: 1, maxLength: 4096 });
    expect(() => compileStrict(toJsonSchema(Keys, { for: 'create' }))).not.toThrow();
  });

  it('of an ordered-code key have no widths', () => {
    @Entity({ table: 'ordered', keyFormat: 'ordered-code' })
    @Family('f')
    class Ordered {
      @KeyPart(0, { type: 'uint' }) n!: number;
      @KeyPart(1, { type: 'string', maxLength: 8 }) name!: string;
      @KeyPart(2, { type: 'timestamp', descending: true }) at!: Date;
      @KeyPart(3, { type: 'bytes' }) raw!: Buffer;
      @Column({ family: 'f', type: 'string' }) note?: string;
    }
    const p = props(toJsonSchema(Ordered, { for: 'create' }));
    expect(p['n']).toEqual({ type: 'integer', minimum: 0, maximum: 9007199254740991 });
    expect(p['name']).toEqual({ type: 'string', minLength: 1, maxLength: 8 });
    expect(p['at']?.['format']).toBe('date-time');
    expect(p['raw']?.['description']).toBe('bytes in padded base64 (RFC 4648), not empty');
  });
});

describe('columns', () => {
  it('take the cell timestamp as an optional date-time', () => {
    @Entity({ table: 'stamped' })
    @Family('f')
    class Stamped {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) note?: string;
      @CellTimestamp() updatedAt?: Date;
    }
    for (const purpose of ['create', 'update', 'read'] as const) {
      const schema = toJsonSchema(Stamped, { for: purpose });
      expect(props(schema)['updatedAt']?.['format']).toBe('date-time');
      expect(schema['required'] ?? []).not.toContain('updatedAt');
    }
    // The timestamp alone writes no cell.
    expect(toJsonSchema(Stamped, { for: 'update' })['anyOf']).toEqual([
      { required: ['note'], properties: { note: true } },
    ]);
  });

  it('type an embedded object by TypeScript’s design:type when the compiler emitted it', () => {
    @Entity({ table: 'typed' })
    @Family('f')
    class Typed {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: Place }) one?: Place;
      @Column({ family: 'f', type: Place }) many?: Place[];
    }
    Reflect.defineMetadata('design:type', Place, Typed.prototype, 'one');
    Reflect.defineMetadata('design:type', Array, Typed.prototype, 'many');
    const p = props(toJsonSchema(Typed, { for: 'create' }));
    expect(p['one']).toEqual({ type: 'object', description: 'a Place, stored as JSON' });
    expect(p['many']).toEqual({ type: 'array', description: 'Place objects, stored as JSON' });
  });

  it('need none on create when @Denormalized copies may be the only cells written', () => {
    @Entity({ table: 'owners' })
    @Family('f')
    class Owner {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string' }) name?: string;
    }
    @Entity({ table: 'pets' })
    @Family('f')
    class Pet {
      @KeyPart(0, { type: 'string' }) ownerId!: string;
      @KeyPart(1, { type: 'string' }) name!: string;
      @Denormalized({ from: () => Owner, key: { id: 'ownerId' }, field: 'name' })
      @Column({ family: 'f', type: 'string' })
      ownerName?: string;
    }
    expect(toJsonSchema(Pet, { for: 'create' })['anyOf']).toBeUndefined();
    expect(toJsonSchema(Pet, { for: 'update' })['anyOf']).toEqual([
      { required: ['ownerName'], properties: { ownerName: true } },
    ]);
  });

  it('accept nothing on create of an entity without columns', () => {
    @Entity({ table: 'bare' })
    class Bare {
      @KeyPart(0, { type: 'string' }) id!: string;
    }
    const valid = compileStrict(toJsonSchema(Bare, { for: 'create' }));
    expect(valid({ id: 'a' })).toBe(false);
  });
});

describe('validators folded into the schema', () => {
  @Entity({ table: 'folded' })
  @Family('f')
  class Folded {
    @KeyPart(0, {
      type: 'string',
      maxLength: 30,
      validate: z
        .string()
        .max(10)
        .regex(/^[a-z]+$/),
    })
    id!: string;
    @KeyPart(1, { type: 'uint', width: 3, validate: z.number().int().min(10) }) n!: number;
    @KeyPart(2, { type: 'timestamp', validate: z.date() }) at!: Date;
    @Column({ family: 'f', type: 'string', validate: type('string.email') }) email?: string;
    @Column({ family: 'f', type: 'string', validate: v.pipe(v.string(), v.email()) }) backup?: string;
    @Column({ family: 'f', type: 'int', validate: z.number().int().positive() }) age?: number;
    @Column({ family: 'f', type: 'bigint', validate: z.bigint().min(0n) }) big?: bigint;
    @Column({ family: 'f', type: 'json', validate: z.object({ a: z.number() }) }) data?: unknown;
    @Column({ family: 'f', type: 'string', validate: z.enum(['x', 'y']) }) choice?: string;
    @Column({ family: 'f', type: 'float', versions: 2, validate: z.number().min(0) }) level?: unknown;
    @Column({
      family: 'f',
      type: Place,
      layout: 'flatten',
      fields: ['street', 'city', 'zip'],
      validate: z.object({ street: z.string(), city: z.string().min(2), zip: z.string().optional() }),
    })
    place?: Place;
    @Column({
      family: 'f',
      type: Place,
      layout: 'flatten',
      fields: ['street', 'city'],
      fieldPrefix: 'o.',
      validate: z.object({ street: z.string(), zip: z.string() }),
    })
    other?: Place;
    @Column({ family: 'f', type: Place, validate: z.object({ street: z.string() }).strict() }) shipping?: Place;
  }

  const created = props(toJsonSchema(Folded, { for: 'create' }));

  it('merge keyword by keyword, the tighter bound winning', () => {
    expect(created['id']).toEqual({ type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-z]+$' });
    expect(created['n']).toEqual({ type: 'integer', minimum: 10, maximum: 999 });
    expect(created['age']).toEqual({
      type: 'integer',
      minimum: -9007199254740991,
      maximum: 9007199254740991,
      exclusiveMinimum: 0,
    });
    expect(created['choice']).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect((created['level'] as { items: { properties: { value: unknown } } }).items.properties.value).toMatchObject({
      minimum: 0,
    });
  });

  it('take ArkType’s description too, and keep valibot’s (which has none) out', () => {
    expect(created['email']).toMatchObject({ type: 'string', format: 'email' });
    expect(created['backup']).toEqual({ type: 'string' });
  });

  it('leave out the validators of values whose JSON form is not the value (dates, bigints, bytes)', () => {
    expect(created['at']?.['format']).toBe('date-time');
    expect(created['big']?.['minimum']).toBeUndefined();
  });

  it('merge an embedded object field by field, or fall back to allOf when the keywords read each other', () => {
    expect(created['place']).toMatchObject({
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string', minLength: 2 }, zip: { type: 'string' } },
      required: ['street', 'city'],
      additionalProperties: false,
    });
    // Fields street and city, no other; the validator names street and zip: zip would be let through if merged.
    const other = created['other'] as { allOf: Record<string, unknown>[] };
    expect(other.allOf).toHaveLength(2);
    expect(other.allOf[0]).toMatchObject({ properties: { street: {}, city: {} }, additionalProperties: false });
    expect(other.allOf[1]).toMatchObject({ properties: { zip: { type: 'string' } }, required: ['street', 'zip'] });
    expect(created['shipping']).toMatchObject({
      type: 'object',
      properties: { street: { type: 'string' } },
      additionalProperties: false,
    });
    expect(created['data']).toMatchObject({ type: 'object', required: ['a'] });
    expect(created['data']?.['not']).toBeUndefined();
  });

  it('stay out of the read schema', () => {
    expect(props(toJsonSchema(Folded, { for: 'read' }))['id']).toEqual({ type: 'string', minLength: 1, maxLength: 30 });
  });

  it('keep a validator schema that refers into its own document out', () => {
    const tree: z.ZodType = z.lazy(() => z.object({ children: z.array(tree) }));
    @Entity({ table: 'trees' })
    @Family('f')
    class Tree {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'json', validate: tree }) root?: unknown;
    }
    expect(props(toJsonSchema(Tree, { for: 'create' }))['root']).toEqual({
      description: 'any JSON value',
      not: { type: 'null' },
    });
  });

  it('writes schemas that Ajv compiles in strict mode, formats of the validators included', () => {
    for (const purpose of ['create', 'update', 'read'] as const)
      expect(() => compileStrict(toJsonSchema(Folded, { for: purpose }))).not.toThrow();
  });
});
