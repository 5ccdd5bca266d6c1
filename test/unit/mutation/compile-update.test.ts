import { describe, expect, it } from 'vitest';
import { CellTimestamp, Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { KeyEncodingError, ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Versioned } from '../../../src/metadata/compile-columns.js';
import { compileDelete, compileUpdate } from '../../../src/mutation/compile-update.js';

const NOW = 1_700_000_000_000;
const NOW_MICROS = NOW * 1000;

@Entity({ table: 'jobs' })
@KeyPart(0, { literal: 'job' })
@Family('s')
@Family('h', { gc: { maxVersions: 10 } })
class Job {
  @KeyPart(1, { type: 'string' }) queue!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) id!: number;
  @Column({ family: 's', type: 'string' }) status?: string | null;
  @Column({ family: 's', qualifier: 'err', type: 'string' }) error?: string | null;
  @Column({ family: 's', type: 'int' }) attempts?: number | null;
  @Column({ family: 'h', type: 'string', versions: 10 }) history?: Versioned<string> | string;
  @CellTimestamp() updatedAt?: Date;
}

@Entity({ table: 'sessions' })
@Salt({ buckets: 10, hash: () => 7 })
@Family('d')
class Session {
  @KeyPart(0, { type: 'string' }) user!: string;
  @KeyPart(1, { type: 'timestamp', format: 'epoch-s' }) started!: Date;
  @Column({ family: 'd', type: 'boolean' }) active?: boolean;
}

const KEY = { queue: 'emails', id: 42 };
const ROW = 'job#emails#000042';

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

describe('compileUpdate', () => {
  it('writes only the given columns, and deletes null ones', () => {
    const m = compileUpdate(compileEntity(Job), KEY, { status: 'done', error: null }, { now: NOW });
    expect(m).toEqual({
      table: 'jobs',
      rowKey: Buffer.from(ROW),
      rowKeyText: ROW,
      idempotent: true,
      mutations: [
        { kind: 'setCell', family: 's', qualifier: 'status', timestampMicros: NOW_MICROS, value: Buffer.from('done') },
        { kind: 'deleteFromColumn', family: 's', qualifier: 'err' },
      ],
    });
    expect(Object.isFrozen(m.mutations)).toBe(true);
  });

  it('leaves undefined properties alone', () => {
    const m = compileUpdate(compileEntity(Job), KEY, { status: undefined, attempts: 3 }, { now: NOW });
    expect(m.mutations).toEqual([
      {
        kind: 'setCell',
        family: 's',
        qualifier: 'attempts',
        timestampMicros: NOW_MICROS,
        value: Buffer.from('0000000000000003', 'hex'),
      },
    ]);
  });

  it('uses the @CellTimestamp given in the partial, without writing it as a column', () => {
    const updatedAt = new Date('2024-06-01T00:00:00.000Z');
    const m = compileUpdate(compileEntity(Job), KEY, { status: 'x', updatedAt }, { now: NOW });
    expect(m.mutations).toEqual([
      {
        kind: 'setCell',
        family: 's',
        qualifier: 'status',
        timestampMicros: updatedAt.getTime() * 1000,
        value: Buffer.from('x'),
      },
    ]);
  });

  it('appends versions to a versioned column', () => {
    const at = new Date('2024-06-01T00:00:00.000Z');
    const m = compileUpdate(compileEntity(Job), KEY, { history: [{ value: 'queued', timestamp: at }] }, { now: NOW });
    expect(m.mutations).toEqual([
      {
        kind: 'setCell',
        family: 'h',
        qualifier: 'history',
        timestampMicros: at.getTime() * 1000,
        value: Buffer.from('queued'),
      },
    ]);
    const plain = compileUpdate(compileEntity(Job), KEY, { history: 'running' }, { now: NOW });
    expect(plain.mutations).toEqual([
      {
        kind: 'setCell',
        family: 'h',
        qualifier: 'history',
        timestampMicros: NOW_MICROS,
        value: Buffer.from('running'),
      },
    ]);
  });

  it('allows key parts that repeat the key unchanged', () => {
    const m = compileUpdate(compileEntity(Job), KEY, { queue: 'emails', id: 42, status: 'ok' } as Partial<Job>, {
      now: NOW,
    });
    expect(m.mutations).toHaveLength(1);
    const started = new Date('2024-01-01T00:00:00.000Z');
    const s = compileUpdate(
      compileEntity(Session),
      { user: 'u', started },
      { started: new Date(started.getTime()), active: true },
      { now: NOW },
    );
    expect(s.rowKeyText).toBe('07#u#1704067200');
  });

  it('rejects a changed key part', () => {
    const err = caught(() => compileUpdate(compileEntity(Job), KEY, { id: 43, status: 'ok' }, { now: NOW }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Job.id: key parts cannot be updated');
    const started = new Date('2024-01-01T00:00:00.000Z');
    expect(
      caught(() =>
        compileUpdate(
          compileEntity(Session),
          { user: 'u', started },
          { started: new Date(0), active: true },
          { now: NOW },
        ),
      ),
    ).toBeInstanceOf(ValidationError);
  });

  it('rejects an unknown property and names the columns', () => {
    const err = caught(() => compileUpdate(compileEntity(Job), KEY, { nope: 1 } as Partial<Job>, { now: NOW }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('Job.nope: not a column');
    expect(err.message).toContain('status, error, attempts, history');
  });

  it('rejects an update with nothing to write', () => {
    const err = caught(() => compileUpdate(compileEntity(Job), KEY, {}, { now: NOW }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain(`Job "${ROW}": update has no column`);
    expect(caught(() => compileUpdate(compileEntity(Job), KEY, { status: undefined }, { now: NOW }))).toBeInstanceOf(
      ValidationError,
    );
  });

  it('rejects an incomplete key and bad values', () => {
    expect(caught(() => compileUpdate(compileEntity(Job), { queue: 'emails' }, { status: 'x' }))).toBeInstanceOf(
      ValidationError,
    );
    expect(
      caught(() => compileUpdate(compileEntity(Job), { queue: 'emails', id: 1.5 }, { status: 'x' })),
    ).toBeInstanceOf(KeyEncodingError);
    const bad = caught(() => compileUpdate(compileEntity(Job), KEY, { attempts: 'three' as unknown as number }));
    expect(bad).toBeInstanceOf(ValueEncodingError);
    expect(bad.message).toMatch(/^Job\.attempts: "three" /);
  });
});

describe('compileDelete', () => {
  it('deletes the whole row', () => {
    expect(compileDelete(compileEntity(Job), KEY)).toEqual({
      table: 'jobs',
      rowKey: Buffer.from(ROW),
      rowKeyText: ROW,
      idempotent: true,
      mutations: [{ kind: 'deleteFromRow' }],
    });
  });

  it('addresses the salted key', () => {
    const m = compileDelete(compileEntity(Session), { user: 'u', started: new Date('2024-01-01T00:00:00.000Z') });
    expect(m.rowKeyText).toBe('07#u#1704067200');
    expect(Object.isFrozen(m)).toBe(true);
  });

  it('needs the full key', () => {
    const err = caught(() => compileDelete(compileEntity(Job), { queue: 'emails' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('key is missing "id"');
  });
});
