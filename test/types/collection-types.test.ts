import { describe, expectTypeOf, it } from 'vitest';
import {
  Column,
  Entity,
  Family,
  KeyPart,
  KeyParts,
  type BigtableMapper,
  type Collection,
  type CollectionItem,
  type CollectionResult,
} from '../../src/index.js';

@Entity({ table: 'typed-shop' })
@Family('c')
@KeyPart(1, { literal: 'customer' })
class Customer {
  declare [KeyParts]?: 'customerId';
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @Column({ family: 'c', type: 'string' }) name?: string;
}

@Entity({ table: 'typed-shop' })
@Family('o')
@KeyPart(1, { literal: 'order' })
class Order {
  declare [KeyParts]?: 'customerId' | 'orderId';
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(2, { type: 'uint' }) orderId!: number;
  @Column({ family: 'o', type: 'float' }) total?: number;
  @Column({ family: 'o', type: 'string' }) status?: string;
}

@Entity({ table: 'typed-shop' })
@Family('a')
@KeyPart(1, { literal: 'address' })
class Address {
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(2, { type: 'string' }) label!: string;
  @Column({ family: 'a', type: 'string' }) city?: string;
}

type Members = { readonly customer: typeof Customer; readonly orders: readonly [typeof Order] };

/** Compiled by `tsc --noEmit` (part of `npm test`): every `@ts-expect-error` must be an error. */
async function typeChecks(mapper: BigtableMapper): Promise<void> {
  const aggregate = mapper.collection('agg', { customer: Customer, orders: [Order], addresses: [Address] });
  const { customer, orders, addresses, unknownRows } = await aggregate.read({ customerId: 'c1' });
  expectTypeOf(customer).toEqualTypeOf<Customer | undefined>();
  expectTypeOf(orders).toEqualTypeOf<Order[]>();
  expectTypeOf(addresses).toEqualTypeOf<Address[]>();
  expectTypeOf(unknownRows.count).toEqualTypeOf<number>();
  expectTypeOf(unknownRows.rowKeys).toEqualTypeOf<readonly string[]>();

  const selected = await aggregate.read({ customerId: 'c1' }, { select: { orders: ['total'] }, limit: { orders: 5 } });
  expectTypeOf(selected.orders).toEqualTypeOf<Pick<Order, 'customerId' | 'orderId' | 'total'>[]>();
  expectTypeOf(selected.customer).toEqualTypeOf<Customer | undefined>();

  for await (const item of aggregate.iterate({ customerId: 'c1' })) {
    if (item.kind === 'orders') expectTypeOf(item.entity).toEqualTypeOf<Order>();
    else if (item.kind === 'customer') expectTypeOf(item.entity).toEqualTypeOf<Customer>();
    else if (item.kind === undefined) expectTypeOf(item.rowKey).toEqualTypeOf<string>();
  }
  const page = await aggregate.page({ customerId: 'c1' }, { pageSize: 10 });
  expectTypeOf(page.cursor).toEqualTypeOf<string | undefined>();

  // @ts-expect-error select names properties of the member's entity
  void aggregate.read({ customerId: 'c1' }, { select: { orders: ['city'] } });
  // @ts-expect-error select and limit are keyed by member name
  void aggregate.read({ customerId: 'c1' }, { limit: { wishlists: 1 } });
  // @ts-expect-error a page needs its size
  void aggregate.page({ customerId: 'c1' }, {});
  // @ts-expect-error order is 'key' or 'key-desc'
  void aggregate.read({ customerId: 'c1' }, { order: 'none' });
  // @ts-expect-error unknownRows reports the rows of no member and cannot name one
  void mapper.collection('agg', { customer: Customer, unknownRows: [Order] });
  // @ts-expect-error a member is an entity class, or one in a one-element array
  void mapper.collection('agg', { customer: Customer, orders: [Order, Address] });

  const marked: Collection<Members> = mapper.collection('marked', { customer: Customer, orders: [Order] });
  void marked.read({ customerId: 'c1' });
  // @ts-expect-error when every member declares its key parts, the prefix needs every shared one
  void marked.read({});
  // @ts-expect-error the prefix takes only the key parts the members share
  void marked.read({ customerId: 'c1', orderId: 1 });
}

describe('typed collection API', () => {
  it('infers each member, its selection and the items of a scan from the members', () => {
    expectTypeOf<CollectionResult<Members>['orders']>().toEqualTypeOf<Order[]>();
    expectTypeOf<CollectionResult<Members>['customer']>().toEqualTypeOf<Customer | undefined>();
    expectTypeOf<CollectionItem<Members>['kind']>().toEqualTypeOf<'customer' | 'orders' | undefined>();
    expectTypeOf(typeChecks).toBeFunction();
  });
});
