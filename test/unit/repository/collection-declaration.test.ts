import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt, ValidationError } from '../../../src/index.js';
import { expectMetadataError } from '../../support/expect-metadata-error.js';
import { FakeDriver } from '../../support/fake-driver.js';
import { shopEntities } from '../../fixtures/shop-entities.js';

const { Customer, Order, Address } = shopEntities('decl');

function collect(members: Record<string, unknown>): unknown {
  return new BigtableMapper({ driver: new FakeDriver() }).collection('agg', members as never);
}

@Entity({ table: 'elsewhere' })
@Family('o')
@KeyPart(1, { literal: 'refund' })
class Refund {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) refundId!: number;
}

@Entity({ table: 'decl' })
@Family('n')
@KeyPart(1, { literal: 'note' })
class NumericNote {
  @KeyPart(0, { type: 'uint', width: 8 }) customerId!: number;
  @KeyPart(2, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'decl' })
@Family('n')
@KeyPart(1, { literal: 'note' })
class UnboundedNote {
  @KeyPart(0, { type: 'string' }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'decl' })
@Family('n')
class LiteralFreeNote {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) noteId!: number;
  @Column({ family: 'n', type: 'string' }) text?: string;
}

@Entity({ table: 'decl' })
@Family('n')
@KeyPart(1, { literal: 'order' })
class OrderNote {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'decl' })
@Family('n')
@KeyPart(2, { literal: 'note' })
class RegionalNote {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(1, { type: 'string', maxLength: 8 }) region!: string;
  @KeyPart(3, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'decl', separator: '|' })
@Family('n')
@KeyPart(1, { literal: 'note' })
class PipedNote {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'salted-decl' })
@Salt({ buckets: 4, on: ['customerId'] })
@Family('n')
@KeyPart(1, { literal: 'note' })
class SaltedNote {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) noteId!: number;
}

@Entity({ table: 'salted-decl' })
@Salt({ buckets: 8, on: ['customerId'] })
@Family('t')
@KeyPart(1, { literal: 'ticket' })
class EightBucketTicket {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) ticketId!: number;
}

@Entity({ table: 'salted-decl' })
@Salt({ buckets: 4 })
@Family('t')
@KeyPart(1, { literal: 'ticket' })
class WholeKeySaltedTicket {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) ticketId!: number;
}

@Entity({ table: 'salted-decl' })
@Salt({ buckets: 4, on: ['customerId'], previous: { buckets: 2, on: ['customerId'] } })
@Family('t')
@KeyPart(1, { literal: 'ticket' })
class ResaltedTicket {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) ticketId!: number;
}

@Entity({ table: 'salted-decl' })
@Family('t')
@KeyPart(1, { literal: 'ticket' })
class UnsaltedTicket {
  @KeyPart(0, { type: 'string', maxLength: 32 }) customerId!: string;
  @KeyPart(2, { type: 'uint', width: 6 }) ticketId!: number;
}

describe('mapper.collection() checks its members', () => {
  it('accepts members that share the table, the leading key parts and the salt, each with its own literal', () => {
    expect(() => collect({ customer: Customer, orders: [Order], addresses: [Address] })).not.toThrow();
  });

  it('refuses a member on another table', () => {
    const error = expectMetadataError(
      () => collect({ customer: Customer, refunds: [Refund] }),
      'Refund: in collection "agg" (member "refunds"), it is on table "elsewhere", but Customer (member "customer") is on "decl"',
      "Fix: declare @Entity({ table: 'decl' }) on Refund",
    );
    expect(error.entity).toBe('Refund');
  });

  it('names the key part that differs from the shared prefix: its type, its options, or where the literal comes', () => {
    const numeric = expectMetadataError(
      () => collect({ customer: Customer, notes: [NumericNote] }),
      'NumericNote.customerId:',
      "its key part 0 is customerId (uint, width 8), but Customer's is customerId (string, maxLength 32)",
    );
    expect(numeric.property).toBe('customerId');
    expectMetadataError(
      () => collect({ customer: Customer, notes: [UnboundedNote] }),
      'UnboundedNote.customerId: in collection "agg" (member "notes"), its key part 0 is customerId (string), but Customer\'s is customerId (string, maxLength 32)',
    );
    expectMetadataError(
      () => collect({ customer: Customer, notes: [RegionalNote] }),
      'RegionalNote.region:',
      'its key part 1 is region (string, maxLength 8), but Customer\'s is its discriminator "customer"',
    );
    expectMetadataError(
      () => collect({ customer: Customer, notes: [PipedNote] }),
      'its key separator is "|", but Customer\'s is "#"',
    );
  });

  it('needs a discriminator on every member, of its own, and an at-most-one member whose key ends there', () => {
    expectMetadataError(
      () => collect({ customer: Customer, notes: [LiteralFreeNote] }),
      'LiteralFreeNote: in collection "agg" (member "notes"), it has no discriminator',
      "Fix: add @KeyPart(1, { literal: 'note' }) to the class",
    );
    expectMetadataError(
      () => collect({ orders: [Order], notes: [OrderNote] }),
      'OrderNote: in collection "agg" (member "notes"), its discriminator "order" is also Order\'s (member "orders")',
    );
    expectMetadataError(
      () => collect({ customer: Customer, order: Order }),
      'it is an "at most one" member, but its key goes on after its discriminator "order"',
      'declare it as many ({ order: [Order] })',
    );
  });

  it('needs one salt, on the shared key parts, with no migration in progress', () => {
    expectMetadataError(
      () => collect({ notes: [SaltedNote], tickets: [EightBucketTicket] }),
      'EightBucketTicket: in collection "agg" (member "tickets"), its @Salt has 8 buckets, not 4',
    );
    expectMetadataError(
      () => collect({ notes: [SaltedNote], tickets: [WholeKeySaltedTicket] }),
      'its @Salt on [customerId, ticketId] reaches past the key parts the members share',
      "@Salt({ buckets: 4, on: ['customerId'] })",
    );
    expectMetadataError(
      () => collect({ notes: [SaltedNote], tickets: [ResaltedTicket] }),
      'its @Salt previous is a migration in progress',
      'mapper.resalt(ResaltedTicket)',
    );
    expectMetadataError(
      () => collect({ notes: [SaltedNote], tickets: [UnsaltedTicket] }),
      'UnsaltedTicket: in collection "agg" (member "tickets"), it is not salted, but SaltedNote is salted',
    );
  });

  it('refuses members given as anything but classes, and a member named unknownRows', () => {
    expect(() => collect({ customer: Customer })).toThrow(/at least two members/);
    expect(() => collect({ customer: Customer, orders: [Order, Address] })).toThrow(ValidationError);
    expect(() => collect({ customer: Customer, orders: 'Order' })).toThrow(/agg\.orders: a member is an entity class/);
    expect(() => collect({ customer: Customer, unknownRows: [Order] })).toThrow(/cannot name a member/);
    expect(() =>
      new BigtableMapper({ driver: new FakeDriver() }).collection('', { customer: Customer, orders: [Order] }),
    ).toThrow(/the name must be non-empty/);
  });
});
