import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BigtableMapper, PartialWriteError, type Repository } from '../../../../src/index.js';
import { GrpcCode, InMemoryBigtable } from '../../../../src/testing/index.js';
import { Customer, Order } from './shop.entities.js';

const day = (n: number): Date => new Date(Date.UTC(2026, 0, n));

describe('orders on an in-memory Bigtable', () => {
  let bigtable: InMemoryBigtable;
  let mapper: BigtableMapper;
  let customers: Repository<Customer>;
  let orders: Repository<Order>;

  beforeEach(async () => {
    bigtable = new InMemoryBigtable(); // a new, empty instance for every test
    mapper = new BigtableMapper({ driver: bigtable, entities: [Customer, Order] });
    await mapper.sync(); // creates the tables, families and GC rules, in memory
    customers = mapper.getRepository(Customer);
    orders = mapper.getRepository(Order);
    await customers.save({ customerId: 'c1', name: 'Ada' });
  });

  afterEach(() => mapper.close());

  it('pages through a salted table, newest first', async () => {
    for (let n = 1; n <= 5; n += 1) await orders.save({ customerId: 'c1', placedAt: day(n), total: n * 10 });
    await customers.save({ customerId: 'c2', name: 'Grace' });
    await orders.save({ customerId: 'c2', placedAt: day(3), total: 7 });

    const query = { where: { customerId: 'c1' }, order: 'key-desc', limit: 2 } as const;
    const first = await orders.page(query);
    expect(first.items.map((o) => o.total)).toEqual([50, 40]);
    const second = await orders.page({ ...query, cursor: first.cursor });
    expect(second.items.map((o) => o.total)).toEqual([30, 20]);
    expect(orders.planScan(query).sources).toHaveLength(4); // one range per salt bucket, merged by key
  });

  it('copies the customer name into each order, and propagates a rename', async () => {
    const key = { customerId: 'c1', placedAt: day(1) };
    await orders.save({ ...key, total: 10 });
    expect((await orders.findOne(key))?.customerName).toBe('Ada');

    const renamed = customers.create({ customerId: 'c1', name: 'Ada Lovelace' });
    await customers.save(renamed);
    await mapper.propagate(renamed);
    expect((await orders.findOne(key))?.customerName).toBe('Ada Lovelace');
  });

  it('ships an order only while it is pending (a conditional write)', async () => {
    const order = { customerId: 'c1', placedAt: day(1), total: 10, status: 'pending' };
    await orders.save(order);
    const pending = { column: 'status', equals: 'pending' } as const;
    expect(await orders.saveIf({ ...order, status: 'shipped' }, pending)).toBe(true);
    expect(await orders.saveIf({ ...order, status: 'cancelled' }, pending)).toBe(false);
    expect((await orders.findOne(order))?.status).toBe('shipped');
  });

  it('counts orders with an atomic increment', async () => {
    expect(await customers.increment({ customerId: 'c1' }, 'orderCount', 1)).toBe(1);
    expect(await customers.increment({ customerId: 'c1' }, 'orderCount', 2)).toBe(3);
    expect((await customers.findOne({ customerId: 'c1' }))?.orderCount).toBe(3);
  });

  it('hides versions GC has condemned, and drops them when garbage is collected', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // two saves, one second apart
    try {
      const key = { customerId: 'c1', placedAt: day(1) };
      vi.setSystemTime(day(2));
      await orders.save({ ...key, status: 'pending' });
      vi.setSystemTime(day(2).getTime() + 1_000);
      await orders.save({ ...key, status: 'shipped' });

      const { rowKey } = orders.compileSave({ ...key, status: 'shipped' }); // the physical key, salt included
      expect(bigtable.row('orders', rowKey)?.cells.o?.status).toHaveLength(2); // Bigtable collects later
      expect((await orders.findOne(key))?.status).toBe('shipped'); // reads apply maxVersions: 1 already
      bigtable.collectGarbage();
      expect(bigtable.row('orders', rowKey)?.cells.o?.status).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a test make Bigtable fail', async () => {
    bigtable.failNext('mutateRow', GrpcCode.Unavailable);
    await expect(orders.save({ customerId: 'c1', placedAt: day(1), total: 1 })).rejects.toMatchObject({
      grpcCode: GrpcCode.Unavailable,
    });

    const bad = { customerId: 'c1', placedAt: day(2), total: 2 };
    bigtable.reject(orders.compileSave(bad).rowKey, GrpcCode.PermissionDenied);
    const saving = orders.saveMany([{ customerId: 'c1', placedAt: day(3), total: 3 }, bad]);
    await expect(saving).rejects.toBeInstanceOf(PartialWriteError);
    expect((await orders.page({ limit: 10 })).items.map((o) => o.total)).toEqual([3]);
  });
});
