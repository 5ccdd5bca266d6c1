import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  Entity,
  Family,
  KeyPart,
  Salt,
  ValidationError,
  type Repository,
  type Versioned,
} from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('time-travel');

@Entity({ table })
@Salt({ buckets: 4 })
@Family('d')
@Family('h')
class Price {
  @KeyPart(0, { type: 'string' }) sku!: string;
  @Column({ family: 'd', type: 'float' }) amount?: number;
  @Column({ family: 'd', type: 'string' }) currency?: string;
  @Column({ family: 'h', type: 'string', versions: 3 }) notes?: Versioned<string>;
}

/** The mapper's clock, moved by the test: every non-versioned cell is written at its time. */
let now = 0;
const T1 = Date.UTC(2026, 0, 1);
const T2 = Date.UTC(2026, 0, 2);
const T3 = Date.UTC(2026, 0, 3);
let mapper: BigtableMapper;
let prices: Repository<Price>;

async function saveAt(ms: number, price: Partial<Price>): Promise<void> {
  now = ms;
  await prices.save(Object.assign(new Price(), price));
}

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const row of rows) found.push(row);
  return found;
}

beforeAll(async () => {
  mapper = new BigtableMapper({
    emulatorHost: emulatorHost(),
    instance: testInstanceId,
    entities: [Price],
    clock: () => now,
  });
  await mapper.sync();
  prices = mapper.getRepository(Price);
  // sku a: created at T1, repriced at T2 and T3; notes written with their own timestamps.
  await saveAt(T1, {
    sku: 'a',
    amount: 10,
    currency: 'EUR',
    notes: [
      { value: 'listed', timestamp: new Date(T1) },
      { value: 'promo', timestamp: new Date(T2) },
      { value: 'ended', timestamp: new Date(T3) },
    ],
  });
  await saveAt(T2, { sku: 'a', amount: 12 });
  await saveAt(T3, { sku: 'a', amount: 15 });
  // sku b exists only from T3 on; sku c only at T2.
  await saveAt(T3, { sku: 'b', amount: 99, currency: 'USD' });
  await saveAt(T2, { sku: 'c', amount: 5, currency: 'EUR' });
  now = T3 + 1_000;
});

afterAll(async () => {
  await mapper.driver.deleteTable({ table }).catch(() => undefined);
  await mapper.close();
});

describe('time-travel reads on the emulator, with explicit cell timestamps', () => {
  it('findOne asOf returns each column as it was, to the millisecond; before the row existed, nothing', async () => {
    expect((await prices.findOne({ sku: 'a' }))?.amount).toBe(15);
    const atT2 = await prices.findOne({ sku: 'a' }, { asOf: new Date(T2) });
    expect(atT2).toMatchObject({ sku: 'a', amount: 12, currency: 'EUR' });
    expect(atT2?.notes?.map((n) => n.value)).toEqual(['promo', 'listed']);
    expect((await prices.findOne({ sku: 'a' }, { asOf: new Date(T2 - 1) }))?.amount).toBe(10);
    expect((await prices.findOne({ sku: 'a' }, { asOf: new Date(T3 - 1) }))?.amount).toBe(12);
    expect(await prices.findOne({ sku: 'a' }, { asOf: new Date(T1 - 1) })).toBeUndefined();
    expect(await prices.findOne({ sku: 'b' }, { asOf: new Date(T2) })).toBeUndefined();
  });

  it('between reads the newest versions inside [from, to) only', async () => {
    const window = { from: new Date(T2), to: new Date(T3) };
    const a = await prices.findOne({ sku: 'a' }, { between: window });
    // currency was written at T1 only: outside the window.
    expect(a).toMatchObject({ sku: 'a', amount: 12 });
    expect(a?.currency).toBeUndefined();
    expect(a?.notes?.map((n) => n.value)).toEqual(['promo']);
    expect(await prices.findOne({ sku: 'b' }, { between: window })).toBeUndefined();
    const versions = await prices.findOne(
      { sku: 'a' },
      { between: { from: new Date(T1), to: new Date(T3 + 1) }, versions: 2 },
    );
    expect(versions?.notes?.map((n) => n.value)).toEqual(['ended', 'promo']);
  });

  it('findMany, iterate, scan and page take asOf; a page cursor resumes only with the same window', async () => {
    const asOf = new Date(T2);
    const many = await prices.findMany([{ sku: 'a' }, { sku: 'b' }, { sku: 'c' }], { asOf });
    expect(many.map((p) => p?.amount)).toEqual([12, undefined, 5]);
    const iterated = await all(prices.iterate({ asOf }));
    expect(iterated.map((p) => [p.sku, p.amount])).toEqual([
      ['a', 12],
      ['c', 5],
    ]);
    const scanned = await all(prices.iterate({ asOf, select: ['currency'] }));
    expect(scanned.map((p) => [p.sku, p.currency])).toEqual([
      ['a', 'EUR'],
      ['c', 'EUR'],
    ]);
    const first = await prices.page({ asOf, limit: 1 });
    expect(first.items.map((p) => p.sku)).toEqual(['a']);
    const cursor = first.cursor as string;
    const second = await prices.page({ asOf, limit: 1, cursor });
    expect(second.items.map((p) => [p.sku, p.amount])).toEqual([['c', 5]]);
    await expect(prices.page({ limit: 1, cursor })).rejects.toThrow(/this cursor belongs to another query/);
    await expect(prices.page({ asOf: new Date(T3), limit: 1, cursor })).rejects.toThrow(
      /this cursor belongs to another query/,
    );
  });

  it('planScan shows the window as the first step of the filter', () => {
    const windowOf = (filter: unknown): unknown => {
      expect(filter).toMatchObject({ kind: 'chain' });
      const steps = (filter as { filters: unknown[] }).filters;
      expect(steps).toHaveLength(2);
      return steps[0];
    };
    const plan = prices.planScan({ between: { from: new Date(T1), to: new Date(T2) } });
    expect(windowOf(plan.filter)).toEqual({ kind: 'timestampRange', startMicros: T1 * 1000, endMicros: T2 * 1000 });
    const asOf = prices.planScan({ asOf: new Date(T2) });
    expect(windowOf(asOf.filter)).toEqual({
      kind: 'timestampRange',
      startMicros: undefined,
      endMicros: (T2 + 1) * 1000,
    });
    // Without a window the filter is the one after the window.
    const [, inner] = (asOf.filter as unknown as { filters: unknown[] }).filters;
    expect(prices.planScan({}).filter).toEqual(inner);
  });

  it('rejects a bad window before anything is sent, naming the option and the fix', async () => {
    const bad: Record<string, unknown>[] = [
      { asOf: new Date(Number.NaN) },
      { asOf: '2026-01-01' },
      { asOf: T2 },
      { asOf: new Date(-1) },
      { between: { from: new Date(T2), to: new Date(T2) } },
      { between: { from: new Date(T3), to: new Date(T2) } },
      { between: { from: new Date(T1) } },
      { between: { from: new Date(T1), to: new Date(T2), step: 1 } },
      { between: [new Date(T1), new Date(T2)] },
      { asOf: new Date(T2), between: { from: new Date(T1), to: new Date(T2) } },
    ];
    for (const options of bad) {
      await expect(prices.findOne({ sku: 'a' }, options as never)).rejects.toThrow(ValidationError);
      expect(() => prices.planScan(options as never)).toThrow(ValidationError);
    }
    await expect(prices.findOne({ sku: 'a' }, { between: { from: new Date(T3), to: new Date(T2) } })).rejects.toThrow(
      /Price: between.from \(2026-01-03T00:00:00.000Z\) must be before between.to/,
    );
  });
});
