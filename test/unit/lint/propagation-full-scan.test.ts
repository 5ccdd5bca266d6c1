import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Denormalized, Entity, Family, KeyPart, MetadataError } from '../../../src/index.js';
import { lintEntity } from '../../../src/lint/lint-entity.js';
import { httpStatusOf } from '../../../src/http/http-error.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'authors' })
@Family('a', { gc: { maxVersions: 1 } })
class Author {
  @KeyPart(0, { type: 'string', maxLength: 32 }) id!: string;
  @Column({ family: 'a', type: 'string' }) name?: string;
}

@Entity({ table: 'messages' })
@Family('m', { gc: { maxVersions: 1 } })
class Message {
  @KeyPart(0, { type: 'string', maxLength: 32 }) channelId!: string;
  @KeyPart(1, { type: 'uint', width: 8 }) seq!: number;
  @Column({ family: 'm', type: 'string' }) authorId?: string;
  @Denormalized({ from: () => Author, key: { id: 'authorId' }, field: 'name' })
  @Column({ family: 'm', type: 'string' })
  authorName?: string;
}

@Entity({ table: 'posts' })
@Family('p', { gc: { maxVersions: 1 } })
class Post {
  @KeyPart(0, { type: 'string', maxLength: 32 }) authorId!: string;
  @KeyPart(1, { type: 'uint', width: 8 }) seq!: number;
  @Denormalized({ from: () => Author, key: { id: 'authorId' }, field: 'name' })
  @Column({ family: 'p', type: 'string' })
  authorName?: string;
}

describe('a @Denormalized copy whose propagation must scan the whole table', () => {
  it('is a lint warning naming the copy, the reason and the fix', () => {
    const findings = lintEntity(Message).filter((f) => f.code === 'propagation-full-scan');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'warning', entity: 'Message', property: 'authorName' });
    expect(findings[0]?.message).toMatch(/Message\.authorId is a column, not a key part/);
    expect(lintEntity(Post).filter((f) => f.code === 'propagation-full-scan')).toEqual([]);
  });

  it('is refused by propagate as a server-side design error (HTTP 500), not as bad input (400)', async () => {
    const mapper = new BigtableMapper({ driver: new FakeDriver(), entities: [Author, Message] });
    const error = await mapper
      .getRepository(Message)
      .propagate({ id: 'a1', name: 'Ann' })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(MetadataError);
    expect(httpStatusOf(error)).toBe(500);
    expect((error as Error).message).toMatch(/allowFullScan: true/);
  });
});
