import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { Address, Exposed, Profile } from './embedded-entities.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';

function entityWith(options: Record<string, unknown>, extra?: Record<string, unknown>) {
  @Entity({ table: 't' })
  @Family('p')
  class E {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'p', ...options } as never) value?: unknown;
  }
  if (extra !== undefined) Column({ family: 'p', ...extra } as never)(E.prototype, 'other');
  return E;
}

describe('embedded column layouts', () => {
  it('compiles json (the default) and flatten columns with their field qualifiers', () => {
    const schema = compileEntity(Profile);
    expect(schema.columnsByProperty.work).toMatchObject({
      type: 'class',
      classType: Address,
      layout: 'json',
      fields: undefined,
      qualifier: 'work',
    });
    expect(schema.columnsByProperty.home).toMatchObject({ layout: 'flatten', qualifier: 'home' });
    expect(schema.columnsByProperty.home?.fields?.map((f) => f.qualifier)).toEqual([
      'home.street',
      'home.city',
      'home.zip',
      'home.geo',
      'home.since',
    ]);
    expect(schema.columnsByProperty.billing?.fields).toEqual([
      { name: 'street', qualifier: 'b:street' },
      { name: 'city', qualifier: 'b:city' },
    ]);
    expect(schema.columnsByProperty.name).toMatchObject({ layout: undefined, fields: undefined });
  });

  it("takes a flattened class's fields from its @Expose()d properties (by plain name)", () => {
    const exposed = compileEntity(Profile).columnsByProperty.exposed;
    expect(exposed).toMatchObject({ type: 'class', classType: Exposed, layout: 'flatten', qualifier: 'exposed' });
    expect(exposed?.fields).toEqual([
      { name: 'a', qualifier: 'exposed.a' },
      { name: 'bee', qualifier: 'exposed.bee' },
    ]);
  });

  it('rejects layouts it cannot store exactly, naming the fix', () => {
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten' })),
      'E.value',
      'cannot flatten Address: its fields are unknown',
      "fields: ['street', 'city']",
      '@Expose()',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'columns' })),
      'layout "columns" is not known',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: 'string', layout: 'flatten' })),
      'apply to class-typed columns, not to type "string"',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, fields: ['city'] })),
      "fields and fieldPrefix apply to layout: 'flatten' only",
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten', fields: ['city'], versions: 2 })),
      'a flattened column cannot keep versions',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten', fields: [] })),
      'fields [] must be a non-empty array',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten', fields: ['city', 'city'] })),
      'fields lists "city" twice',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten', fields: ['city', 3] })),
      'fields lists 3',
    );
    expectMetadataError(
      () => compileEntity(entityWith({ type: Address, layout: 'flatten', fields: ['city'], fieldPrefix: 1 })),
      'fieldPrefix 1 must be a string',
    );
    expectMetadataError(
      () =>
        compileEntity(
          entityWith(
            { type: Address, layout: 'flatten', fields: ['city'] },
            { qualifier: 'value.city', type: 'string' },
          ),
        ),
      'E.other: maps to column p:value.city, which value already uses',
    );
  });
});
