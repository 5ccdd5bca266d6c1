import { describe, expectTypeOf, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  KeyParts,
  type EntityData,
  type EntityKey,
  type Page,
  type Repository,
} from '../../src/index.js';
import type { RequiredDataProperty } from '../../src/model/declarations.js';

@Entity({ table: 'typed-events' })
@Family('e')
class Event {
  declare [KeyParts]?: 'source' | 'at';
  @KeyPart(0, { type: 'string' }) source!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @Column({ family: 'e', type: 'string' }) kind?: string;
  @Column({ family: 'e', type: 'int' }) size?: number;

  describe(): string {
    return `${this.source} ${this.kind ?? ''}`;
  }
}

/** No `KeyParts` marker: key parts are the properties declared with `!`. */
@Entity({ table: 'typed-users' })
@Family('u')
class User {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'u', type: 'string' }) name?: string;

  greet(): string {
    return `hi ${this.name ?? this.id}`;
  }
}

/** No marker, a composite key and a required (`!`) column. */
@Entity({ table: 'typed-views' })
@Family('v')
class View {
  @KeyPart(0, { type: 'string' }) site!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @Column({ family: 'v', type: 'string' }) path!: string;
}

type EventKeyAndKind = Pick<Event, 'source' | 'at' | 'kind'>;

/** Compiled by `tsc --noEmit`: every `@ts-expect-error` must be an error, every other call must compile. */
async function typeChecks(events: Repository<Event>, users: Repository<User>, views: Repository<View>): Promise<void> {
  const at = new Date();

  // create(): a typed instance from the entity's data properties.
  const event: Event = events.create({ source: 's', at, kind: 'click' });
  void event.describe();
  void users.create({});
  // @ts-expect-error create() takes only properties of the entity
  void users.create({ id: 'u1', nmae: 'x' });
  // @ts-expect-error create() does not take methods
  void users.create({ id: 'u1', greet: () => 'x' });
  // @ts-expect-error values keep their types
  void users.create({ id: 1 });

  // Keys without the marker: a non-empty object of known properties holding a `!` property.
  void users.findOne({ id: 'u1' });
  void users.delete({ id: 'u1' });
  // @ts-expect-error an empty key never compiles
  void users.findOne({});
  // @ts-expect-error a key needs a property declared with `!` (a key part), not only optional columns
  void users.findOne({ name: 'x' });
  // @ts-expect-error unknown properties are rejected
  void users.findOne({ id: 'u1', idd: 'x' });
  // @ts-expect-error methods are not key properties
  void users.delete({ id: 'u1', greet: () => 'x' });
  // @ts-expect-error an empty key never compiles in findMany either
  void users.findMany([{ id: 'u1' }, {}]);
  void views.findOne({ site: 'a', at });
  void views.update({ site: 'a', at }, { path: '/b' });
  // @ts-expect-error an empty key never compiles for update
  void views.update({}, { path: '/b' });
  // With the marker: exactly the key parts.
  void events.findOne({ source: 's', at });
  // @ts-expect-error with the marker every key part is required
  void events.findOne({ source: 's' });
  // @ts-expect-error with the marker an empty key never compiles
  void events.increment({}, 'size');

  // select narrows the result to the key parts and the selected properties.
  const one = await events.findOne({ source: 's', at }, { select: ['kind'] });
  expectTypeOf(one).toEqualTypeOf<EventKeyAndKind | undefined>();
  // @ts-expect-error size was not selected
  void one?.size;
  const all = await events.findOne({ source: 's', at });
  expectTypeOf(all).toEqualTypeOf<Event | undefined>();
  const timed = await events.findOne({ source: 's', at }, { timeoutMs: 1_000 });
  expectTypeOf(timed).toEqualTypeOf<Event | undefined>();
  const failing = await events.findOneOrFail({ source: 's', at }, { select: ['kind'] });
  expectTypeOf(failing).toEqualTypeOf<EventKeyAndKind>();
  const many = await events.findMany([{ source: 's', at }], { select: ['kind'] });
  expectTypeOf(many).toEqualTypeOf<(EventKeyAndKind | undefined)[]>();
  for await (const e of events.iterate({ where: { source: 's' }, select: ['kind'] }))
    expectTypeOf(e).toEqualTypeOf<EventKeyAndKind>();
  for await (const e of events.iterate({ where: { source: 's' } })) expectTypeOf(e).toEqualTypeOf<Event>();
  events.scan({ select: ['kind'] }).subscribe((e) => expectTypeOf(e).toEqualTypeOf<EventKeyAndKind>());
  const page = await events.page({ limit: 10, select: ['kind'] });
  expectTypeOf(page).toEqualTypeOf<Page<EventKeyAndKind>>();
  // @ts-expect-error select names properties of the entity
  void events.page({ limit: 10, select: ['kinds'] });
  // Without the marker the key parts are unknown to the type, so select keeps the whole entity.
  expectTypeOf(await users.findOne({ id: 'u1' }, { select: ['name'] })).toEqualTypeOf<User | undefined>();
}

describe('create, key and select types', () => {
  it('derives create props, keys without the marker and selected results from the entity', () => {
    expectTypeOf<EntityData<User>>().toEqualTypeOf<{ id?: string; name?: string }>();
    expectTypeOf<RequiredDataProperty<User>>().toEqualTypeOf<'id'>();
    expectTypeOf<RequiredDataProperty<View>>().toEqualTypeOf<'site' | 'at' | 'path'>();
    expectTypeOf<EntityKey<User>>().toEqualTypeOf<{ id: string; name?: string }>();
    expectTypeOf<EntityKey<Event>>().toEqualTypeOf<{ source: string; at: Date }>();
    expectTypeOf(typeChecks).toBeFunction();
  });
});
