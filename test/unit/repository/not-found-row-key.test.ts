import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, EntityNotFoundError, Entity, Family, KeyPart, Salt } from '../../../src/index.js';
import { decodeRowKey } from '../../../src/key/physical-key.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'salted-notes' })
@Salt({ buckets: 8 })
@Family('n')
class Note {
  @KeyPart(0, { type: 'string' }) author!: string;
  @KeyPart(1, { type: 'uint', width: 4 }) seq!: number;
  @Column({ family: 'n', type: 'string' }) text?: string;
}

describe('EntityNotFoundError of a salted entity', () => {
  it('carries the whole row key, salt included, so the key a user copies from it decodes', async () => {
    const repo = new BigtableMapper({ driver: new FakeDriver(), entities: [Note] }).getRepository(Note);
    const error = await repo.findOneOrFail({ author: 'ann', seq: 7 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EntityNotFoundError);
    const rowKey = (error as EntityNotFoundError).details?.['rowKey'] as string;
    expect(rowKey).toMatch(/^\d\d#ann#0007$/);
    expect(decodeRowKey(compileEntity(Note), rowKey)).toEqual({ author: 'ann', seq: 7 });
    expect((error as Error).message).toContain(`(row key "${rowKey}")`);
  });
});
