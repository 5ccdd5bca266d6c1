import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  BigtableMapperError,
  Column,
  Entity,
  Family,
  KeyPart,
  range,
  type Repository,
  type ScanQuery,
} from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { propertyRuns } from '../../support/property-runs.js';

@Entity({ table: 'orders' })
@Family('d')
class Order {
  @KeyPart(0, { type: 'string' }) tenantId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @Column({ family: 'd', type: 'string' }) item?: string;
  @Column({ family: 'd', type: 'int' }) qty?: number;
  @Column({ family: 'd', type: 'json' }) meta?: unknown;
}

const schema = compileEntity(Order);
const mapper = new BigtableMapper({ driver: new FakeDriver(), entities: [Order] });
const repo: Repository<Order> = mapper.getRepository(Order);
const KEY = { tenantId: 't1', at: new Date(0) };

afterAll(() => mapper.close());

/** JSON-ish and odd values: what a request body, a bad cast or a confused caller can pass. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withBoxedValues: true,
    withSparseArray: true,
  }),
  fc.json().map((text) => JSON.parse(text) as unknown),
  fc.constantFrom<unknown>(
    null,
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    2 ** 53,
    -1,
    1.5,
    Symbol('s'),
    () => 1,
    new Date(Number.NaN),
    new Date(8.64e15),
    Buffer.from('t1'),
    [],
    ['t1'],
    {},
    JSON.parse('{"__proto__":{"gte":"a"}}'),
    JSON.parse('{"gt":"\\u0000"}'),
    { constructor: 1 },
    Object.create(null),
    'x'.repeat(100_000),
    '\ud800',
    '',
    'desc',
    10n ** 30n,
    range({ gte: 'a' }),
    range({ gte: new Date(1), lt: new Date(0) }),
  ),
);

/** Runs `fn`; anything it throws (or rejects with) must be a BigtableMapperError. */
async function onlyMapperErrors(fn: () => unknown): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof BigtableMapperError))
      throw new Error(`threw ${Object.prototype.toString.call(error)}: ${String((error as Error)?.message ?? error)}`, {
        cause: error,
      });
  }
}

const drain = async (query: unknown): Promise<void> => {
  for await (const row of repo.iterate(query as ScanQuery<Order>)) void row;
};

describe('every bad input raises a BigtableMapperError subclass', () => {
  const targets: Record<string, (x: unknown) => unknown> = {
    'planScan(query)': (x) => planScan(schema, x as ScanQuery<Order>),
    where: (x) => planScan(schema, { where: x } as ScanQuery<Order>),
    'where value': (x) => planScan(schema, { where: { tenantId: x } } as ScanQuery<Order>),
    'where range part': (x) => planScan(schema, { where: { tenantId: 't1', at: x } } as ScanQuery<Order>),
    'range()': (x) => range(x as never),
    select: (x) => planScan(schema, { select: x } as ScanQuery<Order>),
    limit: (x) => planScan(schema, { limit: x } as ScanQuery<Order>),
    order: (x) => planScan(schema, { order: x } as ScanQuery<Order>),
    concurrency: (x) => planScan(schema, { concurrency: x } as ScanQuery<Order>),
    versions: (x) => planScan(schema, { versions: x } as ScanQuery<Order>),
    cursor: (x) => planScan(schema, { cursor: x } as ScanQuery<Order>),
    'findOne key': (x) => repo.findOne(x as typeof KEY),
    'findOne key part': (x) => repo.findOne({ tenantId: x, at: new Date(0) } as typeof KEY),
    'findOne select': (x) => repo.findOne(KEY, { select: x } as never),
    'findMany keys': (x) => repo.findMany(x as (typeof KEY)[]),
    'iterate query': (x) => drain(x),
    'page query': (x) => repo.page(x as ScanQuery<Order> & { limit: number }),
    'compileSave entity': (x) => compileSave(schema, x as Order),
    'compileSave column value': (x) => compileSave(schema, Object.assign(new Order(), { ...KEY, item: x, qty: x })),
    'update partial': (x) => compileUpdate(schema, KEY, x as Partial<Order>),
    'repo.update partial': (x) => repo.update(KEY, x as Partial<Order>),
    'increment amount': (x) => repo.increment(KEY, 'qty', x as number),
    'increment field': (x) => repo.increment(KEY, x as 'qty'),
  };

  it.each(Object.keys(targets))('%s', async (name) => {
    const target = targets[name]!;
    await fc.assert(
      fc.asyncProperty(hostile, (x) => onlyMapperErrors(() => target(x))),
      { numRuns: propertyRuns(150) },
    );
  });

  it('a plain object from JSON.parse is never accepted as a where value', () => {
    expect(() => planScan(schema, { where: JSON.parse('{"tenantId":{"gt":"\\u0000"}}') as never })).toThrow(
      BigtableMapperError,
    );
  });
});
