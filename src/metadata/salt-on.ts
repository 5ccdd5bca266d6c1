import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { KeyComponentSchema } from './entity-schema.js';

/**
 * Hashed properties of a salt, in key order, and how many leading key
 * components (literals included) their logical text spans.
 */
interface SaltSpan {
  readonly on: readonly string[];
  readonly prefixLength: number;
}

/**
 * Validates `@Salt({ on })` against the key components (sorted by position):
 * property names only, no duplicates, forming a leading run of the key's
 * properties (any literal between them is part of the hashed text). Default:
 * every property.
 * @internal
 */
export function resolveSaltOn(entity: string, on: unknown, components: readonly KeyComponentSchema[]): SaltSpan {
  const properties = components.flatMap((c) => (c.kind === 'property' ? [c] : []));
  const names = properties.map((c) => c.property);
  const keyList = names.join(', ');
  if (properties.length === 0) {
    throw new MetadataError(
      entity,
      undefined,
      '@Salt needs a key property to hash, but the key has none',
      'declare a @KeyPart property, or remove @Salt',
    );
  }
  if (on !== undefined && (!Array.isArray(on) || on.length === 0)) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt on must be a non-empty array of key property names, got ${preview(on)}`,
      `list leading key properties, e.g. on: ['${names[0]}'], or omit on to hash the whole key`,
    );
  }
  const listed: unknown[] = on ?? names;
  const seen = new Set<string>();
  for (const name of listed) checkName(entity, name, seen, components, keyList);
  const count = seen.size;
  const leading = names.slice(0, count);
  if (!leading.every((n) => seen.has(n))) {
    const choices = names
      .map(
        (_, i) =>
          `[${names
            .slice(0, i + 1)
            .map((n) => `'${n}'`)
            .join(', ')}]`,
      )
      .join(' or ');
    throw new MetadataError(
      entity,
      undefined,
      `@Salt on [${listed.map((n) => `'${String(n)}'`).join(', ')}] is not a leading run of the key properties (${keyList}): rows are salted by a prefix of their key`,
      `use on: ${choices}`,
    );
  }
  const last = properties[count - 1] as KeyComponentSchema;
  return Object.freeze({ on: Object.freeze(leading), prefixLength: components.indexOf(last) + 1 });
}

function checkName(
  entity: string,
  name: unknown,
  seen: Set<string>,
  components: readonly KeyComponentSchema[],
  keyList: string,
): void {
  if (typeof name !== 'string') {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt on lists ${preview(name)}, which is not a property name`,
      `list key property names as strings (${keyList})`,
    );
  }
  if (seen.has(name)) {
    throw new MetadataError(entity, name, `@Salt on lists "${name}" twice`, `list each key property once`);
  }
  const match = components.find((c) => (c.kind === 'property' ? c.property === name : c.literal === name));
  if (match === undefined) {
    throw new MetadataError(
      entity,
      name,
      `@Salt on lists "${name}", which is not a key part`,
      `list key properties only (${keyList})`,
    );
  }
  if (match.kind === 'literal') {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt on lists "${name}", which is a literal key part`,
      `list key properties only (${keyList}); literals before the last listed property are hashed with it`,
    );
  }
  seen.add(name);
}
