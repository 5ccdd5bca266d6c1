import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../../src/errors/index.js';
import { toJsonSchema } from '../../../src/json.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { defineEntities, type DecoratorMode } from '../../support/transpile-entities.js';

const SOURCE = `
import { z } from 'zod';
export class Place { city?: string; }
@Entity({ table: 'modes' })
@Family('f')
export class Visit {
  @KeyPart(0, { type: 'string', validate: z.string().min(2) }) id!: string;
  @Column({ family: 'f', type: 'int', validate: z.number().max(9) }) count?: number;
  @Column({ family: 'f', type: Place }) place?: Place;
  @Column({ family: 'f', type: Place }) places?: Place[];
}
`;

describe.each<DecoratorMode>(['legacy', 'legacy-metadata', 'standard'])('with %s decorators', (mode) => {
  const { Visit } = defineEntities(SOURCE, mode, { zod: { z } }) as { Visit: new () => object };

  it('validators run on writes', () => {
    const schema = compileEntity(Visit);
    expect(() => compileSave(schema, { id: 'v1', count: 1 })).not.toThrow();
    let caught: unknown;
    try {
      compileSave(schema, { id: 'v', count: 10 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).issues.map((i) => i.path)).toEqual(['Visit.id', 'Visit.count']);
  });

  it('the JSON Schema folds the validators in, and types embedded objects by design:type when it was emitted', () => {
    const properties = toJsonSchema(Visit, { for: 'create' })['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['id']).toMatchObject({ minLength: 2 });
    expect(properties['count']).toMatchObject({ maximum: 9 });
    if (mode === 'legacy-metadata') {
      expect(properties['place']?.['type']).toBe('object');
      expect(properties['places']?.['type']).toBe('array');
    } else {
      expect(properties['place']?.['anyOf']).toEqual([{ type: 'object' }, { type: 'array' }]);
    }
  });
});
