import type { Observable } from 'rxjs';
import type { BigtableDriver } from '../model/driver.js';
import type { CollectionLayout } from '../key/collection-layout.js';
import type { OperationContext, OperationOptions } from '../operation/operation.js';
import { PlannedScan, type ScanPlan } from '../scan/scan-plan.js';
import {
  openCollection,
  planCollectionCall,
  readCollection,
  readCollectionPage,
  type AnyCollectionOptions,
} from '../scan/collection-ops.js';
import type {
  CollectionItem,
  CollectionMembers,
  CollectionPrefix,
  CollectionReadOptions,
  CollectionResult,
} from '../scan/collection-query.js';
import { eachItem } from '../stream/async-iterable.js';
import { batchesToObservable } from '../stream/observable.js';
import type { Page } from '../scan/scan-ops.js';

/**
 * Several entity kinds of one aggregate, read back in one scan: members
 * declared on one table whose keys begin with the same key parts, then a
 * class-level literal that names the kind (docs/collections.md). Get one from
 * `mapper.collection()`; write through each member's repository.
 *
 * Every read is one ReadRows over the rows whose key starts with the prefix
 * (one range, also when salted: the prefix decides the bucket), in row key
 * order. A row whose discriminator names no member is reported, never
 * dropped: in `read()`'s `unknownRows`, as `{ kind: undefined, rowKey }` by
 * the others.
 *
 * @example
 * ```ts
 * const aggregate = mapper.collection('customerAggregate', { customer: Customer, orders: [Order], addresses: [Address] });
 * const { customer, orders, addresses, unknownRows } = await aggregate.read({ customerId: 'c1' });
 * ```
 */
export class Collection<M extends CollectionMembers> {
  /** The name given to `mapper.collection()`, used in messages. */
  readonly name: string;
  /** The table every member is on (without the mapper's `tablePrefix`). */
  readonly table: string;
  readonly #driver: BigtableDriver;
  readonly #layout: CollectionLayout;
  readonly #context: OperationContext;

  /** @internal Made by `mapper.collection()`, which checks the layout. */
  constructor(driver: BigtableDriver, layout: CollectionLayout, context: OperationContext) {
    this.name = layout.name;
    this.table = layout.table;
    this.#driver = driver;
    this.#layout = layout;
    this.#context = context;
  }

  /**
   * Reads a whole aggregate in one scan: per member its entity (`undefined`
   * when there is none) or its entities in key order, and `unknownRows`.
   * With `select` for a member, its entities' type holds only its key parts
   * and the selected properties. `limit` caps each member's rows; `order:
   * 'key-desc'` reads the range reversed. Deadlines and `signal` as for a
   * repository scan.
   * @example
   * ```ts
   * const { customer, orders } = await aggregate.read({ customerId: 'c1' }, { select: { orders: ['total'] }, limit: { orders: 20 } });
   * orders[0]?.total; // orders: Pick<Order, 'customerId' | 'orderId' | 'total'>[]
   * ```
   */
  read<const O extends CollectionReadOptions<M> = CollectionReadOptions<M>>(
    prefix: CollectionPrefix<M>,
    options?: O,
  ): Promise<CollectionResult<M, O>> {
    return typed(readCollection(this.#driver, this.#layout, prefix, optionsOf(options), this.#context));
  }

  /**
   * The aggregate's rows one by one, in key order, each as `{ kind, entity }`
   * or, for a row of no member, `{ kind: undefined, rowKey }`: for an
   * aggregate too large to hold. Pull-based; breaking out cancels the read.
   * @example
   * ```ts
   * for await (const item of aggregate.iterate({ customerId: 'c1' })) {
   *   if (item.kind === 'orders') console.log(item.entity.total);
   *   else if (item.kind === undefined) console.warn('row of no member', item.rowKey);
   * }
   * ```
   */
  iterate<const O extends CollectionReadOptions<M> = CollectionReadOptions<M>>(
    prefix: CollectionPrefix<M>,
    options?: O,
  ): AsyncIterable<CollectionItem<M, O>> {
    return {
      [Symbol.asyncIterator]: () => {
        const { stream, map } = openCollection(
          this.#driver,
          this.#layout,
          prefix,
          optionsOf(options),
          this.#context,
          'iterate',
        );
        return eachItem(stream, map) as AsyncIterator<CollectionItem<M, O>>;
      },
    };
  }

  /**
   * The items of {@link iterate} as a cold Observable; unsubscribing cancels
   * the read, and the scan's clock starts at subscription.
   * @example
   * ```ts
   * aggregate.scan({ customerId: 'c1' }, { limit: { orders: 10 } }).subscribe((item) => console.log(item.kind));
   * ```
   */
  scan<const O extends CollectionReadOptions<M> = CollectionReadOptions<M>>(
    prefix: CollectionPrefix<M>,
    options?: O,
  ): Observable<CollectionItem<M, O>> {
    return batchesToObservable(() =>
      openCollection(this.#driver, this.#layout, prefix, optionsOf(options), this.#context, 'scan'),
    ) as Observable<CollectionItem<M, O>>;
  }

  /**
   * The next `pageSize` items of the aggregate (rows of no member included)
   * and a cursor for the page after, `undefined` once nothing follows. Pass
   * the cursor back with the same prefix and options; each member's `limit`
   * counts over all the pages.
   * @example
   * ```ts
   * let cursor: string | undefined;
   * do {
   *   const page = await aggregate.page({ customerId: 'c1' }, { pageSize: 100, cursor });
   *   render(page.items);
   *   cursor = page.cursor;
   * } while (cursor !== undefined);
   * ```
   */
  page<
    const O extends CollectionReadOptions<M> & {
      /** The most items of the page, rows of no member included: a positive integer. */
      readonly pageSize: number;
    },
  >(prefix: CollectionPrefix<M>, options: O): Promise<Page<CollectionItem<M, O>>> {
    return typed(readCollectionPage(this.#driver, this.#layout, prefix, optionsOf(options), this.#context));
  }

  /**
   * The scan a read of this prefix sends, without sending it: one range (the
   * prefix decides the salt bucket), its filter and order, with the table as
   * sent (the mapper's `tablePrefix` included).
   * @example
   * ```ts
   * aggregate.planScan({ customerId: 'c1' }).sources[0]?.range; // { start: { key: '03#c1#', ... }, end: { key: '03#c1$', ... } }
   * ```
   */
  planScan(prefix: CollectionPrefix<M>, options?: Omit<CollectionReadOptions<M>, keyof OperationOptions>): ScanPlan {
    const { plan } = planCollectionCall(
      this.#layout,
      prefix,
      optionsOf(options),
      this.#context.clock() * 1000,
      'planScan',
    );
    const { tablePrefix } = this.#context;
    return tablePrefix === '' ? plan : Object.freeze(new PlannedScan({ ...plan, table: tablePrefix + plan.table }));
  }
}

/** The options as the untyped scan functions take them; none given is none. */
function optionsOf(options: object | undefined): AnyCollectionOptions {
  return (options ?? {}) as AnyCollectionOptions;
}

/** The scan functions read any members' rows; the class gives their results the types of its members. */
function typed<R>(result: Promise<unknown>): Promise<R> {
  return result as Promise<R>;
}
