import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileCondition, type SaveCondition } from '../../../src/mutation/compile-condition.js';
import { compileSave } from '../../../src/mutation/compile-save.js';

const NOW = 1_700_000_000_000;

@Entity({ table: 'jobs' })
@Family('s')
class Job {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', qualifier: 'st', type: 'string' }) status?: string;
  @Column({ family: 's', type: 'int' }) attempts?: number;
  @Column({ family: 's', type: 'string' }) lockedBy?: string;
}

const schema = compileEntity(Job);
const job = Object.assign(new Job(), { id: 'j1', status: 'running', attempts: 2 });
const save = compileSave(schema, job, { now: NOW });
const latest = (qualifier: string) => [
  { kind: 'family', name: 's' },
  { kind: 'qualifiers', names: [qualifier] },
  { kind: 'cellsPerColumn', limit: 1 },
];

describe('compileCondition', () => {
  it('targets the compiled row', () => {
    const { request } = compileCondition(schema, save, { rowExists: false });
    expect(request.table).toBe('jobs');
    expect(request.rowKey).toEqual(Buffer.from('j1'));
  });

  it.each<[string, SaveCondition<Job>, object, boolean]>([
    [
      'rowExists: true',
      { rowExists: true },
      { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] },
      true,
    ],
    [
      'rowExists: false',
      { rowExists: false },
      { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] },
      false,
    ],
    [
      'equals',
      { column: 'status', equals: 'pending' },
      { kind: 'chain', filters: [...latest('st'), { kind: 'valueEquals', value: Buffer.from('pending') }] },
      true,
    ],
    [
      'notEquals',
      { column: 'status', notEquals: 'done' },
      { kind: 'chain', filters: [...latest('st'), { kind: 'valueEquals', value: Buffer.from('done') }] },
      false,
    ],
    [
      'equals on an int column (encoded like the cell)',
      { column: 'attempts', equals: 1 },
      {
        kind: 'chain',
        filters: [...latest('attempts'), { kind: 'valueEquals', value: Buffer.from('0000000000000001', 'hex') }],
      },
      true,
    ],
    [
      'exists: true',
      { column: 'lockedBy', exists: true },
      { kind: 'chain', filters: [...latest('lockedBy'), { kind: 'stripValue' }] },
      true,
    ],
    [
      'exists: false',
      { column: 'lockedBy', exists: false },
      { kind: 'chain', filters: [...latest('lockedBy'), { kind: 'stripValue' }] },
      false,
    ],
  ])('%s → predicate and branch', (_name, condition, predicate, appliesOnMatch) => {
    const { request, appliesOnMatch: onMatch } = compileCondition(schema, save, condition);
    expect(request.predicate).toEqual(predicate);
    expect(onMatch).toBe(appliesOnMatch);
    expect(request.onMatch).toEqual(appliesOnMatch ? save.mutations : []);
    expect(request.onNoMatch).toEqual(appliesOnMatch ? [] : save.mutations);
  });

  it('rejects a condition on a non-column', () => {
    expect(() => compileCondition(schema, save, { column: 'id', equals: 'j1' })).toThrow(ValidationError);
    expect(() => compileCondition(schema, save, { column: 'nope' as 'id', equals: 1 })).toThrow(
      /Job\.nope: conditions test columns/,
    );
  });

  it('rejects a missing condition and a value the column cannot encode', () => {
    expect(() => compileCondition(schema, save, undefined as unknown as SaveCondition<Job>)).toThrow(ValidationError);
    expect(() => compileCondition(schema, save, { column: 'attempts', equals: 'x' })).toThrow(/Job\.attempts/);
  });
});
