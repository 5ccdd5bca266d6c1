import { describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  CellTimestamp,
  Column,
  DriverError,
  Entity,
  Family,
  KeyPart,
  WriteOutcomeUnknownError,
} from '../../../src/index.js';
import { GrpcCode, InMemoryBigtable } from '../../../src/testing/index.js';

@Entity({ table: 'latency' })
@Family('lo', { aggregate: 'min' })
@Family('hi', { aggregate: 'max' })
@Family('n', { aggregate: 'sum' })
@Family('u', { aggregate: 'hll' })
class Latency {
  @KeyPart(0, { type: 'string' }) route!: string;
  @Column({ family: 'lo', type: 'int' }) fastest?: number | bigint;
  @Column({ family: 'hi', type: 'bigint' }) slowest?: bigint;
  @Column({ family: 'n', type: 'int' }) calls?: number | bigint;
  @Column({ family: 'u', type: 'bytes' }) clients?: Buffer;
}

async function open(): Promise<{ mapper: BigtableMapper; bigtable: InMemoryBigtable }> {
  const bigtable = new InMemoryBigtable({ recordCalls: true });
  const mapper = new BigtableMapper({ driver: bigtable, entities: [Latency] });
  await mapper.sync();
  return { mapper, bigtable };
}

describe('aggregates in the in-memory Bigtable', () => {
  it('sync creates the aggregate families; min and max keep the smallest and largest input, sum wraps at int64 like Bigtable', async () => {
    const { mapper, bigtable } = await open();
    expect((await bigtable.getFamilies({ table: 'latency' }))?.map((f) => f.aggregate)).toEqual([
      'max',
      'min',
      'sum',
      'hll',
    ]);
    const repo = mapper.getRepository(Latency);
    for (const ms of [30, 10, 20]) await repo.add({ route: '/' }, { fastest: ms, slowest: BigInt(ms), calls: 1 });
    await repo.add({ route: '/' }, { calls: 2n ** 63n - 1n });
    expect(await repo.findOne({ route: '/' })).toMatchObject({ fastest: 10, slowest: 30n, calls: -(2n ** 63n) + 2n });
    expect((await mapper.sync({ dryRun: true })).changes).toEqual([]);
    await mapper.close();
  });

  it('increment() refuses an aggregate column before sending anything, pointing to add()', async () => {
    const { mapper } = await open();
    await expect(mapper.getRepository(Latency).increment({ route: '/' }, 'calls', 2)).rejects.toThrow(
      /Latency\.calls: is a column of the 'sum' aggregate family 'n', which ReadModifyWrite cannot increment\. Fix: add to it with repo\.add\(key, \{ calls: 2 \}\)/,
    );
    await mapper.close();
  });

  it('refuses hll inputs with UNIMPLEMENTED (test sketches on the emulator), a server answer, not an unknown outcome', async () => {
    const { mapper } = await open();
    const err = await mapper
      .getRepository(Latency)
      .add({ route: '/' }, { clients: 7 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverError);
    expect(err).not.toBeInstanceOf(WriteOutcomeUnknownError);
    expect((err as DriverError).grpcCode).toBe(GrpcCode.Unimplemented);
    expect((err as Error).message).toMatch(/does not implement HyperLogLog/);
    await mapper.close();
  });

  it('an injected UNAVAILABLE on an add is an unknown outcome; the write was recorded as not idempotent', async () => {
    const { mapper, bigtable } = await open();
    bigtable.failNext('mutateRow', GrpcCode.Unavailable);
    const err = await mapper
      .getRepository(Latency)
      .add({ route: '/' }, { calls: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    const [call] = bigtable.callsOf('mutateRow');
    expect(call?.mutation.idempotent).toBe(false);
    expect(call?.mutation.mutations).toEqual([
      { kind: 'addToCell', family: 'n', qualifier: 'calls', timestampMicros: 0, input: 1n },
    ]);
    await mapper.close();
  });

  it('aggregate cells, at timestamp 0, do not count toward @CellTimestamp', async () => {
    @Entity({ table: 'timed' })
    @Family('n', { aggregate: 'sum' })
    @Family('p')
    class Timed {
      @KeyPart(0, { type: 'string' }) id!: string;
      @Column({ family: 'n', type: 'int' }) hits?: number | bigint;
      @Column({ family: 'p', type: 'string' }) note?: string;
      @CellTimestamp() at?: Date;
    }
    const mapper = new BigtableMapper({ driver: new InMemoryBigtable(), entities: [Timed], clock: () => 5_000 });
    await mapper.sync();
    const repo = mapper.getRepository(Timed);
    await repo.add({ id: 'a' }, { hits: 1 });
    const first = await repo.findOne({ id: 'a' });
    expect(first?.hits).toBe(1);
    expect(first?.at).toBeUndefined();
    await repo.add({ id: 'a' }, { hits: 1 }, { changes: { note: 'n' } });
    expect((await repo.findOne({ id: 'a' }))?.at).toEqual(new Date(5_000));
    await mapper.close();
  });
});
