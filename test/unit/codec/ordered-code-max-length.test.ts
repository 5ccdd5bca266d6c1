import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { KeyEncodingError, MetadataError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import { lintEntity } from '../../../src/lint/lint-entity.js';

@Entity({ table: 'oc-max', keyFormat: 'ordered-code' })
@Family('d')
class Tenanted {
  @KeyPart(0, { type: 'string', maxLength: 32 }) tenantId!: string;
  @KeyPart(1, { type: 'bytes', maxLength: 8 }) id!: Buffer;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

@Entity({ table: 'oc-long', keyFormat: 'ordered-code' })
@Family('d')
class Long {
  @KeyPart(0, { type: 'int' }) n!: number;
  @KeyPart(1, { type: 'string', maxLength: 4096 }) a!: string;
  @KeyPart(2, { type: 'string', maxLength: 4096 }) b!: string;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

describe('maxLength on ordered-code string key parts', () => {
  it('is enforced at encode time, as in text keys', () => {
    const schema = compileEntity(Tenanted);
    expect(() => encodeRowKey(schema, { tenantId: 't'.repeat(32), id: Buffer.from('a') })).not.toThrow();
    expect(() => encodeRowKey(schema, { tenantId: 't'.repeat(33), id: Buffer.from('a') })).toThrow(
      /Tenanted\.tenantId.*33 characters, over its maxLength of 32/,
    );
  });

  it('is part of the compiled key, so lint does not ask for the maxLength that is declared', () => {
    const schema = compileEntity(Tenanted);
    expect(schema.key.components.map((c) => (c.kind === 'property' ? c.codec.maxLength : undefined))).toEqual([32, 8]);
    expect(lintEntity(Tenanted).filter((f) => f.code === 'unbounded-string-key')).toEqual([]);
  });

  it('is checked when declared', () => {
    expect(() => {
      @Entity({ table: 'oc-bad', keyFormat: 'ordered-code' })
      @Family('d')
      class Bad {
        @KeyPart(0, { type: 'string', maxLength: 0 }) a!: string;
      }
      return compileEntity(Bad);
    }).toThrow(MetadataError);
  });

  it('a key over 4 KiB is reported with its bytes escaped, not as raw bytes', () => {
    const schema = compileEntity(Long);
    let error: unknown;
    try {
      encodeRowKey(schema, { n: -1, a: 'x'.repeat(2100), b: 'y'.repeat(2100) });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KeyEncodingError);
    expect((error as Error).message).toMatch(/^Long\.\(row key\): "\\\\x[0-9A-F]{2}/);
    expect((error as Error).message).not.toContain('\uFFFD');
  });
});
