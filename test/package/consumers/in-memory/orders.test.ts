// An application's unit test: its repositories on the in-memory Bigtable, run with node:test, no emulator.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { BigtableMapper, Column, Entity, Family, KeyPart, KeyParts, Salt, type Repository } from 'bigtable-mapper';
import { InMemoryBigtable } from 'bigtable-mapper/testing';

@Entity({ table: 'orders' })
@Salt({ buckets: 4 })
@Family('o', { gc: { maxVersions: 1 } })
class Order {
  declare [KeyParts]?: 'customerId' | 'placedAt';
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(1, { type: 'timestamp' }) placedAt!: Date;
  @Column({ family: 'o', type: 'int' }) total?: number;
  @Column({ family: 'o', type: 'string' }) status?: string;
  @Column({ family: 'o', type: 'int' }) views?: number;
}

const day = (n: number): Date => new Date(Date.UTC(2026, 0, n));
let orders: Repository<Order>;

beforeEach(async () => {
  const mapper = new BigtableMapper({ driver: new InMemoryBigtable(), entities: [Order] });
  await mapper.sync();
  orders = mapper.getRepository(Order);
});

test('pages a salted table newest first', async () => {
  for (let n = 1; n <= 5; n += 1) await orders.save({ customerId: 'c1', placedAt: day(n), total: n });
  const first = await orders.page({ where: { customerId: 'c1' }, order: 'key-desc', limit: 3 });
  assert.deepEqual(
    first.items.map((o) => o.total),
    [5, 4, 3],
  );
  const rest = await orders.page({ where: { customerId: 'c1' }, order: 'key-desc', limit: 3, cursor: first.cursor });
  assert.deepEqual(
    rest.items.map((o) => o.total),
    [2, 1],
  );
});

test('writes conditionally and increments', async () => {
  const order = { customerId: 'c1', placedAt: day(1), status: 'pending' };
  await orders.save(order);
  assert.equal(await orders.saveIf({ ...order, status: 'shipped' }, { column: 'status', equals: 'pending' }), true);
  assert.equal(await orders.saveIf({ ...order, status: 'lost' }, { column: 'status', equals: 'pending' }), false);
  assert.equal(await orders.increment({ customerId: 'c1', placedAt: day(1) }, 'views', 2), 2);
  const found = await orders.findOne({ customerId: 'c1', placedAt: day(1) });
  assert.equal(found?.status, 'shipped');
  assert.equal(found?.views, 2);
});
