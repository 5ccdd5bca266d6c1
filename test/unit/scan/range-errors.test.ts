import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { KeyEncodingError, ValidationError } from '../../../src/errors/index.js';
import { logicalKeyRange } from '../../../src/key/key-ranges.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { planScan } from '../../../src/scan/plan-scan.js';
import { range, type ScanQuery } from '../../../src/scan/scan-query.js';

/**
 * Every error that comes from a bad `range()` on a key part names the part
 * as `Entity.property`, and says how to fix it.
 */

@Entity({ table: 'orders' })
@Family('d')
class Order {
  @KeyPart(0, { type: 'string' }) tenantId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
  @KeyPart(2, { type: 'uint', width: 6 }) seq!: number;
  @Column({ family: 'd', type: 'string' }) item?: string;
}

@Entity({ table: 'ordered-orders', keyFormat: 'ordered-code' })
@Family('d')
class OrderedOrder {
  @KeyPart(0, { type: 'string' }) tenantId!: string;
  @KeyPart(1, { type: 'int' }) seq!: number;
  @Column({ family: 'd', type: 'string' }) item?: string;
}

const orders = compileEntity(Order);
const ordered = compileEntity(OrderedOrder);

/** The error thrown by planning a scan whose `where` puts `bad` on `at` (after a fixed tenant). */
function onAt(bad: () => unknown): Error {
  try {
    planScan(orders, { where: { tenantId: 't1', at: bad() } } as ScanQuery<Order>);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the scan to be rejected');
}

const t0 = new Date(0);
const t1 = new Date(1_000);

describe('range() errors name the key part they belong to', () => {
  it.each([
    ['null bounds', () => range(null as never), /range\(\) takes an object of bounds.*got null/],
    ['a number', () => range(5 as never), /got number/],
    ['an array', () => range([t0] as never), /got an array/],
    ['an unknown bound', () => range({ from: t0 } as never), /unknown bound "from"/],
    [
      'a __proto__ bound from JSON',
      () => range(JSON.parse('{"__proto__":{"gte":1}}') as never),
      /unknown bound "__proto__"/,
    ],
    ['a symbol bound', () => range({ [Symbol('gte')]: t0 } as never), /unknown bound Symbol\(gte\)/],
    [
      'gt with gte',
      () => range({ gt: t0, gte: t1 } as never),
      /gives both gt and gte.*Fix: give only one lower bound/s,
    ],
    [
      'lt with lte',
      () => range({ lt: t0, lte: t1 } as never),
      /gives both lt and lte.*Fix: give only one upper bound/s,
    ],
    ['an inverted range', () => range({ gte: t1, lt: t0 }), /inverted or empty/],
    ['an empty range', () => range({ gt: t0, lte: t0 }), /inverted or empty/],
  ])('%s: ValidationError "Order.at: ... Fix: ..."', (_name, bad, problem) => {
    const error = onAt(bad);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/^Order\.at: /);
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/Fix: /);
    expect((error as ValidationError).details).toMatchObject({ entity: 'Order', property: 'at' });
  });

  it('a bound of the wrong type: KeyEncodingError "Order.at: ..." with the fix', () => {
    const error = onAt(() => range({ gte: 'yesterday' as unknown as Date }));
    expect(error).toBeInstanceOf(KeyEncodingError);
    expect(error.message).toMatch(/^Order\.at: /);
    expect(error.message).toMatch(/Fix: /);
  });

  it('names the part on the first key part and on an ordered-code key', () => {
    const first = (() => {
      try {
        planScan(orders, { where: { tenantId: range({ gte: 'b', lt: 'a' }) } });
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(first?.message).toMatch(/^Order\.tenantId: the range on "tenantId" is inverted or empty.*Fix: /s);
    expect(() => planScan(ordered, { where: { tenantId: 't', seq: range({ gt: 5, lt: 5 }) } })).toThrow(
      /^OrderedOrder\.seq: the range on "seq" is inverted or empty/,
    );
  });

  it('a range that is not on the next key part, or on a part already fixed, names that part', () => {
    expect(() => logicalKeyRange(orders, {}, { property: 'at', gte: t0 })).toThrow(
      /^Order\.at: a key range must be on "tenantId".*Fix: /s,
    );
    expect(() => logicalKeyRange(orders, { tenantId: 't', at: t0, seq: 1 }, { property: 'seq', gte: 1 })).toThrow(
      /^Order\.seq: cannot range over "seq": every key part is already fixed.*Fix: /s,
    );
  });

  it('a good range still plans, and range() itself never throws: its problems surface with the part', () => {
    expect(() => planScan(orders, { where: { tenantId: 't1', at: range({ gte: t0, lt: t1 }) } })).not.toThrow();
    expect(() => range({ gt: t0, gte: t1 } as never)).not.toThrow();
  });
});
