import { describe, expect, it } from 'vitest';
import { Entity, Family, KeyPart } from '../../../src/index.js';
import { lintCollection } from '../../../src/tools.js';
import { shopEntities } from '../../fixtures/shop-entities.js';

const { Customer, Order, Address } = shopEntities('lint-shop');

@Entity({ table: 'lint-shop' })
@Family('r')
@KeyPart(1, { literal: 'orders' })
class OrderSummary {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 4 }) year!: number;
}

@Entity({ table: 'lint-shop' })
@Family('r')
@KeyPart(1, { literal: 'review' })
class Review {
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) reviewId!: number;
}

describe('lintCollection', () => {
  it('finds nothing in members that share their prefix and salt, with distinct discriminators', () => {
    expect(lintCollection('shop', { customer: Customer, orders: [Order], addresses: [Address] })).toEqual([]);
  });

  it('warns of a discriminator that begins another, which overlaps as a text prefix', () => {
    const findings = lintCollection('shop', { orders: [Order], summaries: [OrderSummary] });
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'collection-discriminator-prefix',
        severity: 'warning',
        entity: 'OrderSummary',
        message: expect.stringContaining('its discriminator "orders" begins with Order\'s "order"') as string,
        principle: expect.stringContaining('Kinds that do not overlap') as string,
      }),
    ]);
  });

  it("reports the errors mapper.collection() throws, with the key part and the rule's principle", () => {
    const findings = lintCollection('shop', { customer: Customer, reviews: [Review] });
    expect(findings).toEqual([
      {
        code: 'collection-key-prefix',
        severity: 'error',
        entity: 'Review',
        property: 'customerId',
        message:
          'Review.customerId: in collection "shop" (member "reviews"), its key part 0 is customerId (string), but Customer\'s is customerId (string, maxLength 32)',
        principle: expect.stringContaining('Related rows share a key prefix') as string,
        fix: "begin Review's key with the same key parts as Customer's (same names, types and options), then its literal",
      },
    ]);
  });

  it('checks the members argument as mapper.collection() does', () => {
    expect(() => lintCollection('shop', { customer: Customer } as never)).toThrow(/at least two members/);
  });
});
