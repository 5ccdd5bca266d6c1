import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { BigtableModule } from '../../src/nest/index.js';
import { Address, Customer, Order } from './customer.entities.js';
import { CustomersController } from './customers.controller.js';
import { CustomersService } from './customers.service.js';

/**
 * The customers feature: `BigtableModule.forFeature` registers the three
 * members of the customer aggregate, so `sync: true` creates their shared
 * table with the union of their families.
 *
 * @example
 * ```ts
 * @Module({ imports: [BigtableModule.forRootAsync(...), CustomersModule.register()] })
 * class AppModule {}
 * ```
 */
@Module({})
export class CustomersModule {
  /** The feature. @example `CustomersModule.register()` */
  static register(): DynamicModule {
    return {
      module: CustomersModule,
      imports: [BigtableModule.forFeature([Customer, Order, Address])],
      providers: [CustomersService],
      controllers: [CustomersController],
    };
  }
}
