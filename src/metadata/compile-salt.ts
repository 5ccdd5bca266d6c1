import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';
import type { SaltOptions } from '../model/declarations.js';
import type { KeyComponentSchema, SaltSchema } from './entity-schema.js';
import { resolveSaltHash } from '../codec/hash-presets.js';
import { resolveSaltOn } from './salt-on.js';

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
  rejectUnknownKeys(entity, options, ['buckets', 'on', 'hash', 'format', 'since'], '@Salt');
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
  });
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
