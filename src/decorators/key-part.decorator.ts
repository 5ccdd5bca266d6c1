import { MetadataError } from '../errors/errors.js';
import type { KeyLiteralOptions, KeyPartDeclaration, KeyPartOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { assertPosition } from './identifiers.js';

/**
 * Declares a row-key component at `position` (0 = leftmost).
 *
 * On a property, the component is that property's value, encoded by `type`.
 * On the class, with `{ literal }`, the component is constant text such as an
 * entity-type prefix.
 *
 * @example
 * ```ts
 * @Entity({ table: 'events' })
 * @KeyPart(0, { literal: 'event' })
 * class Event {
 *   @KeyPart(1, { type: 'string' }) source!: string;
 *   @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
 * }
 * ```
 */
export function KeyPart(position: number, options: KeyPartOptions): PropertyDecorator;
/**
 * Declares a constant row-key component at `position`, on the class.
 *
 * @example
 * ```ts
 * @Entity({ table: 'events' })
 * @KeyPart(0, { literal: 'event' })
 * class Event { ... }
 * ```
 */
export function KeyPart(position: number, options: KeyLiteralOptions): ClassDecorator;
export function KeyPart(
  position: number,
  options: KeyPartOptions | KeyLiteralOptions,
): ClassDecorator & PropertyDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    const isClass = propertyKey === undefined;
    const ctor = (isClass ? target : target.constructor) as Function;
    const property = isClass ? undefined : String(propertyKey);
    if (typeof propertyKey === 'symbol') {
      throw new MetadataError(
        ctor.name,
        String(propertyKey),
        'symbol-keyed properties cannot be key parts',
        'use a string property name',
      );
    }
    assertPosition(ctor.name, property, position);
    if (options === null || typeof options !== 'object') {
      throw new MetadataError(
        ctor.name,
        property,
        '@KeyPart needs an options object',
        "write @KeyPart(0, { type: 'string' })",
      );
    }
    const literal = 'literal' in options;
    if (isClass && !literal) {
      throw new MetadataError(
        ctor.name,
        undefined,
        `class-level @KeyPart(${position}) must be a literal`,
        `write @KeyPart(${position}, { literal: 'prefix' }) on the class, or put @KeyPart on a property`,
      );
    }
    if (!isClass && literal) {
      throw new MetadataError(
        ctor.name,
        property,
        'a literal key part belongs on the class, not on a property',
        `move @KeyPart(${position}, { literal }) to the class`,
      );
    }
    const declaration: KeyPartDeclaration = { position, property, options: { ...options } };
    appendOwn(MetadataKeys.keyParts, ctor, declaration);
  }) as ClassDecorator & PropertyDecorator;
}
