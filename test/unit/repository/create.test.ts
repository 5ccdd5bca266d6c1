import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'jobs' })
@Family('s')
class Job {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'string' }) status: string = 'pending';
  @Column({ family: 's', type: 'int' }) runs?: number;

  label(): string {
    return `${this.id}:${this.status}`;
  }
}

@Entity({ table: 'args' })
@Family('s')
class WithArgs {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'string' }) name?: string;

  constructor(required: { id: string }) {
    this.id = required.id;
  }
}

const jobs = (): Repository<Job> => new Repository(new FakeDriver(), compileEntity(Job));

describe('Repository.create', () => {
  it('returns an instance of the entity class with the given properties', () => {
    const job = jobs().create({ id: 'j1', runs: 2 });
    expect(job).toBeInstanceOf(Job);
    expect(job.id).toBe('j1');
    expect(job.runs).toBe(2);
    expect(job.label()).toBe('j1:pending');
  });

  it('runs the constructor, so field initializers give defaults the props override', () => {
    expect(jobs().create({ id: 'j1' }).status).toBe('pending');
    expect(jobs().create({ id: 'j1', status: 'done' }).status).toBe('done');
  });

  it('makes an instance of a class whose constructor takes arguments without calling it', () => {
    const repo = new Repository(new FakeDriver(), compileEntity(WithArgs));
    const made = repo.create({ id: 'a', name: 'n' });
    expect(made).toBeInstanceOf(WithArgs);
    expect({ ...made }).toEqual({ id: 'a', name: 'n' });
  });

  it('gives an entity that save() writes', async () => {
    const driver = new FakeDriver();
    const repo = new Repository(driver, compileEntity(Job));
    await repo.save(repo.create({ id: 'j1', status: 'done' }));
    expect(await repo.findOne({ id: 'j1' })).toEqual(repo.create({ id: 'j1', status: 'done' }));
  });

  it('copies only own enumerable properties and never changes the prototype', () => {
    const hostile = JSON.parse('{"id":"j1","__proto__":{"polluted":true}}') as Partial<Job>;
    expect(() => jobs().create(hostile)).toThrow(ValidationError);
    expect(() => jobs().create(hostile)).toThrow(/Job\.__proto__/);
    const inherited = Object.create({ status: 'inherited' }) as Partial<Job>;
    inherited.id = 'j2';
    const made = jobs().create(inherited);
    expect(made.status).toBe('pending');
    expect(Object.getPrototypeOf(made)).toBe(Job.prototype);
  });

  it('rejects anything but an object of properties', () => {
    for (const bad of [null, 'j1', 42, ['j1']]) {
      expect(() => jobs().create(bad as never)).toThrow(ValidationError);
      expect(() => jobs().create(bad as never)).toThrow(/Job: create\(\) takes an object of properties/);
    }
  });
});
