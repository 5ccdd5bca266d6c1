import { Column, Entity, Family, KeyPart } from '../../src/index.js';
import { alternate, ratio, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { FAMILY } from '../entities.js';
import { forEachRow, type RawRow, type RawStream } from '../raw-rows.js';
import { measureRead } from '../read-sample.js';
import type { ThroughputResult } from '../results.js';

/** Orders and addresses of the customer the workload reads: with its customer row, 1,000 rows. */
const ORDERS = 600;
const ADDRESSES = 399;
/** Rows of the neighbouring customers, around the one read, so the prefix scan has edges to respect. */
const NEIGHBOUR_ORDERS = 200;

/** Defines the three members of the aggregate on `table`. */
function defineAggregate(table: string) {
  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(1, { literal: 'customer' })
  class Customer {
    @KeyPart(0, { type: 'string', maxLength: 16 }) customerId!: string;
    @Column({ family: FAMILY, type: 'string' }) name?: string;
    @Column({ family: FAMILY, type: 'string' }) email?: string;
  }

  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(1, { literal: 'order' })
  class Order {
    @KeyPart(0, { type: 'string', maxLength: 16 }) customerId!: string;
    @KeyPart(2, { type: 'uint', width: 8 }) orderId!: number;
    @Column({ family: FAMILY, type: 'float' }) total?: number;
    @Column({ family: FAMILY, type: 'string' }) status?: string;
    @Column({ family: FAMILY, type: 'string' }) note?: string;
  }

  @Entity({ table })
  @Family(FAMILY)
  @KeyPart(1, { literal: 'address' })
  class Address {
    @KeyPart(0, { type: 'string', maxLength: 16 }) customerId!: string;
    @KeyPart(2, { type: 'uint', width: 8 }) addressId!: number;
    @Column({ family: FAMILY, type: 'string' }) city?: string;
    @Column({ family: FAMILY, type: 'string' }) street?: string;
  }

  return { customer: Customer, orders: [Order], addresses: [Address] } as const;
}

/**
 * A 1,000-row aggregate of three kinds (a customer, 600 orders, 399
 * addresses) in one table between two neighbouring customers, read by the
 * collection reader (`collection.read(prefix)`: one scan, each row typed by
 * its kind) against one raw prefix scan of the same rows
 * (`createReadStream({ prefix, decode: false })`) that builds a plain object
 * per row with the same fields.
 * @example `const result = await collectionRead(ctx);`
 */
export async function collectionRead(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats } = ctx.options;
  ctx.log('collection-read:');
  const tableId = await ctx.createTable('aggregate');
  const members = defineAggregate(tableId);
  const mapper = ctx.mapper();
  const [Order] = members.orders;
  const [Address] = members.addresses;
  ctx.log(`  loading ${1 + ORDERS + ADDRESSES} aggregate rows and ${2 * (1 + NEIGHBOUR_ORDERS)} neighbours, untimed`);
  for (const customerId of ['c0', 'c1', 'c2']) {
    const orders = customerId === 'c1' ? ORDERS : NEIGHBOUR_ORDERS;
    await mapper
      .getRepository(members.customer)
      .save({ customerId, name: `name ${customerId}`, email: `${customerId}@example.com` });
    await mapper.getRepository(Order).saveMany(
      Array.from({ length: orders }, (_, i) => ({
        customerId,
        orderId: i,
        total: i * 1.5,
        status: 'open',
        note: `order ${i}`,
      })),
    );
    if (customerId === 'c1')
      await mapper.getRepository(Address).saveMany(
        Array.from({ length: ADDRESSES }, (_, i) => ({
          customerId,
          addressId: i,
          city: 'Lyon',
          street: `${i} rue de la République`,
        })),
      );
  }
  const aggregate = mapper.collection('customerAggregate', members);
  const rows = 1 + ORDERS + ADDRESSES;
  const table = ctx.table(tableId);
  const variants: Variant[] = [
    {
      id: 'mapper-collection',
      label: 'collection.read (one scan, three kinds typed)',
      side: 'mapper',
      run: () =>
        measureRead(rows, async (onRow) => {
          const { customer, orders, addresses, unknownRows } = await aggregate.read({ customerId: 'c1' });
          if (customer === undefined || unknownRows.count !== 0) throw new Error('collection-read: unexpected rows');
          onRow(customer);
          for (const order of orders) onRow(order);
          for (const address of addresses) onRow(address);
        }),
    },
    {
      id: 'raw-prefix-scan',
      label: 'raw createReadStream({ prefix }) building plain objects',
      side: 'raw',
      run: () =>
        measureRead(rows, async (onRow) => {
          const stream = table.createReadStream({ prefix: 'c1#', decode: false }) as unknown as RawStream;
          await forEachRow(stream, (row) => onRow(plainObject(row)));
        }),
    },
  ];
  const results = await alternate(variants, repeats, (line) => ctx.log(line));
  await ctx.dropTable(tableId);
  return {
    kind: 'throughput',
    id: 'collection-read',
    title: `Collection read: a ${rows.toLocaleString('en-US')}-row aggregate of 3 kinds against one raw prefix scan`,
    rows,
    repeats,
    variants: results,
    ratios: [ratio(results, 'mapper-collection', 'raw-prefix-scan', 'collection.read / raw prefix scan')],
  };
}

/** What a hand-written reader builds from a raw row: its kind from the key, its cells as text and numbers. */
function plainObject(row: RawRow): Record<string, unknown> {
  const key = Buffer.isBuffer(row.id) ? row.id.toString('utf8') : row.id;
  const [customerId = '', kind = '', id] = key.split('#');
  const out: Record<string, unknown> = { kind, customerId };
  if (id !== undefined) out['id'] = Number(id);
  for (const [qualifier, cells] of Object.entries(row.data[FAMILY] ?? {})) {
    const value = cells?.[0]?.value;
    out[qualifier] = Buffer.isBuffer(value)
      ? qualifier === 'total'
        ? value.readDoubleBE(0)
        : value.toString('utf8')
      : value;
  }
  return out;
}
