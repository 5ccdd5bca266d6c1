import { BadRequestException, Body, Controller, Get, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import { fromJson, toJson } from '../../src/json.js';
import { Address, Customer, Order } from './customer.entities.js';
import { CustomersService } from './customers.service.js';

/** A JSON object body with `customerId` taken from the URL (a body naming another customer is refused). */
function withCustomerId(body: unknown, customerId: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const given = (body as { customerId?: unknown }).customerId;
  if (given !== undefined && given !== customerId)
    throw new BadRequestException('customerId in the body must match the URL, or be left out');
  return { ...body, customerId };
}

/**
 * The customer aggregate: `POST /customers`, `POST /customers/:customerId/orders`
 * and `POST /customers/:customerId/addresses` write one row each (bodies in
 * the entities' JSON form, read by `fromJson`; the entities' zod validators
 * run on save, so a bad body answers 400 listing every issue), and
 * `GET /customers/:customerId` reads the customer, their orders and their
 * addresses back in one scan of the shared key prefix (404 when the
 * customer row is missing).
 *
 * @example
 * ```ts
 * await fetch(`${base}/customers/c1/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId: 1, total: 9.5, status: 'open' }) });
 * ```
 */
@Controller('customers')
export class CustomersController {
  readonly #service: CustomersService;

  constructor(@Inject(CustomersService) service: CustomersService) {
    this.#service = service;
  }

  /** Creates or replaces a customer. @example `POST /customers {"customerId":"c1","name":"Ada"}` */
  @Post()
  async createCustomer(@Body() body: unknown): Promise<unknown> {
    const customer = await this.#service.saveCustomer(fromJson(Customer, body, { for: 'create' }));
    return toJson(Customer, customer);
  }

  /** Adds an order to a customer. @example `POST /customers/c1/orders {"orderId":1,"total":9.5,"status":"open"}` */
  @Post(':customerId/orders')
  async createOrder(@Param('customerId') customerId: string, @Body() body: unknown): Promise<unknown> {
    const order = await this.#service.saveOrder(fromJson(Order, withCustomerId(body, customerId), { for: 'create' }));
    return toJson(Order, order);
  }

  /** Adds an address to a customer. @example `POST /customers/c1/addresses {"label":"home","city":"Lyon"}` */
  @Post(':customerId/addresses')
  async createAddress(@Param('customerId') customerId: string, @Body() body: unknown): Promise<unknown> {
    const address = await this.#service.saveAddress(
      fromJson(Address, withCustomerId(body, customerId), { for: 'create' }),
    );
    return toJson(Address, address);
  }

  /** The whole aggregate, read in one scan. @example `GET /customers/c1` */
  @Get(':customerId')
  async aggregate(@Param('customerId') customerId: string): Promise<unknown> {
    const { customer, orders, addresses, unknownRows } = await this.#service.aggregate(customerId);
    if (customer === undefined) throw new NotFoundException(`no customer ${JSON.stringify(customerId)}`);
    return {
      customer: toJson(Customer, customer),
      orders: orders.map((order) => toJson(Order, order)),
      addresses: addresses.map((address) => toJson(Address, address)),
      unknownRows: unknownRows.count,
    };
  }
}
