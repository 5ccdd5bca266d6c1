import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, ValidationError } from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'moving' })
@Salt({ buckets: 8, previous: { buckets: 2 } })
@Family('e')
class Moving {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'e', type: 'int' }) n?: number;
}

@Entity({ table: 'settled' })
@Salt({ buckets: 8 })
@Family('e')
class Settled {
  @KeyPart(0, { type: 'string' }) id!: string;
}

const mapper = () => new BigtableMapper({ driver: new FakeDriver(), entities: [Moving, Settled] });

describe('mapper.resalt() input checks', () => {
  it('needs a previous layout', async () => {
    await expect(mapper().resalt(Settled)).rejects.toThrow(/resalt needs the previous layout declared/);
  });

  it.each([0, 1.5, 10_001, '10'])('rejects batchSize %j', async (batchSize) => {
    await expect(mapper().resalt(Moving, { batchSize: batchSize as number })).rejects.toThrow(ValidationError);
  });

  it('rejects an unknown option, naming the closest one', async () => {
    await expect(mapper().resalt(Moving, { batchsize: 5 } as object)).rejects.toThrow(/batchSize/);
  });

  it.each([
    ['not an object', 'x'],
    ['a value that is not base64url', { '00#': 'a+b/' }],
    [
      "a key outside its bucket (it would skip the bucket's rows)",
      { '00#': Buffer.from('01#a').toString('base64url') },
    ],
  ])('rejects a resumeFrom that is %s', async (_, resumeFrom) => {
    await expect(mapper().resalt(Moving, { resumeFrom: resumeFrom as never })).rejects.toThrow(/resumeFrom/);
  });

  it('accepts its own checkpoint, and an empty table has nothing to move', async () => {
    const result = await mapper().resalt(Moving, { resumeFrom: { '00#': Buffer.from('00#a').toString('base64url') } });
    expect(result).toMatchObject({ seen: 0, remaining: 0, ranges: 2, rangesDone: 2 });
  });

  it.each([
    { index: 2, count: 2 },
    { index: -1, count: 2 },
    { index: 0, count: 0 },
    { index: 0, count: 10_001 },
    { index: 0.5, count: 2 },
    'x',
  ])('rejects shard %j', async (shard) => {
    await expect(mapper().resalt(Moving, { shard: shard as never })).rejects.toThrow(
      /resalt shard must be \{ index, count \}/,
    );
  });

  it('moves only the ranges of its shard: 2 old buckets over 3 shards', async () => {
    const ranges = await Promise.all(
      [0, 1, 2].map(async (index) =>
        (await mapper().resalt(Moving, { shard: { index, count: 3 } })).buckets.map((b) => b.segment),
      ),
    );
    expect(ranges).toEqual([['00#'], ['01#'], []]);
  });
});
