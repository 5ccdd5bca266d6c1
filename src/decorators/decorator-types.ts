/**
 * A class decorator of this library (`@Entity`, `@Family`, `@Salt`, a literal
 * `@KeyPart`). It works with legacy decorators (`experimentalDecorators: true`,
 * called with the class) and with standard decorators (TypeScript 5+ without
 * `experimentalDecorators`, called with the class and a `ClassDecoratorContext`).
 *
 * @example
 * ```ts
 * const entity: MapperClassDecorator = Entity({ table: 'readings' });
 * ```
 * @inline
 */
export type MapperClassDecorator = (target: Function, context?: ClassDecoratorContext) => void;

/**
 * A property decorator of this library (`@KeyPart`, `@Column`,
 * `@CellTimestamp`, `@Denormalized`). It works with legacy decorators
 * (`experimentalDecorators: true`, called with the prototype and the property
 * name) and with standard decorators (called on a field, or an `accessor`
 * field, with its decorator context).
 *
 * @example
 * ```ts
 * const column: MapperPropertyDecorator = Column({ family: 'm', type: 'float' });
 * ```
 * @inline
 */
export interface MapperPropertyDecorator {
  /** Legacy decorators: the class prototype and the property name. */
  (target: object, propertyKey: string | symbol): void;
  /** Standard decorators on a field. */
  (value: undefined, context: ClassFieldDecoratorContext): void;
  /** Standard decorators on an `accessor` field. */
  (value: ClassAccessorDecoratorTarget<unknown, unknown>, context: ClassAccessorDecoratorContext): void;
}
