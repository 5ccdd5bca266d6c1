import { MetadataError } from '../errors/errors.js';

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Property names an entity cannot map: every member of `Object.prototype`
 * (`__proto__`, `constructor`, `toString`, `hasOwnProperty`, ...) and
 * `prototype`. Assigning one on an instance swaps its prototype or shadows a
 * method that hydration, class-transformer and callers rely on, so reads of
 * every row would break. Qualifiers and families may still use such names
 * (`@Column({ qualifier: 'constructor' })` on another property).
 */
const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set([...PROTOTYPE_NAMES, 'prototype']);

/**
 * Whether plain property access on a row's cells could return something the
 * row does not hold: the name of an `Object.prototype` member (`constructor`,
 * `toString`, `__proto__`, ...). Cells under such names are looked up as own
 * properties only.
 * @internal
 */
export function inheritedName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/**
 * Throws `MetadataError` when a mapped property (key part, column, cell
 * timestamp, flattened field) has a reserved name; `path` names it in the
 * message (e.g. `address.constructor` for a field).
 * @internal
 */
export function checkPropertyName(entity: string, name: string, role: string, path: string = name): void {
  if (!RESERVED_PROPERTY_NAMES.has(name)) return;
  throw new MetadataError(
    entity,
    path,
    `is a reserved name for a ${role}: it is a member of every JavaScript object (Object.prototype), and mapping it would break reading every row`,
    `rename the property (e.g. ${name.replace(/^_+|_+$/g, '') || 'value'}Value) and, to keep the stored name, set it as the qualifier: @Column({ qualifier: '${name}' })`,
  );
}
