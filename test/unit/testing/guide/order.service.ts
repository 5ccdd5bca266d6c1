import { Injectable } from '@nestjs/common';
import type { Page, Repository } from '../../../../src/index.js';
import { InjectRepository } from '../../../../src/nest/index.js';
import { Customer, Order } from './shop.entities.js';

@Injectable()
export class OrderService {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    @InjectRepository(Customer) private readonly customers: Repository<Customer>,
  ) {}

  /** Saves a pending order (with the customer's name copied in) and counts it. */
  async place(customerId: string, placedAt: Date, total: number): Promise<void> {
    await this.orders.save({ customerId, placedAt, total, status: 'pending' });
    await this.customers.increment({ customerId }, 'orderCount', 1);
  }

  /** The customer's orders, newest first, a page at a time. */
  latest(customerId: string, limit: number, cursor?: string): Promise<Page<Order>> {
    return this.orders.page({ where: { customerId }, order: 'key-desc', limit, cursor });
  }

  /** Ships an order unless it is no longer pending; resolves whether it did. */
  ship(customerId: string, placedAt: Date): Promise<boolean> {
    return this.orders.saveIf({ customerId, placedAt, status: 'shipped' }, { column: 'status', equals: 'pending' });
  }
}
