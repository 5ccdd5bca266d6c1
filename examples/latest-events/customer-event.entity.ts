import { Column, Entity, Family, KeyPart } from '../../src/index.js';

/**
 * Declares seed 004's `<customer_id>#<reverse_ts>` row: the time is stored as
 * `9999999999999 − epoch ms`, so within a customer the newest event sorts
 * first and "latest N" is a plain forward scan with a limit.
 *
 * @example
 * ```ts
 * const CustomerEvent = customerEventEntity('customer-events');
 * const e = mapper.getRepository(CustomerEvent).create({ customerId: 'c1', at: new Date(), type: 'login' });
 * ```
 */
export function customerEventEntity(table: string) {
  @Entity({ table })
  @Family('e', { gc: { maxVersions: 1 } })
  class CustomerEvent {
    @KeyPart(0, { type: 'string', maxLength: 64 }) customerId!: string;
    @KeyPart(1, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
    @Column({ family: 'e', type: 'string' }) type!: string;
    @Column({ family: 'e', type: 'float' }) amount?: number;
  }
  return CustomerEvent;
}

/** An instance of {@link customerEventEntity}. @example `const e: CustomerEvent = new CustomerEventClass();` */
export type CustomerEvent = InstanceType<ReturnType<typeof customerEventEntity>>;
