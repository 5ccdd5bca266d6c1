/**
 * Optional type-level marker naming an entity's key parts, so repository
 * methods and scan queries accept only those properties as keys (as
 * MikroORM's `PrimaryKeyProp`). It declares a type only: nothing is stored.
 *
 * @example
 * ```ts
 * @Entity({ table: 'readings' })
 * class Reading {
 *   declare [KeyParts]?: 'sensorId' | 'ts';
 *   @KeyPart(0, { type: 'string' }) sensorId!: string;
 *   @KeyPart(1, { type: 'timestamp' }) ts!: Date;
 * }
 * ```
 */
export const KeyParts: unique symbol = Symbol.for('bigtable-mapper:key-parts-type');

/** The entity's properties, without the {@link KeyParts} marker. @example `type P = EntityProperty<Reading>; // 'sensorId' | 'ts' | 'temperature'` */
export type EntityProperty<T> = Exclude<keyof T, typeof KeyParts> & string;

/**
 * The key properties of an entity: those named by its {@link KeyParts}
 * marker, or every property when it declares none.
 *
 * @example
 * ```ts
 * type K = KeyProperty<Reading>; // 'sensorId' | 'ts'
 * ```
 */
export type KeyProperty<T> = typeof KeyParts extends keyof T
  ? Extract<NonNullable<T[typeof KeyParts]>, EntityProperty<T>>
  : EntityProperty<T>;

/**
 * The argument of `findOne`, `delete`, `update` and friends: every key part
 * (when the entity declares {@link KeyParts}), else any of its properties.
 *
 * @example
 * ```ts
 * const key: EntityKey<Reading> = { sensorId: 's1', ts: new Date() };
 * ```
 */
export type EntityKey<T> = typeof KeyParts extends keyof T
  ? { [K in KeyProperty<T>]-?: T[K] }
  : { [K in EntityProperty<T>]?: T[K] };
