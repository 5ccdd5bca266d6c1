import type { Constructor } from '../model/declarations.js';
import type { EntityProperty, KeyParts, KeyProperty } from '../metadata/compile-key-plan.js';
import type { Selected } from '../read/read-options.js';
import type { OperationOptions } from '../operation/operation.js';

/**
 * The members of a collection: member names to entity classes. A bare class
 * is a member a prefix holds at most one row of (`customer: Customer`); a
 * class in a one-element array one it holds many of (`orders: [Order]`).
 * `unknownRows` names no member: `read()` reports the rows of no member there.
 *
 * @example
 * ```ts
 * const members = { customer: Customer, orders: [Order], addresses: [Address] } satisfies CollectionMembers;
 * ```
 */
export type CollectionMembers = Readonly<Record<string, Constructor<object> | readonly [Constructor<object>]>> & {
  readonly unknownRows?: never;
};

/** The entity class of a member, unwrapped from its array. */
type MemberEntity<C> = C extends readonly [Constructor<infer T>] ? T : C extends Constructor<infer T> ? T : never;

/** The key properties every member has: the intersection of the members' key properties. */
type SharedKeyProperty<M> = ({ [K in keyof M]: (property: KeyProperty<MemberEntity<M[K]>>) => void }[keyof M] extends (
  property: infer I,
) => void
  ? I
  : never) &
  string;

/** The type of a shared key property, as the members declare it. */
type SharedValue<E, P> = E extends unknown ? (P extends keyof E ? NonNullable<E[P]> : never) : never;

/** The members whose class declares no {@link KeyParts} marker (their key properties are unknown to the type). */
type UnmarkedMember<M> = { [K in keyof M]: typeof KeyParts extends keyof MemberEntity<M[K]> ? never : K }[keyof M];

/**
 * What a collection read takes: the values of the key parts its members
 * share, each of them (checked when called). When every member declares its
 * key parts with the {@link KeyParts} marker they are required by the type;
 * otherwise the type offers the properties the members have in common.
 *
 * @example
 * ```ts
 * const prefix: CollectionPrefix<typeof members> = { customerId: 'c1' };
 * ```
 */
export type CollectionPrefix<M extends CollectionMembers> = [UnmarkedMember<M>] extends [never]
  ? { [P in SharedKeyProperty<M>]: SharedValue<MemberEntity<M[keyof M]>, P> }
  : { [P in SharedKeyProperty<M>]?: SharedValue<MemberEntity<M[keyof M]>, P> };

/**
 * How a collection is read: the columns and the most rows of each kind, the
 * order, where to resume, and the call's deadline and signal.
 *
 * @example
 * ```ts
 * await aggregate.read({ customerId: 'c1' }, { select: { orders: ['total'] }, limit: { orders: 10 }, order: 'key-desc' });
 * ```
 */
export interface CollectionReadOptions<M extends CollectionMembers> extends OperationOptions {
  /** Per member, the properties to read (key parts always come from the key), as a repository's `select`; default every column. */
  select?: { readonly [K in keyof M]?: readonly EntityProperty<MemberEntity<M[K]>>[] };
  /** Per member, the most rows returned (a non-negative integer); default no limit. Rows over it are read and skipped. */
  limit?: { readonly [K in keyof M]?: number };
  /** `key` (default): ascending row key order; `key-desc`: descending, the range read reversed by Bigtable. */
  order?: 'key' | 'key-desc';
  /** Resume after the last item of a page (from `collection.page()`), with the same prefix and options. */
  cursor?: string;
}

/** The selected properties of member `K` under options `O`; every property when it has no `select`. */
type SelectionOf<O, K, T> = O extends { readonly select?: infer Sel }
  ? K extends keyof Sel
    ? NonNullable<Sel[K]> extends readonly (infer S)[]
      ? S & EntityProperty<T>
      : EntityProperty<T>
    : EntityProperty<T>
  : EntityProperty<T>;

/**
 * An entity of member `K` as a read with options `O` returns it: the whole
 * entity, or with a `select` for `K` its key parts and the selected
 * properties (see `Selected`).
 * @example
 * ```ts
 * type O = CollectionEntity<typeof members, 'orders', { select: { orders: ['total'] } }>; // Pick<Order, 'customerId' | 'orderId' | 'total'>
 * ```
 */
export type CollectionEntity<M extends CollectionMembers, K extends keyof M, O = CollectionReadOptions<M>> = Selected<
  MemberEntity<M[K]>,
  SelectionOf<O, K, MemberEntity<M[K]>>
>;

/**
 * What `collection.read()` resolves with: per member, its entity
 * (`undefined` when the prefix holds none) or its entities in key order, and
 * `unknownRows`, the rows that belong to no member: their key holds the
 * shared prefix, then no member's discriminator (a kind written by another
 * program, or by a member since removed). `unknownRows.rowKeys` holds the
 * first 100 of their keys as printable text (`\xNN` for bytes that are not
 * printable ASCII); `unknownRows.count` counts all.
 *
 * @example
 * ```ts
 * const { customer, orders, unknownRows }: CollectionResult<typeof members> = await aggregate.read({ customerId: 'c1' });
 * if (unknownRows.count > 0) log.warn('rows of no member', unknownRows.rowKeys);
 * ```
 */
export type CollectionResult<M extends CollectionMembers, O = CollectionReadOptions<M>> = {
  -readonly [K in keyof M]: M[K] extends readonly unknown[]
    ? CollectionEntity<M, K, O>[]
    : CollectionEntity<M, K, O> | undefined;
} & {
  /** The rows that belong to no member. */
  unknownRows: {
    /** How many rows of no member were read. */
    readonly count: number;
    /** The first 100 of their row keys, as printable text. */
    readonly rowKeys: readonly string[];
  };
};

/**
 * One row of a collection scan, told apart by `kind`: the member's name and
 * its `entity`; or, for a row that belongs to no member, `kind: undefined`
 * and `rowKey`, the row's key as printable text (`\xNN` for bytes that are
 * not printable ASCII).
 *
 * @example
 * ```ts
 * for await (const item of aggregate.iterate({ customerId: 'c1' })) {
 *   if (item.kind === 'orders') total += item.entity.total ?? 0;
 *   else if (item.kind === undefined) log.warn('row of no member', item.rowKey);
 * }
 * ```
 */
export type CollectionItem<M extends CollectionMembers, O = CollectionReadOptions<M>> =
  | {
      [K in keyof M & string]: {
        /** The member's name. */
        readonly kind: K;
        /** The member's entity, narrowed by its `select`. */
        readonly entity: CollectionEntity<M, K, O>;
      };
    }[keyof M & string]
  | {
      /** No member: the row's discriminator names none. */
      readonly kind: undefined;
      /** The row key, as printable text. */
      readonly rowKey: string;
    };

/** The names of {@link CollectionReadOptions}. @internal */
export const COLLECTION_READ_OPTION_NAMES: readonly string[] = Object.keys({
  select: true,
  limit: true,
  order: true,
  cursor: true,
  signal: true,
  timeoutMs: true,
  attemptTimeoutMs: true,
  idleTimeoutMs: true,
  appProfileId: true,
} satisfies Record<keyof CollectionReadOptions<CollectionMembers>, true>);
