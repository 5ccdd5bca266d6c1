import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/tools.js';
import { KeyEncodingError, MetadataError } from '../../../src/errors/errors.js';
import type { KeyPartOptions } from '../../../src/index.js';

function entityWith(options: KeyPartOptions) {
  @Entity({ table: 't' })
  @Family('d', { gc: { maxVersions: 1 } })
  class Session {
    @KeyPart(0, options) id!: unknown;
  }
  return Session;
}

describe('@KeyPart maxLength', () => {
  it('encodes values up to maxLength and throws KeyEncodingError naming Entity.property past it', () => {
    const schema = compileEntity(entityWith({ type: 'string', maxLength: 5 }));
    expect(encodeRowKey(schema, { id: 'abcde' }).text).toBe('abcde');
    expect(() => encodeRowKey(schema, { id: 'abcdef' })).toThrow(KeyEncodingError);
    expect(() => encodeRowKey(schema, { id: 'abcdef' })).toThrow(
      'Session.id: "abcdef" is not a valid string key component: 6 characters, over its maxLength of 5',
    );
  });

  it('counts UTF-16 code units, as String.length does, before escaping', () => {
    const schema = compileEntity(entityWith({ type: 'string', maxLength: 2 }));
    expect(encodeRowKey(schema, { id: '%#' }).text).toBe('%25%23');
    expect(() => encodeRowKey(schema, { id: '😀a' })).toThrow(KeyEncodingError);
  });

  it('is rejected at compile time on non-string parts and outside 1..4096', () => {
    const bad: unknown[] = [
      { type: 'uint', maxLength: 4 },
      { type: 'string', maxLength: 0 },
      { type: 'string', maxLength: 4097 },
      { type: 'string', maxLength: 2.5 },
      { type: 'string', maxLength: '64' },
    ];
    for (const options of bad) {
      expect(() => compileEntity(entityWith(options as KeyPartOptions)), JSON.stringify(options)).toThrow(
        MetadataError,
      );
    }
    expect(() => compileEntity(entityWith({ type: 'uint', maxLength: 4 } as KeyPartOptions))).toThrow(
      "Session.id: maxLength applies only to string and bytes key parts, not to 'uint'. Fix: remove maxLength; width bounds a uint part",
    );
  });

  it('is on the compiled codec, where the linter reads it', () => {
    const [component] = compileEntity(entityWith({ type: 'string', maxLength: 64 })).key.components;
    expect(component?.kind === 'property' && component.codec.maxLength).toBe(64);
  });
});
