import { describe, expect, it } from 'vitest';
import { ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { Address, Profile } from './embedded-entities.js';

const schema = compileEntity(Profile);
const save = (props: Record<string, unknown>) => compileSave(schema, { id: 'p1', ...props } as Profile, { now: 1 });

function encodingError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValueEncodingError);
    return (err as Error).message;
  }
  throw new Error('expected a ValueEncodingError');
}

describe('class-typed columns refuse __proto__ keys, which class-transformer would drop', () => {
  it('at the top of a json-layout object', () => {
    const work = JSON.parse('{"street": "Main 1", "__proto__": {"city": "lost"}}') as unknown;
    expect(encodingError(() => save({ work }))).toContain(
      'Profile.work: {"street":"Main 1","__proto__":{"city":"lost"}} is not a valid Address value: it holds a "__proto__" key, which class-transformer would drop',
    );
  });

  it('nested in objects and arrays, naming where', () => {
    const work = JSON.parse('{"geo": {"tags": [1, {"__proto__": 2}]}}') as unknown;
    expect(encodingError(() => save({ work }))).toContain('holds a "__proto__" key at "geo.tags.1"');
  });

  it('in a flattened column, top level or nested', () => {
    expect(encodingError(() => save({ home: JSON.parse('{"__proto__": "x"}') as unknown }))).toContain('Profile.home');
    expect(encodingError(() => save({ home: JSON.parse('{"geo": {"__proto__": 1}}') as unknown }))).toContain(
      'at "geo"',
    );
  });

  it('walks deep and cyclic values without overflowing or looping', () => {
    let deep: Record<string, unknown> = JSON.parse('{"__proto__": 1}') as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(encodingError(() => save({ work: deep }))).toContain('holds a "__proto__" key at "d.d.d.');
    const cyclic = JSON.parse('{"street": "x", "geo": {"__proto__": 1}}') as Record<string, unknown>;
    cyclic['self'] = cyclic;
    (cyclic['geo'] as Record<string, unknown>)['back'] = cyclic;
    expect(encodingError(() => save({ work: cyclic }))).toContain('holds a "__proto__" key at "geo"');
  });

  it('still stores objects without one, and an instance’s prototype is no key', async () => {
    const work = Object.assign(new Address(), { street: 'Main 1', city: 'Oslo' });
    const repo = new Repository(new FakeDriver(), schema);
    await repo.save(Object.assign(new Profile(), { id: 'p1', work, home: { street: 'Elm 2' } }));
    const found = await repo.findOne({ id: 'p1' });
    expect(found?.work).toEqual(work);
    expect(found?.home?.street).toBe('Elm 2');
  });
});
