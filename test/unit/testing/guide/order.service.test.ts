import { Test, type TestingModule } from '@nestjs/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Repository } from '../../../../src/index.js';
import { BigtableModule, getRepositoryToken } from '../../../../src/nest/index.js';
import { InMemoryBigtable } from '../../../../src/testing/index.js';
import { OrderService } from './order.service.js';
import { Customer, Order } from './shop.entities.js';

let bigtable: InMemoryBigtable;
let moduleRef: TestingModule;

beforeEach(async () => {
  bigtable = new InMemoryBigtable({ recordCalls: true });
  moduleRef = await Test.createTestingModule({
    imports: [BigtableModule.forRoot({ driver: bigtable, sync: true }), BigtableModule.forFeature([Customer, Order])],
    providers: [OrderService],
  }).compile();
  await moduleRef.init(); // sync: true creates the tables in memory
  const customers = moduleRef.get<Repository<Customer>>(getRepositoryToken(Customer));
  await customers.save({ customerId: 'c1', name: 'Ada' });
});

afterEach(() => moduleRef.close());

it('places, lists and ships orders', async () => {
  const service = moduleRef.get(OrderService);
  for (let n = 1; n <= 3; n += 1) await service.place('c1', new Date(Date.UTC(2026, 0, n)), n * 10);

  const page = await service.latest('c1', 2);
  expect(page.items.map((o) => [o.total, o.customerName])).toEqual([
    [30, 'Ada'],
    [20, 'Ada'],
  ]);
  expect((await service.latest('c1', 2, page.cursor)).items.map((o) => o.total)).toEqual([10]);

  expect(await service.ship('c1', new Date(Date.UTC(2026, 0, 3)))).toBe(true);
  expect(await service.ship('c1', new Date(Date.UTC(2026, 0, 3)))).toBe(false);
  expect(bigtable.callsOf('checkAndMutate')).toHaveLength(2);

  const customers = moduleRef.get<Repository<Customer>>(getRepositoryToken(Customer));
  expect((await customers.findOne({ customerId: 'c1' }))?.orderCount).toBe(3);
});
