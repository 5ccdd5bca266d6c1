import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  ValidationError,
  type BigtableMapper,
  type Repository,
} from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('counters');
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

@Entity({ table })
@Family('c')
class Counter {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'c', type: 'int' }) hits?: number;
  @Column({ family: 'c', type: 'bigint' }) total?: bigint;
  @Column({ family: 'c', type: 'string' }) label?: string;
}

let mapper: BigtableMapper;
let counters: Repository<Counter>;

beforeAll(async () => {
  mapper = openMapper([Counter]);
  await mapper.sync();
  counters = mapper.getRepository(Counter);
  await counters.saveMany(['a', 'b', 'c'].map((id) => Object.assign(new Counter(), { id, hits: 1, label: id })));
});

afterAll(() => closeMapper(mapper, [table]));

describe('counters past 2^53', () => {
  it('increment of an int column past 2^53 resolves with the exact value the server stored (never rejects after applying)', async () => {
    expect(await counters.increment({ id: 'b' }, 'hits', MAX_SAFE - 1)).toBe(MAX_SAFE);
    const past = await counters.increment({ id: 'b' }, 'hits', 5);
    expect(past).toBe(2n ** 53n + 4n);
  });

  it('a row holding an out-of-range int never makes reads of other rows fail; that row reads the exact value as a bigint', async () => {
    const rows = await lastValueFrom(counters.scan({}).pipe(toArray()));
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(rows.map((r) => r.hits)).toEqual([1, 2n ** 53n + 4n, 1]);
    expect((await counters.findOne({ id: 'a' }))!.hits).toBe(1);
    expect((await counters.findOne({ id: 'b' }))!.hits).toBe(2n ** 53n + 4n);
    const page = await counters.page({ limit: 2 });
    expect(page.items.map((r) => r.id)).toEqual(['a', 'b']);
    expect((await counters.findMany([{ id: 'c' }, { id: 'b' }])).map((r) => r?.label)).toEqual(['c', 'b']);
  });

  it('bigint columns are counters too, with exact bigint results', async () => {
    expect(await counters.increment({ id: 'c' }, 'total', 2n ** 60n)).toBe(2n ** 60n);
    expect(await counters.increment({ id: 'c' }, 'total', 1)).toBe(2n ** 60n + 1n);
    expect((await counters.findOne({ id: 'c' }))!.total).toBe(2n ** 60n + 1n);
  });

  it('rejects before sending: non-counter columns, fractional, unsafe or out-of-int64 amounts', async () => {
    // @ts-expect-error label is a string property: not a counter (checked at run time too)
    await expect(counters.increment({ id: 'a' }, 'label')).rejects.toBeInstanceOf(ValidationError);
    await expect(counters.increment({ id: 'a' }, 'hits', 0.5)).rejects.toBeInstanceOf(ValidationError);
    await expect(counters.increment({ id: 'a' }, 'hits', 2 ** 60)).rejects.toBeInstanceOf(ValidationError);
    await expect(counters.increment({ id: 'a' }, 'total', 2n ** 63n)).rejects.toBeInstanceOf(ValidationError);
    await expect(counters.increment({ id: 'a' }, 'hits', '1' as unknown as number)).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect((await counters.findOne({ id: 'a' }))!.hits).toBe(1);
  });
});
