import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BigtableMapper } from '../../../src/index.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';
import { shopEntities } from '../../fixtures/shop-entities.js';
import { uniqueTableId } from '../../support/emulator.js';

const table = uniqueTableId('collection-shop');
const E = shopEntities(table, { buckets: 4, on: ['customerId'] });
let mapper: BigtableMapper;

beforeAll(async () => {
  mapper = openMapper([]);
  mapper.collection('customerAggregate', { customer: E.Customer, orders: [E.Order], addresses: [E.Address] });
  const { changes } = await mapper.sync();
  expect(changes.map((c) => c.description)).toEqual([expect.stringContaining(`create table "${table}"`)]);
  expect(await mapper.driver.getFamilies({ table }).then((fs) => fs?.map((f) => f.name))).toEqual(['a', 'c', 'o']);
});

afterAll(() => closeMapper(mapper, [table]));

describe('a salted three-kind collection on the emulator', () => {
  it('writes an aggregate per entity and reads it back in one scan, typed, in key order, apart from c10', async () => {
    const aggregate = mapper.collection('customerAggregate', {
      customer: E.Customer,
      orders: [E.Order],
      addresses: [E.Address],
    });
    const customers = mapper.getRepository(E.Customer);
    const orders = mapper.getRepository(E.Order);
    const addresses = mapper.getRepository(E.Address);
    for (const customerId of ['c1', 'c10']) await customers.save({ customerId, name: `Name ${customerId}` });
    await orders.saveMany([2, 1, 3].map((orderId) => ({ customerId: 'c1', orderId, total: orderId * 1.5 })));
    await orders.save({ customerId: 'c10', orderId: 9, total: 9 });
    await addresses.save({ customerId: 'c1', label: 'home', city: 'Paris' });

    const plan = aggregate.planScan({ customerId: 'c1' });
    expect(plan.sources).toHaveLength(1);

    const read = await aggregate.read({ customerId: 'c1' });
    expect(read.customer).toBeInstanceOf(E.Customer);
    expect(read.customer?.name).toBe('Name c1');
    expect(read.orders.map((o) => [o.orderId, o.total, o.customerName])).toEqual([
      [1, 1.5, 'Name c1'],
      [2, 3, 'Name c1'],
      [3, 4.5, 'Name c1'],
    ]);
    expect(read.addresses.map((a) => a.city)).toEqual(['Paris']);
    expect(read.unknownRows).toEqual({ count: 0, rowKeys: [] });

    const kinds: string[] = [];
    for await (const item of aggregate.iterate({ customerId: 'c1' }, { order: 'key-desc', limit: { orders: 2 } }))
      kinds.push(item.kind ?? 'unknown');
    expect(kinds).toEqual(['orders', 'orders', 'customer', 'addresses']);
  });
});
