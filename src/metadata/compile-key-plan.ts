import { createKeyCodec } from '../codec/key-codecs.js';
import { createOrderedKeyCodec } from '../codec/ordered-code.js';
import { compileSalt } from './compile-salt.js';
import { MetadataError } from '../errors/errors.js';
import type {
  DataProperty,
  EntityData,
  KeyFormat,
  KeyPartDeclaration,
  KeyPartOptions,
  RequiredDataProperty,
  SaltOptions,
} from '../model/declarations.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import {
  withCompiled,
  type KeyByteLayout,
  type KeyByteStep,
  type KeyComponentSchema,
  type KeyPlan,
} from './entity-schema.js';
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
  keyFormat: unknown = 'text',
): KeyPlan {
  const format = checkKeyFormat(entity, keyFormat, salt);
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
        : propertyComponent(entity, target, d, d.property, separator, format),
    );
  }
  checkVerbatimPlacement(entity, components, separator);
  const frozen = Object.freeze(components);
  if (format === 'ordered-code') checkFieldNames(entity, frozen, salt !== undefined);
  return withCompiledKey({
    format,
    separator,
    components: frozen,
    properties: Object.freeze(components.flatMap((c) => (c.kind === 'property' ? [c.property] : []))),
    salt: salt === undefined ? undefined : compileSalt(entity, salt, frozen, separator),
  });
}

/**
 * Gives a key plan, not yet frozen, what the compile pass derives from it:
 * its byte layout and, while it is re-salted, the same key under its
 * previous layout (no salt when it was unsalted).
 * @internal
 */
export function withCompiledKey(plan: KeyPlan): KeyPlan {
  const byteLayout = keyByteLayout(plan);
  const previousSalt = plan.salt?.previous;
  const previous =
    previousSalt === undefined
      ? undefined
      : Object.freeze(withCompiled({ ...plan, salt: previousSalt ?? undefined }, { byteLayout, previous: undefined }));
  return withCompiled(plan, { byteLayout, previous });
}

/**
 * The layout the logical key decodes by straight from its bytes: only
 * literals and components whose codec decodes bytes (`uint`, epoch
 * timestamps), split by a one-byte ASCII separator. `undefined` when any part
 * needs the text, or a literal does not survive UTF-8 (a lone surrogate).
 */
function keyByteLayout(plan: KeyPlan): KeyByteLayout | undefined {
  const { separator, components } = plan;
  if (separator.length !== 1 || separator.charCodeAt(0) >= 0x80 || components.length === 0) return undefined;
  const steps: KeyByteStep[] = [];
  for (const component of components) {
    if (component.kind === 'literal') {
      const literal = Buffer.from(component.literal, 'utf8');
      if (literal.toString('utf8') !== component.literal) return undefined;
      steps.push({ literal });
      continue;
    }
    const decode = component.codec.decodeBytes;
    if (decode === undefined) return undefined;
    steps.push({ property: component.property, decode });
  }
  return { separator: separator.charCodeAt(0), steps };
}

/** Validates `@Entity` `keyFormat`, and the `@Salt` options an `ordered-code` key has no use for. */
function checkKeyFormat(entity: string, keyFormat: unknown, salt: SaltOptions | undefined): KeyFormat {
  if (keyFormat !== 'text' && keyFormat !== 'ordered-code') {
    throw new MetadataError(
      entity,
      undefined,
      `@Entity keyFormat ${preview(keyFormat)} is not a key format`,
      "use keyFormat: 'text' (the default) or 'ordered-code'",
    );
  }
  if (keyFormat === 'ordered-code' && salt?.format !== undefined)
    throw new MetadataError(
      entity,
      undefined,
      "@Salt format sets the text of the bucket, but keyFormat 'ordered-code' stores the bucket as an Int64 field",
      'remove format from @Salt',
    );
  if (keyFormat === 'ordered-code' && salt?.since !== undefined)
    throw new MetadataError(
      entity,
      undefined,
      "@Salt since migrates text keys written before salting, which keyFormat 'ordered-code' never has",
      'remove since from @Salt',
    );
  if (keyFormat === 'ordered-code' && salt?.previous !== undefined)
    throw new MetadataError(
      entity,
      undefined,
      "@Salt previous re-salts text keys; keyFormat 'ordered-code' keys are not supported yet",
      'remove previous from @Salt',
    );
  return keyFormat;
}

/**
 * The row key schema names every field: the salt bucket `salt`, a literal
 * `literal<position>`, a property its own name. Properties must not take the
 * names the others use.
 */
function checkFieldNames(entity: string, components: readonly KeyComponentSchema[], salted: boolean): void {
  const taken = new Set(components.flatMap((c) => (c.kind === 'literal' ? [`literal${c.position}`] : [])));
  if (salted) taken.add('salt');
  for (const c of components) {
    if (c.kind === 'property' && taken.has(c.property))
      throw new MetadataError(
        entity,
        c.property,
        `the row key schema of keyFormat 'ordered-code' already names another field "${c.property}" (the salt bucket is "salt", literals are "literal<position>")`,
        'rename the property',
      );
  }
}

/**
 * A verbatim part with neither a width nor a charset may hold the separator,
 * so only the last key part, which decoding gives the rest of the key, can be one.
 */
function checkVerbatimPlacement(entity: string, components: readonly KeyComponentSchema[], separator: string): void {
  const last = components.length - 1;
  for (const [index, c] of components.entries()) {
    if (c.kind !== 'property' || index === last) continue;
    const rules = c.codec.verbatim;
    if (rules === undefined || rules.width !== undefined || rules.charset !== undefined) continue;
    throw new MetadataError(
      entity,
      c.property,
      `verbatim key part at position ${index} is not the last key part, and may hold the separator ${preview(separator)}, so the key could not be split back into its parts`,
      `make it the last key part, give it a width (every value exactly that long), or a charset without ${preview(separator)} such as charset: 'alnum'`,
    );
  }
}

function describe(d: KeyPartDeclaration): string {
  return d.property ?? `the literal ${JSON.stringify(literalOf(d))}`;
}

/** The `literal` option of a class-level `@KeyPart` (the decorator allows no other there). */
function literalOf(d: KeyPartDeclaration): unknown {
  return 'literal' in d.options ? d.options.literal : undefined;
}

function literalComponent(entity: string, d: KeyPartDeclaration, separator: string): KeyComponentSchema {
  const literal = literalOf(d);
  if (typeof literal !== 'string' || literal === '' || literal.includes(separator) || literal.includes('%')) {
    throw new MetadataError(
      entity,
      undefined,
      `literal key part ${JSON.stringify(literal)} at position ${d.position} must be non-empty text without ${JSON.stringify(separator)} or "%"`,
      'choose a constant such as "event"',
    );
  }
  return Object.freeze({ kind: 'literal', position: d.position, literal });
}

function propertyComponent(
  entity: string,
  target: Function,
  d: KeyPartDeclaration,
  property: string,
  separator: string,
  format: KeyFormat,
): KeyComponentSchema {
  const options = d.options as KeyPartOptions;
  if (format === 'ordered-code' && (options.verbatim !== undefined || options.charset !== undefined))
    throw new MetadataError(
      entity,
      property,
      "verbatim and charset shape the text of keyFormat 'text' keys; keyFormat 'ordered-code' encodes every part as a struct field",
      "remove verbatim and charset, or use keyFormat: 'text' to adopt a hand-written table",
    );
  const codec =
    format === 'ordered-code'
      ? createOrderedKeyCodec(entity, property, options)
      : createKeyCodec(entity, property, options, separator);
  checkDesignType(entity, target, property, options.type);
  return Object.freeze({ kind: 'property', position: d.position, property, codec });
}

/** The component of key property `property`; `undefined` when it is not one. @internal */
export function keyPropertyComponent(
  components: readonly KeyComponentSchema[],
  property: string,
): Extract<KeyComponentSchema, { kind: 'property' }> | undefined {
  for (const component of components)
    if (component.kind === 'property' && component.property === property) return component;
  return undefined;
}

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

/**
 * The entity's properties, without the {@link KeyParts} marker.
 * @example
 * ```ts
 * type P = EntityProperty<Reading>; // 'sensorId' | 'ts' | 'temperature'
 * ```
 */
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
 * What the write methods (`save`, `saveMany`, `replace`, `saveIf`, `compileSave`) take: an instance of
 * the entity class, or a plain object of its data properties (methods and getters need not be there).
 * With the {@link KeyParts} marker every key part is required; without it, at least one property
 * declared required (`!`), as for {@link EntityKey}.
 * @example
 * ```ts
 * await channels.save({ tenantId: 'a', channelId: 'b', topic: 'x' }); // Channel has a getter and a method
 * ```
 */
export type EntityInput<T> = typeof KeyParts extends keyof T
  ? EntityData<T> & { [K in KeyProperty<T>]-?: T[K] }
  : EntityData<T> & EntityKey<T>;

/**
 * The properties `increment` takes: those typed `number` or `bigint` (the column must also be declared
 * `int` or `bigint`, which is checked when called).
 * @example
 * ```ts
 * type C = CounterProperty<Channel>; // 'unread', not 'topic'
 * ```
 */
export type CounterProperty<T> = {
  [K in EntityProperty<T>]-?: NonNullable<T[K]> extends number | bigint ? K : never;
}[EntityProperty<T>];

/**
 * The changes `update` takes: data properties, `null` to delete a cell. With the {@link KeyParts}
 * marker, key parts are left out (a key cannot change).
 * @example
 * ```ts
 * const changes: EntityChanges<Channel> = { topic: 'news', pinned: null };
 * ```
 */
export type EntityChanges<T> = {
  [K in typeof KeyParts extends keyof T ? Exclude<DataProperty<T>, KeyProperty<T>> : DataProperty<T>]?: T[K] | null;
};

/**
 * The argument of `findOne`, `delete`, `update` and friends. With the
 * {@link KeyParts} marker: exactly the key parts, each required. Without it:
 * a non-empty object of the entity's data properties (no methods, nothing
 * unknown) that holds at least one property declared required (`!`, as key
 * parts are), so `{}` or a key of optional columns only does not compile.
 *
 * @example
 * ```ts
 * const key: EntityKey<Reading> = { sensorId: 's1', ts: new Date() };
 * ```
 */
export type EntityKey<T> = typeof KeyParts extends keyof T
  ? { [K in KeyProperty<T>]-?: T[K] }
  : {
      // For each property K: K required, every other data property optional (flattened into one object type).
      [K in DataProperty<T>]: { [P in K]-?: Exclude<T[P], undefined> } & {
        [P in Exclude<DataProperty<T>, K>]?: T[P];
      } extends infer Key
        ? { [P in keyof Key]: Key[P] }
        : never;
    }[[RequiredDataProperty<T>] extends [never] ? DataProperty<T> : RequiredDataProperty<T>];
