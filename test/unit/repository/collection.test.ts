import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  Entity,
  Family,
  KeyPart,
  OperationAbortedError,
  ValidationError,
  type SaltOptions,
} from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { shopEntities } from '../../fixtures/shop-entities.js';

const SALT: SaltOptions = { buckets: 4, on: ['customerId'] };

/** A mapper on an in-memory Bigtable, the shop's repositories and its collection. */
function openShop(salt?: SaltOptions) {
  const E = shopEntities(salt === undefined ? 'shop' : 'shop-salted', salt);
  const driver = new FakeDriver();
  const mapper = new BigtableMapper({ driver });
  return {
    E,
    driver,
    mapper,
    customers: mapper.getRepository(E.Customer),
    orders: mapper.getRepository(E.Order),
    addresses: mapper.getRepository(E.Address),
    aggregate: mapper.collection('customerAggregate', {
      customer: E.Customer,
      orders: [E.Order],
      addresses: [E.Address],
    }),
  };
}

type Shop = ReturnType<typeof openShop>;

/** Customers c1, c10 and c2; c1 with orders 1, 2, 3 and two addresses, c10 with one order, c2 with nothing else. */
async function seed(shop: Shop): Promise<void> {
  for (const id of ['c1', 'c10', 'c2'])
    await shop.customers.save({ customerId: id, name: `Name ${id}`, email: `${id}@x` });
  for (const orderId of [3, 1, 2])
    await shop.orders.save({ customerId: 'c1', orderId, total: orderId * 10, status: orderId === 2 ? 'open' : 'paid' });
  await shop.orders.save({ customerId: 'c10', orderId: 7, total: 70, status: 'paid' });
  await shop.addresses.save({ customerId: 'c1', label: 'work', city: 'Lyon' });
  await shop.addresses.save({ customerId: 'c1', label: 'home', city: 'Paris' });
}

/** Every item of `c1` as `kind:id` text, in scan order. */
async function kindsOf(items: AsyncIterable<{ kind: string | undefined }>): Promise<string[]> {
  const seen: string[] = [];
  for await (const item of items) {
    const entity = 'entity' in item ? (item.entity as Record<string, unknown>) : {};
    seen.push(`${item.kind}:${String(entity['orderId'] ?? entity['label'] ?? entity['customerId'] ?? '')}`);
  }
  return seen;
}

describe.each([
  ['unsalted', undefined],
  ['salted', SALT],
])('a %s collection', (_, salt) => {
  it('reads a whole aggregate with one ReadRows, each member typed and in key order', async () => {
    const shop = openShop(salt);
    await seed(shop);
    shop.driver.clearCalls();
    const { customer, orders, addresses, unknownRows } = await shop.aggregate.read({ customerId: 'c1' });
    expect(shop.driver.callsOf('readRows')).toHaveLength(1);
    expect(shop.driver.callsOf('readRows')[0]?.request.ranges).toHaveLength(1);
    expect(customer).toBeInstanceOf(shop.E.Customer);
    expect(customer?.name).toBe('Name c1');
    expect(orders.map((o) => o.orderId)).toEqual([1, 2, 3]);
    expect(orders.every((o) => o instanceof shop.E.Order)).toBe(true);
    expect(orders.map((o) => o.total)).toEqual([10, 20, 30]);
    expect(addresses.map((a) => `${a.label}:${a.city}`)).toEqual(['home:Paris', 'work:Lyon']);
    expect(unknownRows).toEqual({ count: 0, rowKeys: [] });
  });

  it('reads only the prefix asked for: c1 sees none of c10, which sorts right after it', async () => {
    const shop = openShop(salt);
    await seed(shop);
    const c1 = await shop.aggregate.read({ customerId: 'c1' });
    expect(c1.orders.map((o) => o.customerId)).toEqual(['c1', 'c1', 'c1']);
    const c10 = await shop.aggregate.read({ customerId: 'c10' });
    expect(c10.customer?.customerId).toBe('c10');
    expect(c10.orders.map((o) => o.orderId)).toEqual([7]);
    expect(c10.addresses).toEqual([]);
    const c3 = await shop.aggregate.read({ customerId: 'c3' });
    expect(c3.customer).toBeUndefined();
    expect(c3.orders).toEqual([]);
  });

  it('streams the aggregate as kinds and entities in key order, forward and reversed, as iterable and Observable', async () => {
    const shop = openShop(salt);
    await seed(shop);
    const forward = ['addresses:home', 'addresses:work', 'customer:c1', 'orders:1', 'orders:2', 'orders:3'];
    expect(await kindsOf(shop.aggregate.iterate({ customerId: 'c1' }))).toEqual(forward);
    expect(await kindsOf(shop.aggregate.iterate({ customerId: 'c1' }, { order: 'key-desc' }))).toEqual(
      [...forward].reverse(),
    );
    const observed = await lastValueFrom(shop.aggregate.scan({ customerId: 'c1' }).pipe(toArray()));
    expect(observed.map((item) => item.kind)).toEqual(forward.map((k) => k.split(':')[0]));
  });

  it('plans one range for the prefix, in the bucket the prefix hashes to', () => {
    const shop = openShop(salt);
    const plan = shop.aggregate.planScan({ customerId: 'c1' });
    expect(plan.sources).toHaveLength(1);
    const source = plan.sources[0];
    const segment = salt === undefined ? '' : source?.segment;
    expect(source?.layout).toBe(salt === undefined ? 'unsalted' : 'salted');
    if (salt !== undefined) expect(segment).toMatch(/^0[0-3]#$/);
    expect(source?.range.start.key.toString()).toBe(`${segment}c1#`);
    expect(source?.range.end?.key.toString()).toBe(`${segment}c1$`);
    const order = shop.orders.compileSave({ customerId: 'c1', orderId: 1, total: 1 });
    expect(order.rowKeyText.startsWith(`${segment}c1#order#`)).toBe(true);
  });

  it('pages across kinds: the pages hold the items of one scan, and the cursor resumes right after the last', async () => {
    const shop = openShop(salt);
    await seed(shop);
    const all = await kindsOf(shop.aggregate.iterate({ customerId: 'c1' }));
    const paged: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await shop.aggregate.page({ customerId: 'c1' }, { pageSize: 4, cursor });
      paged.push(...(await kindsOf(toAsync(page.items))));
      cursor = page.cursor;
      pages++;
    } while (cursor !== undefined);
    expect(paged).toEqual(all);
    expect(pages).toBe(2);
  });
});

describe('collection options', () => {
  it('caps each member at its limit, from the end with key-desc, and 0 leaves a member out', async () => {
    const shop = openShop();
    await seed(shop);
    const first = await shop.aggregate.read({ customerId: 'c1' }, { limit: { orders: 2, addresses: 0 } });
    expect(first.orders.map((o) => o.orderId)).toEqual([1, 2]);
    expect(first.addresses).toEqual([]);
    expect(first.customer?.customerId).toBe('c1');
    const last = await shop.aggregate.read({ customerId: 'c1' }, { limit: { orders: 2 }, order: 'key-desc' });
    expect(last.orders.map((o) => o.orderId)).toEqual([3, 2]);
  });

  it('stops reading once every member has reached its limit', async () => {
    const shop = openShop();
    await seed(shop);
    shop.driver.clearCalls();
    const items = await kindsOf(
      shop.aggregate.iterate({ customerId: 'c1' }, { limit: { customer: 1, orders: 1, addresses: 1 } }),
    );
    expect(items).toEqual(['addresses:home', 'customer:c1', 'orders:1']);
    // c1 has 6 rows: the read stopped after the 4th (the second address was read and skipped).
    expect(shop.driver.reads.map((r) => [r.yielded, r.cancelled])).toEqual([[4, true]]);
  });

  it('counts a limit over all the pages', async () => {
    const shop = openShop();
    await seed(shop);
    const limit = { orders: 2 };
    const first = await shop.aggregate.page({ customerId: 'c1' }, { pageSize: 3, limit });
    expect(await kindsOf(toAsync(first.items))).toEqual(['addresses:home', 'addresses:work', 'customer:c1']);
    const second = await shop.aggregate.page({ customerId: 'c1' }, { pageSize: 3, limit, cursor: first.cursor });
    expect(await kindsOf(toAsync(second.items))).toEqual(['orders:1', 'orders:2']);
    expect(second.cursor).toBeUndefined();
  });

  it('selects columns per member, the others read whole', async () => {
    const shop = openShop();
    await seed(shop);
    const { customer, orders } = await shop.aggregate.read({ customerId: 'c1' }, { select: { orders: ['total'] } });
    expect(orders.map((o) => ({ ...o }))).toEqual([
      { customerId: 'c1', orderId: 1, total: 10 },
      { customerId: 'c1', orderId: 2, total: 20 },
      { customerId: 'c1', orderId: 3, total: 30 },
    ]);
    expect(customer?.email).toBe('c1@x');
    const onlyEmail = await shop.aggregate.read({ customerId: 'c2' }, { select: { customer: ['email'] } });
    expect({ ...onlyEmail.customer }).toEqual({ customerId: 'c2', email: 'c2@x' });
  });

  it("reads a member's @Denormalized copy as any column", async () => {
    const shop = openShop();
    await seed(shop);
    const { orders } = await shop.aggregate.read({ customerId: 'c1' });
    expect(orders.map((o) => o.customerName)).toEqual(['Name c1', 'Name c1', 'Name c1']);
  });

  it('rejects a cursor of another read, and options it does not know, before reading', async () => {
    const shop = openShop();
    await seed(shop);
    const { cursor } = await shop.aggregate.page({ customerId: 'c1' }, { pageSize: 1 });
    shop.driver.clearCalls();
    await expect(shop.aggregate.page({ customerId: 'c1' }, { pageSize: 1, cursor, order: 'key-desc' })).rejects.toThrow(
      /belongs to another read/,
    );
    await expect(shop.aggregate.read({ customerId: 'c1' }, { cursor: 'garbage' })).rejects.toThrow(ValidationError);
    await expect(shop.aggregate.read({ customerId: 'c1' }, { where: {} } as never)).rejects.toThrow(/where/);
    await expect(shop.aggregate.read({ customerId: 'c1' }, { limit: { wishes: 1 } } as never)).rejects.toThrow(
      /no member/,
    );
    await expect(shop.aggregate.read({ customerId: 'c1' }, { limit: { orders: -1 } })).rejects.toThrow(
      /limit\.orders must be a non-negative integer/,
    );
    await expect(shop.aggregate.read({ customerId: 'c1' }, { select: { orders: ['nope'] } } as never)).rejects.toThrow(
      /Order\.nope/,
    );
    await expect(shop.aggregate.page({ customerId: 'c1' }, { pageSize: 0 })).rejects.toThrow(/pageSize/);
    expect(shop.driver.callsOf('readRows')).toEqual([]);
  });

  it('needs the whole shared prefix, and nothing else', async () => {
    const shop = openShop();
    await expect(shop.aggregate.read({} as never)).rejects.toThrow(/missing "customerId"/);
    await expect(shop.aggregate.read({ customerId: 'c1', orderId: 1 } as never)).rejects.toThrow(
      /"orderId" is not a key part the members share/,
    );
    await expect(shop.aggregate.read('c1' as never)).rejects.toThrow(ValidationError);
  });

  it('is cancelled by its signal like every operation', async () => {
    const shop = openShop();
    await seed(shop);
    const controller = new AbortController();
    controller.abort();
    await expect(shop.aggregate.read({ customerId: 'c1' }, { signal: controller.signal })).rejects.toThrow(
      OperationAbortedError,
    );
  });
});

describe('rows of no member', () => {
  /** A kind on the shop's table that the collection does not list: its rows are unknown to it. */
  function withWishlists(shop: Shop) {
    @Entity({ table: 'shop' })
    @Family('w')
    @KeyPart(1, { literal: 'wishlist' })
    class Wishlist {
      @KeyPart(0, { type: 'string' }) customerId!: string;
      @KeyPart(2, { type: 'uint', width: 3 }) n!: number;
      @Column({ family: 'w', type: 'string' }) item?: string;
    }
    return shop.mapper.getRepository(Wishlist);
  }

  it('are reported by key, never dropped and never a crash', async () => {
    const shop = openShop();
    await seed(shop);
    await withWishlists(shop).save({ customerId: 'c1', n: 1, item: 'book' });
    const result = await shop.aggregate.read({ customerId: 'c1' });
    expect(result.unknownRows).toEqual({ count: 1, rowKeys: ['c1#wishlist#001'] });
    expect(result.orders).toHaveLength(3);
    const kinds = await kindsOf(shop.aggregate.iterate({ customerId: 'c1' }));
    expect(kinds.slice(-1)).toEqual(['undefined:']);
    const items = await lastValueFrom(shop.aggregate.scan({ customerId: 'c1' }).pipe(toArray()));
    expect(items.at(-1)).toEqual({ kind: undefined, rowKey: 'c1#wishlist#001' });
  });

  it('keeps the first 100 keys and counts the rest', async () => {
    const shop = openShop();
    const wishlists = withWishlists(shop);
    await wishlists.saveMany(Array.from({ length: 105 }, (_, n) => ({ customerId: 'c1', n, item: `i${n}` })));
    const { unknownRows } = await shop.aggregate.read({ customerId: 'c1' });
    expect(unknownRows.count).toBe(105);
    expect(unknownRows.rowKeys).toHaveLength(100);
    expect(unknownRows.rowKeys[99]).toBe('c1#wishlist#099');
  });
});

describe("rows of no member when the filter names the members' families", () => {
  // A maxAge GC rule puts a family filter (with its age bound) in the read.
  @Entity({ table: 'aged-shop' })
  @Family('o', { gc: { maxAge: '30d' } })
  @KeyPart(1, { literal: 'order' })
  class AgedOrder {
    @KeyPart(0, { type: 'string' }) customerId!: string;
    @KeyPart(2, { type: 'uint', width: 3 }) orderId!: number;
    @Column({ family: 'o', type: 'float' }) total?: number;
  }

  @Entity({ table: 'aged-shop' })
  @Family('c')
  @KeyPart(1, { literal: 'customer' })
  class AgedCustomer {
    @KeyPart(0, { type: 'string' }) customerId!: string;
    @Column({ family: 'c', type: 'string' }) name?: string;
  }

  @Entity({ table: 'aged-shop' })
  @Family('w')
  @KeyPart(1, { literal: 'wishlist' })
  class AgedWishlist {
    @KeyPart(0, { type: 'string' }) customerId!: string;
    @KeyPart(2, { type: 'uint', width: 3 }) n!: number;
    @Column({ family: 'w', type: 'string' }) item?: string;
  }

  it('are still read and reported, while member rows read as before', async () => {
    const mapper = new BigtableMapper({ driver: new FakeDriver() });
    await mapper.getRepository(AgedOrder).save({ customerId: 'c1', orderId: 1, total: 5 });
    await mapper.getRepository(AgedWishlist).save({ customerId: 'c1', n: 1, item: 'book' });
    await mapper.getRepository(AgedCustomer).save({ customerId: 'c1', name: 'Ada' });
    const aggregate = mapper.collection('agedAggregate', { customer: AgedCustomer, orders: [AgedOrder] });
    const { customer, orders, unknownRows } = await aggregate.read({ customerId: 'c1' });
    expect(customer?.name).toBe('Ada');
    expect(orders.map((o) => ({ ...o }))).toEqual([{ customerId: 'c1', orderId: 1, total: 5 }]);
    expect(unknownRows).toEqual({ count: 1, rowKeys: ['c1#wishlist#001'] });
  });
});

describe('mapper.sync() of a collection', () => {
  it("creates the shared table with the union of the members' families", async () => {
    const E = shopEntities('shop-sync');
    const driver = new FakeDriver({ implicitTables: false });
    const mapper = new BigtableMapper({ driver });
    mapper.collection('customerAggregate', { customer: E.Customer, orders: [E.Order], addresses: [E.Address] });
    await mapper.sync();
    expect((await driver.getFamilies({ table: 'shop-sync' }))?.map((f) => f.name)).toEqual(['a', 'c', 'o']);
  });
});

describe('a collection of ordered-code keys', () => {
  // A table of ordered-code keys has one row key schema, so its members have keys of one shape.
  @Entity({ table: 'ordered-shop', keyFormat: 'ordered-code' })
  @Family('o')
  @KeyPart(1, { literal: 'order' })
  class OrderedOrder {
    @KeyPart(0, { type: 'string' }) customerId!: string;
    @KeyPart(2, { type: 'uint' }) id!: number;
    @Column({ family: 'o', type: 'float' }) total?: number;
  }

  @Entity({ table: 'ordered-shop', keyFormat: 'ordered-code' })
  @Family('p')
  @KeyPart(1, { literal: 'payment' })
  class OrderedPayment {
    @KeyPart(0, { type: 'string' }) customerId!: string;
    @KeyPart(2, { type: 'uint' }) id!: number;
    @Column({ family: 'p', type: 'float' }) amount?: number;
  }

  it('tells the kinds apart by their struct field, and keeps c1 apart from c10', async () => {
    const mapper = new BigtableMapper({ driver: new FakeDriver() });
    const orders = mapper.getRepository(OrderedOrder);
    const payments = mapper.getRepository(OrderedPayment);
    for (const customerId of ['c1', 'c10']) {
      await orders.save({ customerId, id: 2, total: 2 });
      await orders.save({ customerId, id: 1, total: 1 });
      await payments.save({ customerId, id: 1, amount: 3 });
    }
    const aggregate = mapper.collection('orderedAggregate', { orders: [OrderedOrder], payments: [OrderedPayment] });
    const { orders: found, payments: paid, unknownRows } = await aggregate.read({ customerId: 'c1' });
    expect(found.map((o) => `${o.customerId}/${o.id}`)).toEqual(['c1/1', 'c1/2']);
    expect(paid.map((p) => `${p.customerId}/${p.amount}`)).toEqual(['c1/3']);
    expect(unknownRows.count).toBe(0);
  });
});

async function* toAsync<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}
