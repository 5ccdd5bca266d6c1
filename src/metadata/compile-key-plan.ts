import { createKeyCodec } from '../codec/key-codecs.js';
import { compileSalt } from './compile-salt.js';
import { MetadataError } from '../errors/metadata-error.js';
import type { KeyLiteralOptions, KeyPartDeclaration, KeyPartOptions, SaltOptions } from '../model/declarations.js';
import type { KeyComponentSchema, KeyPlan } from './entity-schema.js';
import { checkDesignType } from './design-type.js';

/**
 * Validates key-part declarations and builds the key plan: components in
 * position order, their codecs, and the compiled salt.
 * @internal
 */
export function compileKeyPlan(
  entity: string,
  target: Function,
  declarations: readonly KeyPartDeclaration[],
  separator: string,
  salt: SaltOptions | undefined,
): KeyPlan {
  if (!declarations.some((d) => d.property !== undefined)) {
    throw new MetadataError(
      entity,
      undefined,
      'has no key parts',
      "decorate at least one property with @KeyPart(0, { type: 'string' })",
    );
  }
  const byPosition = new Map<number, KeyPartDeclaration>();
  for (const d of declarations) {
    const other = byPosition.get(d.position);
    if (other) {
      throw new MetadataError(
        entity,
        d.property,
        `key position ${d.position} is also used by ${describe(other)}`,
        'give every key part its own position',
      );
    }
    byPosition.set(d.position, d);
  }
  const components: KeyComponentSchema[] = [];
  for (let position = 0; position < byPosition.size; position++) {
    const d = byPosition.get(position);
    if (!d) {
      const used = [...byPosition.keys()].sort((a, b) => a - b).join(', ');
      throw new MetadataError(
        entity,
        undefined,
        `key positions have a gap: ${position} is missing (used: ${used})`,
        'number key parts 0, 1, 2, ... without gaps',
      );
    }
    components.push(
      d.property === undefined
        ? literalComponent(entity, d, separator)
        : propertyComponent(entity, target, d, separator),
    );
  }
  const frozen = Object.freeze(components);
  return {
    format: 'text',
    separator,
    components: frozen,
    properties: Object.freeze(components.flatMap((c) => (c.property === undefined ? [] : [c.property]))),
    salt: salt === undefined ? undefined : compileSalt(entity, salt, frozen, separator),
  };
}

function describe(d: KeyPartDeclaration): string {
  return d.property === undefined
    ? `the literal ${JSON.stringify((d.options as KeyLiteralOptions).literal)}`
    : `${d.property}`;
}

function literalComponent(entity: string, d: KeyPartDeclaration, separator: string): KeyComponentSchema {
  const literal = (d.options as KeyLiteralOptions).literal;
  if (typeof literal !== 'string' || literal === '' || literal.includes(separator) || literal.includes('%')) {
    throw new MetadataError(
      entity,
      undefined,
      `literal key part ${JSON.stringify(literal)} at position ${d.position} must be non-empty text without ${JSON.stringify(separator)} or "%"`,
      'choose a constant such as "event"',
    );
  }
  return Object.freeze({ position: d.position, kind: 'literal', property: undefined, literal, codec: undefined });
}

function propertyComponent(
  entity: string,
  target: Function,
  d: KeyPartDeclaration,
  separator: string,
): KeyComponentSchema {
  const property = d.property as string;
  const options = d.options as KeyPartOptions;
  const codec = createKeyCodec(entity, property, options, separator);
  checkDesignType(entity, target, property, options.type);
  return Object.freeze({ position: d.position, kind: 'property', property, literal: undefined, codec });
}
