import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { EntityNotFoundError, ErrorCode } from '../../../src/errors/index.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'visits' })
@Family('v')
class Visit {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-ms', width: 13, descending: true }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path?: string;
}

const AT = new Date('2026-01-02T03:04:05.006Z');

async function notFound(key: { userId: string; at: Date }): Promise<EntityNotFoundError> {
  const mapper = new BigtableMapper({ driver: new FakeDriver({ implicitTables: true }), entities: [Visit] });
  try {
    await mapper.getRepository(Visit).findOneOrFail(key);
  } catch (error) {
    expect(error).toBeInstanceOf(EntityNotFoundError);
    return error as EntityNotFoundError;
  } finally {
    await mapper.close();
  }
  throw new Error('expected findOneOrFail to reject');
}

describe('EntityNotFoundError', () => {
  it('names the logical key values, not the encoded key of a descending timestamp', async () => {
    const error = await notFound({ userId: 'u1', at: AT });
    expect(error.code).toBe(ErrorCode.NotFound);
    expect(error.message).toBe(
      'Visit: no row with key { userId: "u1", at: Date(2026-01-02T03:04:05.006Z) } (row key "u1#8232676954993")',
    );
    expect(error.message).not.toContain(String(AT.getTime()));
  });

  it('keeps the key values and the encoded row key in details', async () => {
    const error = await notFound({ userId: 'u1', at: AT });
    expect(error.details).toEqual({ entity: 'Visit', key: { userId: 'u1', at: AT }, rowKey: 'u1#8232676954993' });
    expect(Object.isFrozen(error.details['key'])).toBe(true);
  });

  it('holds only the key properties, so extra properties passed in the key are not copied', async () => {
    const error = await notFound(Object.assign({ userId: 'u2', at: AT }, { path: '/secret' }));
    expect(Object.keys(error.details['key'] as object)).toEqual(['userId', 'at']);
  });
});
