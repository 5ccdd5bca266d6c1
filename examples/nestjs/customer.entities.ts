import { z } from 'zod';
import { Column, Entity, Family, KeyPart, KeyParts, Salt } from '../../src/index.js';

/** Every member of the customer aggregate is salted alike, on the key part they share. */
const salt = { buckets: 4, on: ['customerId'] };

/**
 * A customer, keyed `customerId#customer`: the head of the customer
 * aggregate that `Order` and `Address` rows share the `customers` table
 * with. The zod validators run on every write and narrow the request
 * body's JSON Schema.
 *
 * @example
 * ```ts
 * const customer = customers.create({ customerId: 'c1', name: 'Ada', email: 'ada@example.com' });
 * ```
 */
@Entity({ table: 'customers' })
@Salt(salt)
@Family('c', { gc: { maxVersions: 1 } })
@KeyPart(1, { literal: 'customer' })
export class Customer {
  declare [KeyParts]?: 'customerId';
  @KeyPart(0, { type: 'string', maxLength: 64 }) customerId!: string;
  @Column({ family: 'c', type: 'string', validate: z.string().min(1).max(200) }) name!: string;
  @Column({ family: 'c', type: 'string', validate: z.string().email() }) email?: string;
}

/**
 * One order of a customer, keyed `customerId#order#orderId`.
 *
 * @example
 * ```ts
 * const order = orders.create({ customerId: 'c1', orderId: 42, total: 19.9, status: 'open' });
 * ```
 */
@Entity({ table: 'customers' })
@Salt(salt)
@Family('o', { gc: { maxVersions: 1 } })
@KeyPart(1, { literal: 'order' })
export class Order {
  declare [KeyParts]?: 'customerId' | 'orderId';
  @KeyPart(0, { type: 'string', maxLength: 64 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 9 }) orderId!: number;
  @Column({ family: 'o', type: 'float', validate: z.number().nonnegative() }) total!: number;
  @Column({ family: 'o', type: 'string', validate: z.enum(['open', 'paid', 'shipped']) }) status!: string;
}

/**
 * One address of a customer, keyed `customerId#address#label`.
 *
 * @example
 * ```ts
 * const home = addresses.create({ customerId: 'c1', label: 'home', city: 'Lyon' });
 * ```
 */
@Entity({ table: 'customers' })
@Salt(salt)
@Family('a', { gc: { maxVersions: 1 } })
@KeyPart(1, { literal: 'address' })
export class Address {
  declare [KeyParts]?: 'customerId' | 'label';
  @KeyPart(0, { type: 'string', maxLength: 64 }) customerId!: string;
  @KeyPart(2, { type: 'string', maxLength: 32 }) label!: string;
  @Column({ family: 'a', type: 'string', validate: z.string().min(1).max(100) }) city!: string;
  @Column({ family: 'a', type: 'string', validate: z.string().max(200) }) street?: string;
}

/**
 * The members of the customer aggregate, as `mapper.collection()` takes them:
 * at most one customer row, any number of orders and addresses.
 *
 * @example
 * ```ts
 * const aggregate = mapper.collection('customerAggregate', CUSTOMER_AGGREGATE);
 * ```
 */
export const CUSTOMER_AGGREGATE = { customer: Customer, orders: [Order], addresses: [Address] } as const;
