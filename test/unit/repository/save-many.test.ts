import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { PartialWriteError, ValidationError, ValueEncodingError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { Repository } from '../../../src/repository/repository.js';
import { FakeDriver, GrpcCode } from '../../support/fake-driver.js';

const NOW = 1_700_000_000_000;

@Entity({ table: 'counters' })
@Salt({ buckets: 8 })
@Family('c')
class Counter {
  @KeyPart(0, { type: 'string' }) name!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) n!: number;
  @Column({ family: 'c', type: 'int' }) value?: number;
}

const schema = compileEntity(Counter);
const counter = (n: number, value: number = n): Counter => Object.assign(new Counter(), { name: 'c', n, value });
const keyOf = (n: number): string => compileSave(schema, counter(n), { now: NOW }).rowKeyText;

let driver: FakeDriver;
let repo: Repository<Counter>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  driver = new FakeDriver();
  repo = new Repository(driver, schema);
});

afterEach(() => {
  vi.useRealTimers();
});

async function failure(promise: Promise<unknown>): Promise<PartialWriteError<Counter>> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(PartialWriteError);
    return err as PartialWriteError<Counter>;
  }
  throw new Error('expected a PartialWriteError');
}

describe('saveMany', () => {
  it('sends compileSave’s mutations in MutateRows batches of batchSize', async () => {
    const entities = Array.from({ length: 1234 }, (_, i) => counter(i));
    expect(await repo.saveMany(entities, { batchSize: 500 })).toEqual({ written: 1234 });
    const calls = driver.callsOf('mutateRows');
    expect(calls.map((c) => c.mutations.length).sort((a, b) => a - b)).toEqual([234, 500, 500]);
    expect(calls.every((c) => c.table === 'counters')).toBe(true);
    const sent = calls.flatMap((c) => c.mutations);
    expect(sent.map((m) => m.rowKeyText).sort()).toEqual(entities.map((e) => keyOf(e.n)).sort());
    expect(sent.find((m) => m.rowKeyText === keyOf(7))).toEqual(compileSave(schema, counter(7), { now: NOW }));
    expect(driver.rows('counters')).toHaveLength(1234);
    expect(driver.callsOf('mutateRow')).toEqual([]);
  });

  it('defaults to 500 rows per call and 2 calls in flight', async () => {
    await repo.saveMany(Array.from({ length: 2100 }, (_, i) => counter(i)));
    expect(driver.callsOf('mutateRows').map((c) => c.mutations.length)).toEqual([500, 500, 500, 500, 100]);
    expect(driver.maxInFlight).toBe(2);
  });

  it('bounds the calls in flight by concurrency', async () => {
    await repo.saveMany(
      Array.from({ length: 100 }, (_, i) => counter(i)),
      { batchSize: 10, concurrency: 4 },
    );
    expect(driver.callsOf('mutateRows')).toHaveLength(10);
    expect(driver.maxInFlight).toBe(4);
    driver.clearCalls();
    await repo.saveMany(
      Array.from({ length: 100 }, (_, i) => counter(i)),
      { batchSize: 10, concurrency: 1 },
    );
    expect(driver.maxInFlight).toBe(1);
  });

  it('writes every entity with the same timestamp', async () => {
    await repo.saveMany([counter(1), counter(2)]);
    const cells = driver.callsOf('mutateRows').flatMap((c) => c.mutations.flatMap((m) => m.mutations));
    expect(cells.map((c) => (c.kind === 'setCell' ? c.timestampMicros : undefined))).toEqual([NOW * 1000, NOW * 1000]);
  });

  it('accepts an async iterable and reads it lazily', async () => {
    let produced = 0;
    async function* source(): AsyncGenerator<Counter> {
      for (let i = 0; i < 7; i++) {
        produced += 1;
        yield counter(i);
      }
    }
    expect(await repo.saveMany(source(), { batchSize: 3, concurrency: 1 })).toEqual({ written: 7 });
    expect(produced).toBe(7);
    expect(driver.callsOf('mutateRows').map((c) => c.mutations.map((m) => m.rowKeyText))).toEqual([
      [keyOf(0), keyOf(1), keyOf(2)],
      [keyOf(3), keyOf(4), keyOf(5)],
      [keyOf(6)],
    ]);
  });

  it('sends the same calls and reports the same failures for an array, a generator and an async iterable', async () => {
    const bad = Object.assign(new Counter(), { name: 'c', n: 4, value: 1.5 });
    const input = (): Counter[] =>
      [0, 1, 2, 3]
        .map((n) => counter(n))
        .concat(
          bad,
          [5, 6, 7, 8, 9, 10].map((n) => counter(n)),
        );
    const sources: [string, () => Iterable<Counter> | AsyncIterable<Counter>][] = [
      ['array', input],
      [
        'generator',
        function* (): Generator<Counter> {
          yield* input();
        },
      ],
      [
        'async',
        async function* (): AsyncGenerator<Counter> {
          yield* input();
        },
      ],
    ];
    const outcomes = [];
    for (const [name, source] of sources) {
      driver = new FakeDriver();
      repo = new Repository(driver, schema);
      driver.reject(keyOf(6), GrpcCode.Internal, 'internal error');
      const err = await failure(repo.saveMany(source(), { batchSize: 3, concurrency: 1 }));
      outcomes.push({
        name,
        calls: driver.callsOf('mutateRows').map((c) => c.mutations.map((m) => m.rowKeyText)),
        failures: err.failures.map((f) => [f.index, f.rowKey, f.grpcCode, f.message, (f.entity as Counter).n]),
        succeeded: err.succeeded,
      });
    }
    const [array, ...others] = outcomes;
    expect(array?.calls).toEqual([
      [keyOf(0), keyOf(1), keyOf(2)],
      [keyOf(3), keyOf(5), keyOf(6)],
      [keyOf(7), keyOf(8), keyOf(9)],
      [keyOf(10)],
    ]);
    expect(array?.failures.map((f) => f.slice(0, 3))).toEqual([
      [4, '', undefined],
      [6, keyOf(6), 13],
    ]);
    expect(array?.succeeded).toBe(9);
    for (const other of others) expect({ ...other, name: 'array' }).toEqual(array);
  });

  it('never sends invalid entities, persists the others and reports each failure', async () => {
    driver.reject(keyOf(3), GrpcCode.Internal, 'internal error');
    const bad = Object.assign(new Counter(), { name: 'c', n: 1, value: 1.5 });
    const noKey = Object.assign(new Counter(), { name: 'c', value: 1 });
    const err = await failure(
      repo.saveMany([counter(0), bad, counter(2), counter(3), noKey, counter(5)], { batchSize: 2 }),
    );
    expect(err.succeeded).toBe(3);
    expect(err.failures.map((f) => [f.index, f.rowKey, f.grpcCode])).toEqual([
      [1, '', undefined],
      [3, keyOf(3), 13],
      [4, '', undefined],
    ]);
    expect(err.failures[0]?.entity).toBe(bad);
    expect(err.failures[0]?.cause).toBeInstanceOf(ValueEncodingError);
    expect(err.failures[0]?.message).toMatch(/^Counter\.value: 1\.5 /);
    expect(err.failures[2]?.cause).toBeInstanceOf(ValidationError);
    expect(err.failures[1]?.message).toBe('internal error');
    expect(err.message).toContain('3 of 6 writes failed');
    const sent = driver.callsOf('mutateRows').flatMap((c) => c.mutations.map((m) => m.rowKeyText));
    expect(sent.sort()).toEqual([keyOf(0), keyOf(2), keyOf(3), keyOf(5)].sort());
    expect(
      driver
        .rows('counters')
        .map((r) => r.key.toString())
        .sort(),
    ).toEqual([keyOf(0), keyOf(2), keyOf(5)].sort());
  });

  it('reports every entity of a call that failed as a whole, with its gRPC code', async () => {
    driver.failNext('mutateRows', Object.assign(new Error('unavailable'), { code: GrpcCode.Unavailable }));
    const err = await failure(
      repo.saveMany(
        [0, 1, 2, 3, 4].map((n) => counter(n)),
        { batchSize: 2, concurrency: 1 },
      ),
    );
    expect(err.succeeded).toBe(3);
    expect(err.failures.map((f) => [f.index, f.rowKey, f.grpcCode, f.message])).toEqual([
      [0, keyOf(0), 14, 'unavailable'],
      [1, keyOf(1), 14, 'unavailable'],
    ]);
    expect(driver.rows('counters')).toHaveLength(3);
  });

  it('splits oversized batches at the 100,000-mutation cap', async () => {
    // 50,001 versions in one row: two such rows cannot share a request
    @Entity({ table: 'wide' })
    @Family('v')
    class Wide {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'v', type: 'int', versions: 50_001 }) values?: { value: number; timestamp?: Date }[];
    }
    const versions = Array.from({ length: 50_001 }, (_, i) => ({ value: i })); // each version at `now`
    const wide = new Repository(driver, compileEntity(Wide));
    await wide.saveMany(
      ['a', 'b'].map((id) => Object.assign(new Wide(), { id, values: versions })),
      { concurrency: 1 },
    );
    expect(driver.callsOf('mutateRows').map((c) => c.mutations.map((m) => m.mutations.length))).toEqual([
      [50_001],
      [50_001],
    ]);
  });

  it('validates batchSize, batchBytes and concurrency to sane ranges, naming the option', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ batchSize: 0 }, 'batchSize'],
      [{ batchSize: 100_001 }, 'batchSize'],
      [{ batchSize: '10' }, 'batchSize'],
      [{ concurrency: 1.5 }, 'concurrency'],
      [{ concurrency: 1e7 }, 'concurrency'],
      [{ concurrency: 65 }, 'concurrency'],
      [{ concurrency: 0 }, 'concurrency'],
      [{ batchBytes: 0 }, 'batchBytes'],
      [{ batchBytes: 256 * 1024 * 1024 + 1 }, 'batchBytes'],
      [{ batchBytes: Number.NaN }, 'batchBytes'],
      [{ batchsize: 10 }, 'batchsize'],
      [{ concurency: 2 }, 'concurency'],
    ];
    for (const [options, name] of bad) {
      const err = await repo.saveMany([counter(1)], options as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).message).toContain(name);
      expect((err as ValidationError).details['option']).toBe(name);
      expect((err as ValidationError).message).toContain('Fix:');
    }
    await expect(repo.deleteMany([{ name: 'c', n: 1 }], { concurrency: 1e7 })).rejects.toBeInstanceOf(ValidationError);
    expect(driver.calls).toEqual([]);
    expect(
      await repo.saveMany([counter(1)], { batchSize: 100_000, concurrency: 64, batchBytes: 256 * 1024 * 1024 }),
    ).toEqual({ written: 1 });
    expect(await repo.saveMany([counter(1)], { batchSize: 1, concurrency: 1, batchBytes: 1 })).toEqual({ written: 1 });
  });

  it('closes batches at batchBytes', async () => {
    await repo.saveMany(
      Array.from({ length: 10 }, (_, i) => counter(i)),
      { batchBytes: 150, concurrency: 1 },
    );
    const sizes = driver.callsOf('mutateRows').map((c) => c.mutations.length);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThan(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('rejects null, undefined and non-iterable input with a ValidationError, sending nothing', async () => {
    for (const input of [null, undefined, 42, { length: 2 }, 'abc']) {
      await expect(repo.saveMany(input as never), String(input)).rejects.toBeInstanceOf(ValidationError);
      await expect(repo.deleteMany(input as never), String(input)).rejects.toBeInstanceOf(ValidationError);
    }
    const err = (await repo.saveMany(null as never).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^Counter: .*null.*Fix:/);
    expect(driver.calls).toEqual([]);
  });

  it('resolves { written: 0 } for an empty input without calling the driver', async () => {
    expect(await repo.saveMany([])).toEqual({ written: 0 });
    expect(driver.calls).toEqual([]);
  });
});

describe('deleteMany', () => {
  it('sends deleteFromRow mutations in bulk', async () => {
    await repo.saveMany([1, 2, 3].map((n) => counter(n)));
    driver.clearCalls();
    expect(
      await repo.deleteMany([
        { name: 'c', n: 1 },
        { name: 'c', n: 3 },
      ]),
    ).toEqual({ written: 2 });
    const [call] = driver.callsOf('mutateRows');
    expect(call?.mutations.map((m) => [m.rowKeyText, m.mutations])).toEqual([
      [keyOf(1), [{ kind: 'deleteFromRow' }]],
      [keyOf(3), [{ kind: 'deleteFromRow' }]],
    ]);
    expect(driver.rows('counters').map((r) => r.key.toString())).toEqual([keyOf(2)]);
  });
});
