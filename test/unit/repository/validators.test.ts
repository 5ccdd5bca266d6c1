import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Column, Denormalized, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { MetadataError, PartialWriteError, ValidationError, type ValidationIssue } from '../../../src/errors/index.js';
import { toHttpError } from '../../../src/http/http-error.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { Repository } from '../../../src/repository/repository.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';
import { FakeDriver } from '../../support/fake-driver.js';

class Address {
  street?: string;
  city?: string;
}

@Entity({ table: 'people' })
@Family('p')
class Person {
  @KeyPart(0, { type: 'string', validate: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and -') })
  id!: string;
  @Column({ family: 'p', type: 'string', validate: z.email() }) email?: string;
  @Column({ family: 'p', type: 'int', validate: v.pipe(v.number(), v.minValue(0), v.maxValue(150)) }) age?: number;
  @Column({ family: 'p', type: 'string', validate: type('string <= 10') }) nickname?: string | null;
  @Column({ family: 'p', type: Address, validate: z.object({ street: z.string(), city: z.string().min(2) }) })
  address?: Address;
  @Column({ family: 'p', type: 'float', versions: 3, validate: z.number().min(-50).max(60) })
  temperature?: Versioned<number> | number;
  @Column({ family: 'p', type: 'string' }) note?: string;
}

const NOW = 1_700_000_000_000;
const schema = compileEntity(Person);
const person = (props: Partial<Person>): Person => Object.assign(new Person(), { id: 'ada', ...props });

/** Runs `fn`, expects a ValidationError, and returns its issues. */
function issuesOf(fn: () => unknown): readonly ValidationIssue[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('validate on @Column and @KeyPart', () => {
  it('lets valid values through, and compiles the same mutation as without validators', () => {
    const valid = person({ email: 'ada@example.com', age: 36, nickname: 'ada', note: 'x' });
    expect(() => compileSave(schema, valid, { now: NOW })).not.toThrow();
    expect(compileSave(schema, valid, { now: NOW }).mutations).toHaveLength(4);
  });

  it('runs zod, valibot and ArkType validators and lists every issue with its path', () => {
    const issues = issuesOf(() =>
      compileSave(schema, person({ id: 'Ada!', email: 'nope', age: -1, nickname: 'much too long' }), { now: NOW }),
    );
    expect(issues.map((i) => [i.property, i.path])).toEqual([
      ['id', 'Person.id'],
      ['email', 'Person.email'],
      ['age', 'Person.age'],
      ['nickname', 'Person.nickname'],
    ]);
    expect(issues[0]?.message).toBe('lowercase letters, digits and -');
    expect(issues[1]?.message).toMatch(/email/i);
    expect(issues[2]?.message).toMatch(/0/);
    expect(issues[3]?.message).toMatch(/10/);
  });

  it('names the path inside an object, and the version of a versioned column', () => {
    const address = Object.assign(new Address(), { street: 'Main St', city: 'X' });
    const issues = issuesOf(() =>
      compileSave(
        schema,
        person({
          address,
          temperature: [
            { value: 20, timestamp: new Date(NOW) },
            { value: 99, timestamp: new Date(NOW - 1000) },
          ],
        }),
        { now: NOW },
      ),
    );
    expect(issues.map((i) => i.path)).toEqual(['Person.address.city', 'Person.temperature[1].value']);
  });

  it('checks a plain value given to a versioned column as the value itself', () => {
    expect(issuesOf(() => compileSave(schema, person({ temperature: 70 }), { now: NOW })).map((i) => i.path)).toEqual([
      'Person.temperature',
    ]);
  });

  it('skips absent values: undefined columns, and null, which deletes the cell', () => {
    const mutation = compileSave(schema, person({ nickname: null, note: 'n' }), { now: NOW });
    expect(mutation.mutations.map((m) => m.kind)).toEqual(['deleteFromColumn', 'setCell']);
  });

  it('writes the value given, not the output of a transform', () => {
    @Entity({ table: 'tags' })
    @Family('t')
    class Tag {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 't', type: 'string', validate: z.string().trim().toUpperCase() }) label?: string;
    }
    const [cell] = compileSave(compileEntity(Tag), Object.assign(new Tag(), { id: 't', label: ' a ' }), {
      now: NOW,
    }).mutations;
    expect(cell?.kind === 'setCell' && cell.value.toString()).toBe(' a ');
  });

  it('runs before the key is encoded, so a compileSave shows the validator’s issues', () => {
    const message = (() => {
      try {
        compileSave(schema, person({ id: 'UPPER' }), { now: NOW });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message).toBe(
      'Person: invalid values (an issue): Person.id: lowercase letters, digits and -. Fix: correct the values listed (each names Entity.property and the path inside the value)',
    );
  });

  it('checks update’s key and the columns it changes, and skips null (a delete)', () => {
    expect(
      issuesOf(() => compileUpdate(schema, { id: 'X' }, { age: 200, nickname: null }, { now: NOW })).map((i) => i.path),
    ).toEqual(['Person.id', 'Person.age']);
    expect(compileUpdate(schema, { id: 'ada' }, { nickname: null }, { now: NOW }).mutations).toHaveLength(1);
  });
});

describe('validators in the repository', () => {
  let driver: FakeDriver;
  let repo: Repository<Person>;

  beforeEach(() => {
    driver = new FakeDriver();
    repo = new Repository(driver, schema);
  });

  it('refuses invalid values in every write before anything is sent', async () => {
    const bad = person({ email: 'nope' });
    for (const write of [
      () => repo.save(bad),
      () => repo.replace(bad),
      () => repo.saveIf(bad, { column: 'note', equals: 'x' }),
      () => repo.update({ id: 'ada' }, { age: -3 }),
      () => repo.update({ id: 'NOT VALID' }, { note: 'n' }),
      () => repo.increment({ id: 'NOT VALID' }, 'age'),
    ]) {
      expect(await rejection(write())).toBeInstanceOf(ValidationError);
    }
    expect(driver.calls).toEqual([]);
  });

  it('refuses invalid values in create()', () => {
    expect(issuesOf(() => repo.create({ id: 'ada', age: 400 })).map((i) => i.path)).toEqual(['Person.age']);
    expect(repo.create({ id: 'ada', age: 40 }).age).toBe(40);
  });

  it('writes valid entities', async () => {
    await repo.save(person({ email: 'ada@example.com', age: 36 }));
    expect(await repo.findOne({ id: 'ada' })).toMatchObject({ email: 'ada@example.com', age: 36 });
  });

  it('reports an invalid entity of saveMany in the PartialWriteError and writes the others', async () => {
    const err = await rejection(
      repo.saveMany([person({ id: 'a', age: 1 }), person({ id: 'b', age: -1 }), person({ id: 'c', age: 3 })]),
    );
    expect(err).toBeInstanceOf(PartialWriteError);
    const failure = (err as PartialWriteError<Person>).failures;
    expect(failure.map((f) => f.index)).toEqual([1]);
    expect(failure[0]?.cause).toBeInstanceOf(ValidationError);
    expect((failure[0]?.cause as ValidationError).issues.map((i) => i.path)).toEqual(['Person.age']);
    expect((err as PartialWriteError<Person>).succeeded).toBe(2);
    expect(driver.rows('people')).toHaveLength(2);
    expect(toHttpError(err).status).toBe(400);
  });

  it('answers HTTP 400 with the issues in the body', () => {
    let caught: unknown;
    try {
      repo.create({ id: 'ada', email: 'no', age: 999 });
    } catch (err) {
      caught = err;
    }
    const { status, body } = toHttpError(caught);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION');
    expect(body.details?.['issues']).toEqual([
      { property: 'email', path: 'Person.email', message: expect.stringMatching(/email/i) as unknown },
      { property: 'age', path: 'Person.age', message: expect.any(String) as unknown },
    ]);
  });
});

describe('validators that cannot be run', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses an asynchronous validator with a MetadataError', async () => {
    @Entity({ table: 'slow' })
    @Family('s')
    class Slow {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'string', validate: z.string().refine(async () => true) }) name?: string;
    }
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Slow));
    const err = await rejection(repo.save(Object.assign(new Slow(), { id: 's', name: 'n' })));
    expect(err).toBeInstanceOf(MetadataError);
    expect((err as Error).message).toBe(
      'Slow.name: its zod validator is asynchronous (validate returned a Promise), but writes are planned synchronously, before anything is sent. Fix: use a synchronous schema (no async refinements or transforms), or run the asynchronous check yourself before the write',
    );
    expect(driver.calls).toEqual([]);
    expect(() => repo.create({ id: 's' })).not.toThrow(); // nothing to check: name is absent
  });

  it('leaves no unhandled rejection behind a refused asynchronous validator', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const failing = {
        '~standard': { version: 1, vendor: 'test', validate: () => Promise.reject(new Error('never awaited')) },
      } as const;
      @Entity({ table: 'failing' })
      @Family('s')
      class Failing {
        @KeyPart(0, { type: 'string', validate: failing }) id!: string;
      }
      expectMetadataError(() => compileSave(compileEntity(Failing), { id: 'x' }), 'Failing.id: its test validator');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('refuses at compile time what is no Standard Schema validator', () => {
    for (const bad of [
      {},
      'email',
      (s: string) => s.length > 0,
      { '~standard': { version: 2, validate: () => ({}) } },
    ]) {
      @Entity({ table: 'bad' })
      @Family('b')
      class Bad {
        @KeyPart(0, { type: 'string' }) id!: string;
        @Column({ family: 'b', type: 'string', validate: bad as never }) name?: string;
      }
      expectMetadataError(() => compileEntity(Bad), 'Bad.name: validate', 'is not a Standard Schema validator');
    }
  });

  it('refuses a validator on a @Denormalized copy', () => {
    @Entity({ table: 'sources' })
    @Family('s')
    class Source {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 's', type: 'string' }) name?: string;
    }
    @Entity({ table: 'copies' })
    @Family('c')
    class Copy {
      @KeyPart(0, { type: 'string' }) id!: string;
      @KeyPart(1, { type: 'string' }) sourceId!: string;
      @Denormalized({ from: () => Source, key: { id: 'sourceId' }, field: 'name' })
      @Column({ family: 'c', type: 'string', validate: z.string() })
      name?: string;
    }
    expectMetadataError(() => compileEntity(Copy), 'Copy.name: a @Denormalized copy cannot have a validator');
  });
});

describe('issues from hostile input', () => {
  @Entity({ table: 'docs' })
  @Family('d')
  class Doc {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'd', type: 'json', validate: z.record(z.string(), z.number()) }) counts?: unknown;
    @Column({ family: 'd', type: 'json', validate: z.array(z.number()) }) list?: unknown;
    @Column({ family: 'd', type: 'string', validate: v.pipe(v.string(), v.email()) }) email?: string;
  }
  const docs = compileEntity(Doc);

  it('bounds messages and path segments that quote the input', () => {
    const huge = 'x'.repeat(1_000_000);
    let caught: ValidationError | undefined;
    try {
      compileSave(docs, Object.assign(new Doc(), { id: 'd', email: huge, counts: { [huge]: 'not a number' } }));
    } catch (err) {
      caught = err as ValidationError;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught?.message.length).toBeLessThan(2_000);
    for (const issue of caught?.issues ?? []) {
      expect(issue.message.length).toBeLessThanOrEqual(200);
      expect(issue.path.length).toBeLessThan(100);
    }
    expect(caught?.issues.map((i) => i.path)).toEqual([`Doc.counts["${'x'.repeat(39)}…"]`, 'Doc.email']);
  });

  it('writes every kind of path segment: identifiers, indexes, odd keys, symbols, { key } objects', () => {
    const pathOf = (path: unknown[]): string | undefined => {
      const reporting = {
        '~standard': { version: 1, vendor: 'test', validate: () => ({ issues: [{ message: 'bad', path }] }) },
      } as const;
      @Entity({ table: 'paths' })
      @Family('p')
      class Paths {
        @KeyPart(0, { type: 'string' }) id!: string;
        @Column({ family: 'p', type: 'json', validate: reporting }) data?: unknown;
      }
      return issuesOf(() => compileSave(compileEntity(Paths), { id: 'p', data: 1 }))[0]?.path;
    };
    expect(pathOf(['__proto__', { key: 'a b' }, 3, Symbol('s'), { key: 0 }, -1, 1.5])).toBe(
      'Paths.data.__proto__["a b"][3][Symbol(s)][0][-1][1.5]',
    );
    expect(pathOf([{}, null, 'ok'])).toBe('Paths.data[?][?].ok');
    expect(pathOf(Array.from({ length: 30 }, () => 'a'))).toBe(`Paths.data${'.a'.repeat(20)}…`);
  });

  it('takes a failure without issues, or without a message, as one invalid value', () => {
    const quiet = (result: unknown) =>
      ({ '~standard': { version: 1, vendor: 'test', validate: () => result } }) as const;
    @Entity({ table: 'quiet' })
    @Family('q')
    class Quiet {
      @KeyPart(0, { type: 'string', validate: quiet({ issues: [] }) }) id!: string;
      @Column({ family: 'q', type: 'json', validate: quiet({ issues: [{ message: 42 }] }) }) data?: unknown;
    }
    expect(issuesOf(() => compileSave(compileEntity(Quiet), { id: 'q', data: 1 }))).toEqual([
      { property: 'id', path: 'Quiet.id', message: 'invalid value' },
      { property: 'data', path: 'Quiet.data', message: 'invalid value' },
    ]);
  });

  it('refuses a validator that answers with no Standard Schema result', () => {
    @Entity({ table: 'odd' })
    @Family('o')
    class Odd {
      @KeyPart(0, { type: 'string', validate: { '~standard': { version: 1, vendor: 'odd', validate: () => true } } })
      id!: string;
    }
    expectMetadataError(() => compileSave(compileEntity(Odd), { id: 'o' }), 'Odd.id: its validator returned true');
  });

  it('lists at most 100 issues and counts the rest', () => {
    let caught: ValidationError | undefined;
    try {
      compileSave(docs, Object.assign(new Doc(), { id: 'd', list: Array.from({ length: 5000 }, () => 'x') }));
    } catch (err) {
      caught = err as ValidationError;
    }
    expect(caught?.issues).toHaveLength(100);
    expect(caught?.details['issuesOmitted']).toBe(4900);
    expect(caught?.message).toContain('(5000 issues)');
    expect(caught?.message).toContain('; and 4990 more.');
    expect(caught?.issues[99]?.path).toBe('Doc.list[99]');
  });
});
