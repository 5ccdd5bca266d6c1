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
});
