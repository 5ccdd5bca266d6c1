import { MetadataError } from '../errors/errors.js';
import type { KeyLiteralOptions, KeyPartDeclaration, KeyPartOptions } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { appendOwn } from '../metadata/store.js';
import { decorateClass, decorateProperty, isClassCall } from './decorator-call.js';
import type { MapperClassDecorator, MapperPropertyDecorator } from './decorator-types.js';
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
export function KeyPart(position: number, options: KeyPartOptions): MapperPropertyDecorator;
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
export function KeyPart(position: number, options: KeyLiteralOptions): MapperClassDecorator;
export function KeyPart(
  position: number,
  options: KeyPartOptions | KeyLiteralOptions,
): MapperClassDecorator & MapperPropertyDecorator {
  return (...args: unknown[]) => {
    if (isClassCall(args)) {
      decorateClass('@KeyPart', args, ({ entity, holder }) =>
        recordKeyPart(entity, holder, undefined, position, options),
      );
    } else {
      decorateProperty('@KeyPart', args, ({ entity, holder, property }) => {
        if (typeof property === 'symbol') {
          throw new MetadataError(
            entity,
            String(property),
            'symbol-keyed properties cannot be key parts',
            'use a string property name',
          );
        }
        recordKeyPart(entity, holder, property, position, options);
      });
    }
  };
}

function recordKeyPart(
  entity: string,
  holder: object,
  property: string | undefined,
  position: number,
  options: KeyPartOptions | KeyLiteralOptions,
): void {
  const isClass = property === undefined;
  assertPosition(entity, property, position);
  if (options === null || typeof options !== 'object') {
    throw new MetadataError(
      entity,
      property,
      '@KeyPart needs an options object',
      "write @KeyPart(0, { type: 'string' })",
    );
  }
  const literal = 'literal' in options;
  if (isClass && !literal) {
    throw new MetadataError(
      entity,
      undefined,
      `class-level @KeyPart(${position}) must be a literal`,
      `write @KeyPart(${position}, { literal: 'prefix' }) on the class, or put @KeyPart on a property`,
    );
  }
  if (!isClass && literal) {
    throw new MetadataError(
      entity,
      property,
      'a literal key part belongs on the class, not on a property',
      `move @KeyPart(${position}, { literal }) to the class`,
    );
  }
  const declaration: KeyPartDeclaration = { position, property, options: { ...options } };
  appendOwn(MetadataKeys.keyParts, holder, declaration);
}
