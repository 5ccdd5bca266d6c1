import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  Entity,
  Family,
  KeyPart,
  KeyParts,
  ValidationError,
  type EntityData,
} from '../../src/index.js';
import { FakeDriver } from '../support/fake-driver.js';

@Entity({ table: 'channels' })
@Family('c')
class Channel {
  declare [KeyParts]?: 'tenantId' | 'channelId';
  @KeyPart(0, { type: 'string' }) tenantId!: string;
  @KeyPart(1, { type: 'string' }) channelId!: string;
  @Column({ family: 'c', type: 'string' }) topic?: string;
  @Column({ family: 'c', type: 'boolean' }) private?: boolean;
  @Column({ family: 'c', type: 'int' }) unread?: number;
  /** Not stored: set by the constructor. */
  loadedAt = 0;

  get isPrivate(): boolean {
    return this.private === true;
  }

  slug(): string {
    return `${this.tenantId}/${this.channelId}`;
  }
}

const mapper = () => new BigtableMapper({ driver: new FakeDriver(), entities: [Channel] });

describe('writes take the entity as plain data', () => {
  it('save, saveMany, saveIf and replace accept a plain object when the class has a getter and a method', async () => {
    const channels = mapper().getRepository(Channel);
    const plain = { tenantId: 'a', channelId: 'b', topic: 'x' };
    await channels.save(plain);
    await channels.saveMany([plain]);
    await channels.replace(plain);
    expect(await channels.saveIf(plain, { rowExists: true })).toBe(true);
    expect((await channels.findOne({ tenantId: 'a', channelId: 'b' }))?.topic).toBe('x');
    expect(channels.compileSave(plain).rowKeyText).toBe('a#b');
  });

  it('still refuses a plain object without a key part, or with a value of the wrong type', () => {
    const channels = mapper().getRepository(Channel);
    // @ts-expect-error channelId is a key part, so it is required
    expect(() => channels.compileSave({ tenantId: 'a', topic: 'x' })).toThrow();
    // @ts-expect-error topic is a string
    expect(() => channels.compileSave({ tenantId: 'a', channelId: 'b', topic: 1 })).toThrow();
  });

  it("create() and the writes do not take a method's name; fields the constructor sets are optional", () => {
    expectTypeOf<'slug' extends keyof EntityData<Channel> ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'loadedAt' extends keyof EntityData<Channel> ? true : false>().toEqualTypeOf<true>();
  });
});

describe('the other write signatures', () => {
  it('increment takes counter properties only, and update no key part when the key parts are marked', async () => {
    const channels = mapper().getRepository(Channel);
    const key = { tenantId: 'a', channelId: 'b' };
    expect(await channels.increment(key, 'unread', 2)).toBe(2);
    // @ts-expect-error topic is a string: not a counter
    await expect(channels.increment(key, 'topic')).rejects.toThrow(ValidationError);
    // @ts-expect-error tenantId is a key part, which update cannot change
    await expect(channels.update(key, { tenantId: 'z' })).rejects.toThrow(/key parts cannot be updated/);
    await channels.update(key, { topic: 'news', unread: null });
    const found = await channels.findOne(key);
    expect([found?.topic, found?.unread]).toEqual(['news', undefined]);
  });

  it('a page limit that is not a number says what it was', async () => {
    await expect(
      mapper()
        .getRepository(Channel)
        .page({ limit: Number('abc') }),
    ).rejects.toThrow(/got NaN/);
  });
});

describe('create() with untrusted input', () => {
  const channels = mapper().getRepository(Channel);

  it('refuses a getter-only property with a ValidationError naming it', () => {
    expect(() => channels.create({ tenantId: 'a', channelId: 'b', isPrivate: true } as never)).toThrow(
      /Channel\.isPrivate: .*read-only/,
    );
    try {
      channels.create({ tenantId: 'a', channelId: 'b', isPrivate: true } as never);
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
    }
  });

  it('refuses an unknown key, suggesting the closest property', () => {
    expect(() => channels.create({ tenantId: 'a', channelId: 'b', topik: 'x' } as never)).toThrow(
      /Channel\.topik: not a property of Channel\. Did you mean "topic"\?/,
    );
    expect(() => channels.create({ tenantId: 'a', channelId: 'b', nickname: 'x' } as never)).toThrow(ValidationError);
  });

  it('takes mapped properties and fields the constructor sets', () => {
    const c = channels.create({ tenantId: 'a', channelId: 'b', topic: 'x', loadedAt: 5 });
    expect(c).toBeInstanceOf(Channel);
    expect([c.slug(), c.loadedAt, c.isPrivate]).toEqual(['a/b', 5, false]);
  });
});
