import { Column, Denormalized, Entity, Family, KeyPart, KeyParts, Salt } from '../../../../src/index.js';

@Entity({ table: 'customers' })
@Family('p')
export class Customer {
  declare [KeyParts]?: 'customerId';
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @Column({ family: 'p', type: 'string' }) name?: string;
  @Column({ family: 'p', type: 'int' }) orderCount?: number;
}

@Entity({ table: 'orders' })
@Salt({ buckets: 4 }) // every key in one of 4 buckets: a scan reads 4 ranges and merges them
@Family('o', { gc: { maxVersions: 1 } })
export class Order {
  declare [KeyParts]?: 'customerId' | 'placedAt';
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(1, { type: 'timestamp' }) placedAt!: Date;
  @Column({ family: 'o', type: 'int' }) total?: number;
  @Column({ family: 'o', type: 'string' }) status?: string;
  @Denormalized({ from: () => Customer, key: { customerId: 'customerId' }, field: 'name' })
  @Column({ family: 'o', type: 'string' })
  customerName?: string;
}
