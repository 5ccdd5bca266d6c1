import { Injectable } from '@nestjs/common';
import { InjectMapper } from '../../src/nest/index.js';
import type { BigtableMapper, Collection, CollectionResult, EntityData } from '../../src/index.js';
import { Address, CUSTOMER_AGGREGATE, Customer, Order } from './customer.entities.js';

/** The customer aggregate's members. @example `const members: CustomerAggregate = CUSTOMER_AGGREGATE;` */
export type CustomerAggregate = typeof CUSTOMER_AGGREGATE;

/**
 * Writes a customer, their orders and addresses (one row each, each through
 * its own repository), and reads the whole aggregate back in one scan of
 * its key prefix.
 *
 * @example
 * ```ts
 * const { customer, orders, addresses } = await service.aggregate('c1');
 * ```
 */
@Injectable()
export class CustomersService {
  readonly #mapper: BigtableMapper;
  readonly #aggregate: Collection<CustomerAggregate>;

  constructor(@InjectMapper() mapper: BigtableMapper) {
    this.#mapper = mapper;
    this.#aggregate = mapper.collection('customerAggregate', CUSTOMER_AGGREGATE);
  }

  /** Saves a customer. @example `await service.saveCustomer({ customerId: 'c1', name: 'Ada' });` */
  async saveCustomer(input: EntityData<Customer>): Promise<Customer> {
    const customers = this.#mapper.getRepository(Customer);
    const customer = customers.create(input);
    await customers.save(customer);
    return customer;
  }

  /** Saves an order of a customer. @example `await service.saveOrder({ customerId: 'c1', orderId: 1, total: 5, status: 'open' });` */
  async saveOrder(input: EntityData<Order>): Promise<Order> {
    const orders = this.#mapper.getRepository(Order);
    const order = orders.create(input);
    await orders.save(order);
    return order;
  }

  /** Saves an address of a customer. @example `await service.saveAddress({ customerId: 'c1', label: 'home', city: 'Lyon' });` */
  async saveAddress(input: EntityData<Address>): Promise<Address> {
    const addresses = this.#mapper.getRepository(Address);
    const address = addresses.create(input);
    await addresses.save(address);
    return address;
  }

  /** The customer, their orders and addresses, in one scan. @example `await service.aggregate('c1');` */
  aggregate(customerId: string): Promise<CollectionResult<CustomerAggregate>> {
    return this.#aggregate.read({ customerId });
  }
}
