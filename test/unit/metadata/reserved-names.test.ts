import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';

/** Declares an entity whose one column (or key part, or cell timestamp) has the given property name. */
function entityWith(name: string, as: 'column' | 'key' | 'stamp'): new () => object {
  @Entity({ table: 't' })
  @Family('f')
  class Reserved {}
  const proto = Reserved.prototype as object;
  if (as === 'key') KeyPart(0, { type: 'string' })(proto, name);
  else KeyPart(0, { type: 'string' })(proto, 'id');
  if (as === 'column') Column({ family: 'f', type: 'string' })(proto, name);
  if (as === 'stamp') CellTimestamp()(proto, name);
  return Reserved;
}

describe('reserved property names', () => {
  const reserved = [
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__defineGetter__',
  ];

  it.each(reserved)('a column named %s is a MetadataError naming the class and the fix', (name) => {
    expectMetadataError(() => compileEntity(entityWith(name, 'column')), 'Reserved', name, 'Fix');
  });

  it.each(['__proto__', 'constructor'])('a key part or cell timestamp named %s is a MetadataError', (name) => {
    expectMetadataError(() => compileEntity(entityWith(name, 'key')), name);
    expectMetadataError(() => compileEntity(entityWith(name, 'stamp')), name);
  });

  it('ordinary names, and qualifiers named like Object.prototype members, are fine', () => {
    @Entity({ table: 't' })
    @Family('f')
    class Fine {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'f', type: 'string', qualifier: 'constructor' }) maker?: string;
      @Column({ family: 'f', type: 'string' }) proto?: string;
    }
    expect(compileEntity(Fine).columns.map((c) => c.qualifier)).toEqual(['constructor', 'proto']);
  });
});
