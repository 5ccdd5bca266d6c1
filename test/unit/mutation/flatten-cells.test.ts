import { describe, expect, it } from 'vitest';
import { ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { resolveRead } from '../../../src/read/read-options.js';
import { planReadFilter } from '../../../src/read/read-filter.js';
import { hydrate } from '../../../src/read/hydrate.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { Address, Geo, Profile } from '../metadata/embedded-entities.js';

const schema = compileEntity(Profile);
const NOW = 1_700_000_000_000;
const address = (fields: Partial<Address>): Address => Object.assign(new Address(), fields);
const text = (m: CellMutation): string =>
  m.kind === 'setCell'
    ? `set ${m.family}:${m.qualifier}=${m.value.toString()}`
    : m.kind === 'deleteFromColumn'
      ? `delete ${m.family}:${m.qualifier}`
      : m.kind;

describe('compileSave of a flattened column', () => {
  it('writes one JSON cell per defined field, and the json layout one cell', () => {
    const home = address({
      street: 'Main 1',
      zip: 1234,
      geo: Object.assign(new Geo(), { lat: 59.9, lng: 10.7 }),
      since: new Date('2020-01-02T03:04:05.000Z'),
    });
    const m = compileSave(schema, Object.assign(new Profile(), { id: 'u1', home, work: address({ city: 'Oslo' }) }), {
      now: NOW,
    });
    expect(m.mutations.map(text)).toEqual([
      'set p:work={"city":"Oslo"}',
      'set p:home.street="Main 1"',
      'set p:home.zip=1234',
      'set p:home.geo={"lat":59.9,"lng":10.7}',
      'set p:home.since="2020-01-02T03:04:05.000Z"',
    ]);
    expect(m.mutations.every((c) => c.kind !== 'setCell' || c.timestampMicros === NOW * 1000)).toBe(true);
  });

  it('deletes every field cell for null, and leaves absent fields alone except on replace', () => {
    expect(
      compileSave(schema, Object.assign(new Profile(), { id: 'u1', name: 'n', billing: null }), {
        now: NOW,
      }).mutations.map(text),
    ).toEqual(['delete p:b:street', 'delete p:b:city', 'set p:name=n']);
    const replace = compileSave(
      schema,
      Object.assign(new Profile(), { id: 'u1', billing: address({ city: 'Bergen' }) }),
      { now: NOW, mode: 'replace' },
    );
    expect(replace.mutations.map(text)).toEqual(['deleteFromRow', 'set p:b:city="Bergen"']);
    const update = compileUpdate(schema, { id: 'u1' }, { home: address({ city: 'Bergen' }) }, { now: NOW });
    expect(update.mutations.map(text)).toEqual(['set p:home.city="Bergen"']);
  });

  it('refuses a plain field outside the field list rather than dropping it, and non-objects', () => {
    const extra = Object.assign(address({ city: 'x' }), { country: 'NO' });
    expect(() => compileSave(schema, Object.assign(new Profile(), { id: 'u1', billing: extra }))).toThrow(
      ValueEncodingError,
    );
    expect(() => compileSave(schema, Object.assign(new Profile(), { id: 'u1', billing: extra }))).toThrow(
      `has field "country", which is not one of the flattened fields (street, city), so it would be lost. Fix: add 'country' to fields`,
    );
    expect(() => compileSave(schema, Object.assign(new Profile(), { id: 'u1', billing: 'Main 1' as never }))).toThrow(
      'a flattened column stores one object',
    );
    expect(() => compileSave(schema, Object.assign(new Profile(), { id: 'u1', exposed: { a: 1n } as never }))).toThrow(
      'Profile.exposed.a',
    );
  });
});

describe('reading a flattened column', () => {
  it('asks the server for exactly the field qualifiers of the selected columns', () => {
    const filter = planReadFilter(schema, resolveRead(schema, { select: ['billing', 'name'] }), NOW * 1000);
    const selection = {
      kind: 'chain',
      filters: [
        { kind: 'family', name: 'p' },
        { kind: 'qualifiers', names: ['b:street', 'b:city', 'name'] },
        { kind: 'cellsPerColumn', limit: 1 },
      ],
    };
    expect(filter).toMatchObject({ kind: 'condition', test: selection, pass: selection });
  });

  it('hydrates class instances with nested classes and Dates, and nothing when no field cell exists', () => {
    const cell = (v: string) => [{ value: Buffer.from(v), timestampMicros: NOW * 1000 }];
    const row = {
      key: Buffer.from('u1'),
      cells: {
        p: {
          'home.city': cell('"Oslo"'),
          'home.geo': cell('{"lat":-1,"lng":2}'),
          'home.since': cell('"2020-01-02T00:00:00.000Z"'),
          'home.unknown': cell('1'),
        },
      },
    };
    const profile = hydrate(schema, row, resolveRead(schema), NOW * 1000);
    expect(profile.home).toBeInstanceOf(Address);
    expect(profile.home?.geo).toBeInstanceOf(Geo);
    expect(profile.home?.geo?.isNorthern()).toBe(false);
    expect(profile.home?.since).toEqual(new Date('2020-01-02T00:00:00.000Z'));
    expect({ ...profile.home }).toEqual({
      city: 'Oslo',
      geo: Object.assign(new Geo(), { lat: -1, lng: 2 }),
      since: new Date('2020-01-02T00:00:00.000Z'),
    });
    expect('billing' in profile).toBe(false);
    expect(() =>
      hydrate(
        schema,
        { key: Buffer.from('u1'), cells: { p: { 'home.city': cell('Oslo') } } },
        resolveRead(schema),
        NOW * 1000,
      ),
    ).toThrow('Profile.home.city');
  });

  it('round-trips both layouts through a repository, and refuses conditions on a flattened column', async () => {
    const repo = new Repository(new FakeDriver({ yieldInCalls: false }), schema);
    const value = address({
      street: 'S',
      city: 'C',
      zip: 1,
      geo: Object.assign(new Geo(), { lat: 1, lng: 2 }),
      since: new Date(0),
    });
    await repo.save(Object.assign(new Profile(), { id: 'u1', work: value, home: value }));
    const found = await repo.findOneOrFail({ id: 'u1' });
    expect(found.work).toEqual(value);
    expect(found.home).toEqual(value);
    expect(found.home?.label()).toBe('S, C');
    expect(await repo.findOne({ id: 'u1' }, { select: ['home'] })).toEqual(
      Object.assign(new Profile(), { id: 'u1', home: value }),
    );
    await expect(
      repo.saveIf(Object.assign(new Profile(), { id: 'u1', name: 'x' }), { column: 'home', exists: true }),
    ).rejects.toThrow(ValidationError);
  });
});
