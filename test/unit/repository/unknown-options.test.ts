import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { KeyParts } from '../../../src/index.js';
import { ValidationError } from '../../../src/errors/index.js';
import { BigtableMapper } from '../../../src/repository/mapper.js';
import type { Repository } from '../../../src/repository/repository.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'counters' })
@Family('c')
class Counter {
  declare [KeyParts]?: 'id';
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'c', type: 'int' }) hits?: number;
}

const key = { id: 'a' };
const OPERATION = 'signal, timeoutMs, attemptTimeoutMs, idleTimeoutMs, appProfileId';

function repository(): { repo: Repository<Counter>; driver: FakeDriver } {
  const driver = new FakeDriver();
  return { repo: new BigtableMapper({ driver, entities: [Counter] }).getRepository(Counter), driver };
}

/** Runs `call` with a mistyped option (cast past the types, as JavaScript or `any` input would). */
async function failure(call: (repo: Repository<Counter>, bad: never) => unknown, bad: object): Promise<unknown> {
  const { repo, driver } = repository();
  await repo.save(repo.create({ id: 'a', hits: 1 }));
  const sent = driver.calls.length;
  try {
    const result = call(repo, bad as never);
    if (result instanceof Promise) await result;
    else if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result)
      for await (const _ of result as AsyncIterable<unknown>) break;
    else if (result !== null && typeof result === 'object' && 'subscribe' in result)
      await firstValueFrom(result as Parameters<typeof firstValueFrom>[0]);
  } catch (err) {
    expect(driver.calls.length, 'nothing is sent').toBe(sent);
    return err;
  }
  throw new Error('expected the call to fail');
}

describe('unknown option names are ValidationErrors naming the option and the closest valid one', () => {
  const cases: [string, (repo: Repository<Counter>, bad: never) => unknown, object, string, string][] = [
    ['iterate', (r, o) => r.iterate(o), { limt: 3 }, 'Counter.scan', 'limit'],
    ['scan', (r, o) => r.scan(o), { wehre: {} }, 'Counter.scan', 'where'],
    ['page', (r, o) => r.page({ limit: 2, ...(o as object) }), { cusor: 'x' }, 'Counter.page', 'cursor'],
    ['planScan', (r, o) => r.planScan(o), { ordr: 'none' }, 'Counter.planScan', 'order'],
    ['findOne', (r, o) => r.findOne(key, o), { selct: ['hits'] }, 'Counter.findOne', 'select'],
    ['findOneOrFail', (r, o) => r.findOneOrFail(key, o), { version: 1 }, 'Counter.findOneOrFail', 'versions'],
    ['findMany', (r, o) => r.findMany([key], o), { timeoutMS: 5 }, 'Counter.findMany', 'timeoutMs'],
    ['save', (r, o) => r.save(r.create({ id: 'b', hits: 1 }), o), { timeout: 5 }, 'Counter.save', 'timeoutMs'],
    ['replace', (r, o) => r.replace(r.create({ id: 'b', hits: 1 }), o), { sigal: 1 }, 'Counter.replace', 'signal'],
    [
      'saveMany',
      (r, o) => r.saveMany([r.create({ id: 'b', hits: 1 })], o),
      { batchsize: 1 },
      'Counter.saveMany',
      'batchSize',
    ],
    ['deleteMany', (r, o) => r.deleteMany([key], o), { concurency: 1 }, 'Counter.deleteMany', 'concurrency'],
    ['update', (r, o) => r.update(key, { hits: 2 }, o), { idleTimeoutMS: 5 }, 'Counter.update', 'idleTimeoutMs'],
    ['delete', (r, o) => r.delete(key, o), { attemptTimeout: 5 }, 'Counter.delete', 'attemptTimeoutMs'],
    ['increment', (r, o) => r.increment(key, 'hits', 1, o), { timeoutMs: 5, sginal: 1 }, 'Counter.increment', 'signal'],
    [
      'saveIf',
      (r, o) => r.saveIf(r.create({ id: 'b', hits: 1 }), { column: 'hits', equals: 1 }, o),
      { timeOutMs: 5 },
      'Counter.saveIf',
      'timeoutMs',
    ],
    [
      'propagate',
      (r, o) => r.propagate(new Counter(), o),
      { allowFullscan: true },
      'Counter.propagate',
      'allowFullScan',
    ],
    [
      'compileSave',
      (r, o) => r.compileSave(r.create({ id: 'b', hits: 1 }), o),
      { nwo: 1 },
      'Counter.compileSave',
      'now',
    ],
  ];

  it.each(cases)('%s', async (_name, call, bad, operation, suggestion) => {
    const err = await failure(call, bad);
    expect(err).toBeInstanceOf(ValidationError);
    const [option] = Object.keys(bad).filter((k) => k !== 'timeoutMs' && k !== 'limit');
    expect((err as ValidationError).message).toContain(
      `${operation}: unknown option "${option}". Did you mean "${suggestion}"? Fix: rename it to "${suggestion}"`,
    );
  });

  it('a scan query accepts the union of its query, read and operation options', async () => {
    const { repo } = repository();
    const all = {
      where: { id: 'a' },
      limit: 1,
      order: 'key',
      cursor: undefined,
      select: ['hits'],
      versions: 1,
    } as const;
    const timing = {
      signal: new AbortController().signal,
      timeoutMs: 1_000,
      attemptTimeoutMs: 500,
      idleTimeoutMs: 500,
    };
    for await (const _ of repo.iterate({ ...all, ...timing, concurrency: 2 })) break;
    await repo.page({ ...all, ...timing });
    await repo.findOne(key, { select: ['hits'], versions: 1, ...timing });
    await repo.saveMany([repo.create({ id: 'c', hits: 1 })], {
      batchSize: 1,
      concurrency: 1,
      batchBytes: 1_000,
      ...timing,
    });
  });

  it('lists every valid option when nothing is close', async () => {
    const err = await failure((r, o) => r.delete(key, o), { retries: 3 });
    expect((err as Error).message).toBe(
      `Counter.delete: unknown option "retries". Fix: remove it (options: ${OPERATION})`,
    );
  });

  it('an inherited or non-enumerable property is not an option', async () => {
    const { repo } = repository();
    const inherited = Object.create({ limt: 3 }) as { limit?: number };
    inherited.limit = 1;
    for await (const _ of repo.iterate(inherited)) break;
    const hidden = Object.defineProperty({ limit: 1 }, 'limt', { value: 3, enumerable: false });
    for await (const _ of repo.iterate(hidden)) break;
  });
});

describe('mapper options', () => {
  it('new BigtableMapper rejects an unknown option and suggests the closest', () => {
    expect(() => new BigtableMapper({ driver: new FakeDriver(), entites: [Counter] } as never)).toThrow(
      'BigtableMapper: unknown option "entites". Did you mean "entities"? Fix: rename it to "entities"',
    );
    expect(() => new BigtableMapper({ emulatorHost: '127.0.0.1:8086', instanceId: 'dev' } as never)).toThrow(
      /unknown option "instanceId"\. Did you mean "instance"\?/,
    );
    expect(() => new BigtableMapper({ driver: new FakeDriver(), timeout: {} } as never)).toThrow(ValidationError);
  });

  it('accepts every documented option', async () => {
    const mapper = new BigtableMapper({
      driver: new FakeDriver(),
      entities: [Counter],
      timeouts: { read: { totalMs: 1_000 } },
    });
    await mapper.close();
  });

  it('mapper.sync and mapper.propagate reject an unknown option before sending anything', async () => {
    const driver = new FakeDriver();
    const mapper = new BigtableMapper({ driver, entities: [Counter] });
    await expect(mapper.sync({ dryrun: true } as never)).rejects.toThrow(
      'BigtableMapper.sync: unknown option "dryrun". Did you mean "dryRun"?',
    );
    await expect(mapper.propagate(new Counter(), { batchsize: 10 } as never)).rejects.toThrow(
      'BigtableMapper.propagate: unknown option "batchsize". Did you mean "batchSize"?',
    );
    expect(driver.calls).toEqual([]);
    await expect(mapper.sync({ dryRun: true, allowDropFamilies: false, timeoutMs: 1_000 })).resolves.toMatchObject({
      applied: false,
    });
    await mapper.close();
  });
});
