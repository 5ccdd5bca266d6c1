import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { EntityNotFoundError, ValidationError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileDelete, compileUpdate } from '../../../src/mutation/compile-update.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import { Repository } from '../../../src/repository/repository.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { planReadFilter } from '../../../src/read/read-filter.js';
import { resolveRead } from '../../../src/read/read-options.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

const NOW = 1_700_000_000_000;
const TS = new Date('2023-05-01T12:00:00.000Z');

@Entity({ table: 'readings' })
@Family('m')
@Family('logs')
class Reading {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
  @Column({ family: 'm', qualifier: 'temp', type: 'float' }) temperature?: number | null;
  @Column({ family: 'logs', type: 'string' }) note?: string | null;
}

@Entity({ table: 'jobs' })
@Salt({ buckets: 4 })
@Family('s')
@Family('c')
class Job {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 's', type: 'string' }) status?: string;
  @Column({ family: 'c', type: 'int' }) runs?: number;
}

const reading = (sensorId: string, values: Partial<Reading> = {}): Reading =>
  Object.assign(new Reading(), { sensorId, ts: TS, temperature: 20 }, values);
const job = (id: string, status: string): Job => Object.assign(new Job(), { id, status });

let driver: FakeDriver;
let readings: Repository<Reading>;
let jobs: Repository<Job>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  driver = new FakeDriver();
  readings = new Repository(driver, compileEntity(Reading));
  jobs = new Repository(driver, compileEntity(Job));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Repository writes', () => {
  it('save sends exactly compileSave’s mutation in one mutateRow', async () => {
    const r = reading('s1', { note: 'ok' });
    await readings.save(r);
    expect(driver.calls).toEqual([
      { method: 'mutateRow', mutation: compileSave(compileEntity(Reading), r, { now: NOW }) },
    ]);
    expect(readings.compileSave(r)).toEqual(compileSave(compileEntity(Reading), r, { now: NOW }));
  });

  it('replace deletes the row’s other cells in the same mutation', async () => {
    await readings.save(reading('s1', { note: 'old note' }));
    await readings.replace(reading('s1', { temperature: 21 }));
    expect(driver.callsOf('mutateRow')[1]?.mutation.mutations[0]).toEqual({ kind: 'deleteFromRow' });
    expect(await readings.findOne({ sensorId: 's1', ts: TS })).toEqual(
      Object.assign(new Reading(), { sensorId: 's1', ts: TS, temperature: 21 }),
    );
  });

  it('update and delete send compileUpdate’s and compileDelete’s mutations', async () => {
    await readings.save(reading('s1', { note: 'n' }));
    await readings.update({ sensorId: 's1', ts: TS }, { temperature: 25, note: null });
    await readings.delete({ sensorId: 's1', ts: TS });
    const schema = compileEntity(Reading);
    expect(
      driver
        .callsOf('mutateRow')
        .map((c) => c.mutation)
        .slice(1),
    ).toEqual([
      compileUpdate(schema, { sensorId: 's1', ts: TS }, { temperature: 25, note: null }, { now: NOW }),
      compileDelete(schema, { sensorId: 's1', ts: TS }),
    ]);
    expect(driver.rows('readings')).toEqual([]);
  });

  it('rejects invalid entities before calling the driver', async () => {
    await expect(readings.save(reading('s1', { temperature: null, note: undefined }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(readings.update({ sensorId: 's1' }, { temperature: 1 })).rejects.toBeInstanceOf(ValidationError);
    expect(driver.calls).toEqual([]);
  });

  it('propagates a driver error from save', async () => {
    driver.reject('s1#2023-05-01T12:00:00.000Z', GrpcCode.Unavailable);
    await expect(readings.save(reading('s1'))).rejects.toMatchObject({
      name: 'DriverError',
      grpcCode: GrpcCode.Unavailable,
    });
  });

  it('saveIf compiles the condition and reports whether it applied', async () => {
    expect(await jobs.saveIf(job('j1', 'pending'), { rowExists: false })).toBe(true);
    expect(await jobs.saveIf(job('j1', 'other'), { rowExists: false })).toBe(false);
    expect(await jobs.saveIf(job('j1', 'running'), { column: 'status', equals: 'pending' })).toBe(true);
    expect(await jobs.saveIf(job('j1', 'running'), { column: 'status', equals: 'pending' })).toBe(false);
    expect(await jobs.saveIf(job('j1', 'done'), { column: 'status', notEquals: 'done' })).toBe(true);
    expect(await jobs.saveIf(job('j1', 'x'), { column: 'runs', exists: true })).toBe(false);
    expect((await jobs.findOne({ id: 'j1' }))?.status).toBe('done');
    const calls = driver.callsOf('checkAndMutate');
    expect(calls).toHaveLength(6);
    expect(calls[0]?.request.rowKey).toEqual(
      compileSave(compileEntity(Job), job('j1', 'pending'), { now: NOW }).rowKey,
    );
  });

  it('increment adds to an int column and returns the new value', async () => {
    expect(await jobs.increment({ id: 'j1' }, 'runs')).toBe(1);
    expect(await jobs.increment({ id: 'j1' }, 'runs', 41)).toBe(42);
    expect(await jobs.increment({ id: 'j1' }, 'runs', -2n)).toBe(40);
    const [call] = driver.callsOf('increment');
    expect(call).toEqual({
      method: 'increment',
      table: 'jobs',
      rowKey: compileDelete(compileEntity(Job), { id: 'j1' }).rowKey,
      rules: [{ family: 'c', qualifier: 'runs', amount: 1n }],
    });
    expect((await jobs.findOne({ id: 'j1' }))?.runs).toBe(40);
    // @ts-expect-error status is a string property: not a counter (checked at run time too)
    await expect(jobs.increment({ id: 'j1' }, 'status')).rejects.toThrow(
      /Job\.status: increment needs an 'int' or 'bigint' column/,
    );
    await expect(jobs.increment({ id: 'j1' }, 'runs', 1.5)).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('Repository point reads', () => {
  it('findOne reads one salted key with the planned filter and hydrates it', async () => {
    await jobs.save(job('j1', 'ok'));
    driver.clearCalls();
    const found = await jobs.findOne({ id: 'j1' });
    expect(found).toEqual(Object.assign(new Job(), { id: 'j1', status: 'ok' }));
    expect(found).toBeInstanceOf(Job);
    const schema = compileEntity(Job);
    expect(driver.calls).toEqual([
      {
        method: 'readRows',
        request: {
          table: 'jobs',
          keys: [compileDelete(schema, { id: 'j1' }).rowKey],
          filter: planReadFilter(schema, resolveRead(schema), NOW * 1000),
        },
      },
    ]);
  });

  it('findOne fetches only the selected columns', async () => {
    await readings.save(reading('s1', { note: 'n' }));
    const found = await readings.findOne({ sensorId: 's1', ts: TS }, { select: ['note'] });
    expect(found).toEqual(Object.assign(new Reading(), { sensorId: 's1', ts: TS, note: 'n' }));
  });

  it('findOne resolves undefined and findOneOrFail throws for a missing row', async () => {
    expect(await readings.findOne({ sensorId: 'nope', ts: TS })).toBeUndefined();
    await expect(readings.findOneOrFail({ sensorId: 'nope', ts: TS })).rejects.toBeInstanceOf(EntityNotFoundError);
  });

  it('findMany returns input order with undefined for missing rows, reading each key once', async () => {
    await jobs.saveMany([job('a', '1'), job('c', '3')]);
    driver.clearCalls();
    const found = await jobs.findMany([{ id: 'c' }, { id: 'b' }, { id: 'a' }, { id: 'c' }]);
    expect(found.map((j) => j?.status)).toEqual(['3', undefined, '1', '3']);
    const [call] = driver.callsOf('readRows');
    expect(call?.request.keys?.map((k) => k.toString())).toHaveLength(3);
  });

  it('findMany reads up to 1,000 keys per call', async () => {
    const keys = Array.from({ length: 1001 }, (_, i) => ({ id: `k${i}` }));
    expect((await jobs.findMany(keys)).every((j) => j === undefined)).toBe(true);
    expect(driver.callsOf('readRows').map((c) => c.request.keys?.length)).toEqual([1000, 1]);
  });

  it('findMany validates every key before reading', async () => {
    await expect(readings.findMany([{ sensorId: 's1', ts: TS }, { sensorId: 's1' }])).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(driver.calls).toEqual([]);
  });
});

describe('Repository scans', () => {
  it('reads one range per bucket with the plan’s filter and merges in logical key order', async () => {
    const ids = ['d', 'a', 'f', 'b', 'e', 'c', 'g', 'h'];
    await jobs.saveMany(ids.map((id) => job(id, id.toUpperCase())));
    driver.clearCalls();
    const all: Job[] = [];
    for await (const j of jobs.iterate()) all.push(j);
    expect(all.map((j) => j.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const plan = planScan(compileEntity(Job), {}, NOW * 1000);
    expect(driver.callsOf('readRows').map((c) => c.request)).toEqual(
      plan.sources.map((s) => ({ table: 'jobs', ranges: [s.range], limit: undefined, filter: plan.filter })),
    );
    expect(jobs.planScan()).toEqual(plan);
  });

  it('applies a global limit and cancels every read when it is reached', async () => {
    await jobs.saveMany(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => job(id, id)));
    driver.clearCalls();
    const out: string[] = [];
    for await (const j of jobs.iterate({ limit: 3 })) out.push(j.id);
    expect(out).toEqual(['a', 'b', 'c']);
    expect(driver.reads.every((r) => r.cancelled || r.ended)).toBe(true);
    expect(driver.reads.map((r) => r.request.limit)).toEqual([3, 3, 3, 3]);
  });

  it('stops every read when the consumer breaks out', async () => {
    await jobs.saveMany(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => job(id, id)));
    driver.clearCalls();
    for await (const j of jobs.iterate()) {
      if (j.id === 'b') break;
    }
    expect(driver.reads).toHaveLength(4);
    expect(driver.reads.every((r) => r.cancelled || r.ended)).toBe(true);
    expect(driver.reads.some((r) => r.cancelled)).toBe(true);
  });

  it('scan() is a cold observable of the same rows; unordered scans return every row', async () => {
    await jobs.saveMany(['a', 'b', 'c'].map((id) => job(id, id)));
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) =>
      jobs
        .scan({ order: 'none', concurrency: 2 })
        .subscribe({ next: (j) => seen.push(j.id), error: reject, complete: resolve }),
    );
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
  });

  it('page() requires a limit', async () => {
    await expect(jobs.page({} as { limit: number })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('BigtableMapper with a custom driver', () => {
  it('hands out one repository per entity over that driver, and leaves the driver open on close', async () => {
    const mapper = new BigtableMapper({ driver, entities: [Reading] });
    const repo = mapper.getRepository(Reading);
    expect(mapper.getRepository(Reading)).toBe(repo);
    await repo.save(reading('s9'));
    expect(driver.callsOf('mutateRow')).toHaveLength(1);
    await mapper.close();
    expect(driver.closed).toBe(false);
  });
});
