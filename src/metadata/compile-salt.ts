import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { SaltOptions } from '../model/declarations.js';
import type { KeyComponentSchema, SaltSchema } from './entity-schema.js';
import { resolveSaltHash } from '../codec/hash-presets.js';

const MAX_WIDTH = 16;

/**
 * Validates `@Salt` options against the entity's key components and returns
 * the frozen `SaltSchema`. Throws `MetadataError` naming the entity and the
 * option. `format.width` is the minimum number of digits (zero-padded).
 * @internal
 */
export function compileSalt(
  entity: string,
  options: SaltOptions,
  components: readonly KeyComponentSchema[],
  separator: string,
): SaltSchema {
  if (options === null || typeof options !== 'object') {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt needs an options object, got ${preview(options)}`,
      'write @Salt({ buckets: 8 })',
    );
  }
  rejectUnknownKeys(entity, options, ['buckets', 'on', 'hash', 'format', 'since', 'previous'], '@Salt');
  const { buckets } = options;
  const hash = resolveSaltHash(entity, options.hash, buckets);
  const ordered = [...components].sort((a, b) => a.position - b.position);
  const span = resolveSaltOn(entity, options.on, ordered);
  const format = resolveFormat(entity, options.format, buckets, separator);
  return Object.freeze({
    buckets,
    on: span.on,
    prefixLength: span.prefixLength,
    hash: hash.name,
    bucketOf: hash.bucketOf,
    width: format.width,
    separator: format.separator,
    allBuckets: hash.allBuckets,
    since: resolveSince(entity, options.since, ordered),
    previous: resolvePrevious(entity, options, components, separator),
  });
}

/** The layout a re-salted entity's rows are moved from: compiled like `@Salt` itself, without `since` or its own `previous`. */
function resolvePrevious(
  entity: string,
  options: SaltOptions,
  components: readonly KeyComponentSchema[],
  separator: string,
): SaltSchema | null | undefined {
  const { previous } = options;
  if (previous === undefined || previous === null) return previous;
  if (typeof previous !== 'object') {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt previous must be the previous layout's options or null, got ${preview(previous)}`,
      'write previous: { buckets: 4 } (or null when the rows were unsalted)',
    );
  }
  if (options.since !== undefined) {
    throw new MetadataError(
      entity,
      undefined,
      '@Salt since and previous are two migrations of the same rows',
      'finish one first: remove since, or remove previous',
    );
  }
  rejectUnknownKeys(entity, previous, ['buckets', 'on', 'hash', 'format'], '@Salt previous');
  return compileSalt(entity, previous, components, separator);
}

function resolveFormat(
  entity: string,
  format: SaltOptions['format'],
  buckets: number,
  keySeparator: string,
): { width: number; separator: string } {
  if (format !== undefined && (format === null || typeof format !== 'object')) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt format must be an object, got ${preview(format)}`,
      "write format: { width: 2, separator: '#' }",
    );
  }
  if (format !== undefined) rejectUnknownKeys(entity, format, ['width', 'separator'], '@Salt format');
  const width = format?.width ?? Math.max(2, String(buckets - 1).length);
  if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt format.width must be an integer from 1 to ${MAX_WIDTH}, got ${preview(width)}`,
      `omit it for the default of ${Math.max(2, String(buckets - 1).length)} digits, or give the width existing keys use (unpadded buckets such as '3-…' are width 1)`,
    );
  }
  const separator = format?.separator ?? keySeparator;
  if (typeof separator !== 'string' || separator === '' || separator.includes('%') || /^[0-9]/.test(separator)) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt format.separator must be a non-empty string without '%' that does not start with a digit, got ${preview(separator)}`,
      `omit it to use the key separator '${keySeparator}', or give the text existing keys put after the bucket (e.g. '-')`,
    );
  }
  return { width, separator };
}

function resolveSince(
  entity: string,
  since: SaltOptions['since'],
  components: readonly KeyComponentSchema[],
): SaltSchema['since'] {
  if (since === undefined) return undefined;
  const properties = components.flatMap((c) => (c.kind === 'property' ? [c] : []));
  const timestamps = properties.filter((c) => c.codec.type === 'timestamp').map((c) => c.property);
  const fix =
    timestamps.length === 0
      ? 'add a timestamp @KeyPart, or remove since'
      : `use since: { component: '${timestamps[0]}', from: new Date('2024-01-01T00:00:00Z') }`;
  if (since === null || typeof since !== 'object') {
    throw new MetadataError(entity, undefined, `@Salt since must be { component, from }, got ${preview(since)}`, fix);
  }
  rejectUnknownKeys(entity, since, ['component', 'from'], '@Salt since');
  const component = properties.find((c) => c.property === since.component);
  if (component === undefined) {
    throw new MetadataError(
      entity,
      undefined,
      `@Salt since.component ${preview(since.component)} is not a key property`,
      fix,
    );
  }
  if (component.codec.type !== 'timestamp') {
    throw new MetadataError(
      entity,
      since.component,
      `@Salt since.component is a ${component.codec.type} key part, not a timestamp`,
      fix,
    );
  }
  if (!(since.from instanceof Date) || Number.isNaN(since.from.getTime())) {
    throw new MetadataError(
      entity,
      since.component,
      `@Salt since.from must be a valid Date, got ${preview(since.from)}`,
      `pass the cutoff as a Date, e.g. new Date('2024-01-01T00:00:00Z')`,
    );
  }
  return Object.freeze({
    component: since.component,
    position: component.position,
    from: new Date(since.from.getTime()),
  });
}

function rejectUnknownKeys(entity: string, value: object, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new MetadataError(
      entity,
      undefined,
      `${what} has unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`,
      `use only ${allowed.join(', ')}`,
    );
  }
}

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
function resolveSaltOn(entity: string, on: unknown, components: readonly KeyComponentSchema[]): SaltSpan {
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
