import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { MAX_CELL_BYTES, MAX_ROW_BYTES, rowMutationBytes } from '../../../src/mutation/request-limits.js';

const MiB = 1024 * 1024;

class Part {
  big?: string;
}

@Entity({ table: 'blobs' })
@Family('f')
class Blob {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'f', type: 'bytes' }) a?: Buffer;
  @Column({ family: 'f', type: 'bytes' }) b?: Buffer;
  @Column({ family: 'f', type: 'bytes' }) c?: Buffer;
  @Column({ family: 'f', type: 'bytes', versions: 3 }) history?: { value: Buffer; timestamp?: Date }[];
  @Column({ family: 'f', type: Part, layout: 'flatten', fields: ['big'] }) parts?: Part;
}

const schema = compileEntity(Blob);
const blob = (fields: Partial<Blob>): Blob => Object.assign(new Blob(), { id: 'b1', ...fields });

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('Cloud Bigtable write limits', () => {
  it('are 100 MiB per cell and 256 MiB per row', () => {
    expect(MAX_CELL_BYTES).toBe(100 * MiB);
    expect(MAX_ROW_BYTES).toBe(256 * MiB);
  });

  it('accept a cell of exactly 100 MiB', () => {
    expect(compileSave(schema, blob({ a: Buffer.alloc(MAX_CELL_BYTES) })).mutations).toHaveLength(1);
  });

  it('reject a cell over 100 MiB with a ValueEncodingError naming Entity.property and the limit, before anything is sent', () => {
    const err = thrown(() => compileSave(schema, blob({ a: Buffer.alloc(120 * MiB) })));
    expect(err).toBeInstanceOf(ValueEncodingError);
    expect(err.message).toMatch(/^Blob\.a: /);
    expect(err.message).toContain('125829120 bytes');
    expect(err.message).toContain('100 MiB');
    expect(err.message).toContain('Fix:');
  });

  it('check every version of a versioned column, every field of a flatten column, and update()', () => {
    const big = Buffer.alloc(MAX_CELL_BYTES + 1);
    expect(
      thrown(() => compileSave(schema, blob({ history: [{ value: Buffer.from('x') }, { value: big }] }))).message,
    ).toMatch(/^Blob\.history: /);
    expect(thrown(() => compileSave(schema, blob({ parts: { big: 'x'.repeat(MAX_CELL_BYTES) } }))).message).toMatch(
      /^Blob\.parts: /,
    );
    const err = thrown(() => compileUpdate(schema, { id: 'b1' }, { b: big }));
    expect(err).toBeInstanceOf(ValueEncodingError);
    expect(err.message).toMatch(/^Blob\.b: /);
  });

  it('reject a row write over 256 MiB with a ValidationError naming the entity, the row and the limit', () => {
    const cell = Buffer.alloc(90 * MiB);
    const err = thrown(() => compileSave(schema, blob({ a: cell, b: cell, c: cell })));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toMatch(/^Blob "b1": /);
    expect(err.message).toContain('256 MiB');
    expect(err.message).toContain('Fix:');
    expect(compileSave(schema, blob({ a: cell, b: cell })).mutations).toHaveLength(2);
    expect(thrown(() => compileUpdate(schema, { id: 'b1' }, { a: cell, b: cell, c: cell }))).toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('rowMutationBytes', () => {
  it('counts the row key, families, qualifiers and values plus a small overhead per mutation, without serializing', () => {
    const m = compileSave(schema, blob({ a: Buffer.alloc(1_000), b: Buffer.alloc(10) }));
    const exact = 'b1'.length + 2 * ('f'.length + 'a'.length) + 1_010;
    const size = rowMutationBytes(m.rowKey, m.mutations);
    expect(size).toBeGreaterThan(exact);
    expect(size).toBeLessThan(exact + 100);
    const deletes = rowMutationBytes(Buffer.from('k'), [
      { kind: 'deleteFromRow' },
      { kind: 'deleteFromFamily', family: 'fam' },
    ]);
    expect(deletes).toBeGreaterThan(4);
    expect(deletes).toBeLessThan(80);
  });
});
