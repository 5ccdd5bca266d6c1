import { KeyEncodingError } from '../errors/errors.js';
import type { SaltSchema } from '../metadata/entity-schema.js';
import {
  decodeKeyBytes,
  decodeLogicalKey,
  encodeKeyComponents,
  joinLogicalKey,
  type KeySchema,
} from './logical-key.js';
import { parseSaltSegment, saltSegment, saltSegmentLength, scanSegments } from './salt.js';
import {
  decodeOrderedKey,
  displayKey,
  orderedBucket,
  orderedLogicalKey,
  orderedSaltLength,
  orderedSaltSegment,
  orderedScanSegments,
} from './ordered-key.js';

/**
 * Bigtable's row key size limit in bytes (4 KiB). The emulator does not
 * enforce it, so the mapper checks every key before writing.
 *
 * @example
 * ```ts
 * if (key.length > MAX_ROW_KEY_BYTES) console.warn('too long');
 * ```
 */
export const MAX_ROW_KEY_BYTES = 4096;

/**
 * Throws `KeyEncodingError` when a physical row key is over {@link MAX_ROW_KEY_BYTES}.
 * @internal
 */
export function assertRowKeySize(entity: string, key: Buffer, shown: (key: Buffer) => string = utf8Text): void {
  if (key.length <= MAX_ROW_KEY_BYTES) return;
  throw new KeyEncodingError(
    entity,
    '(row key)',
    shown(key),
    `is ${key.length} bytes, over Bigtable's row key limit of ${MAX_ROW_KEY_BYTES} bytes`,
    'shorten the string key parts (or literals) so the whole key, salt included, stays within 4 KiB; keep long text in a column instead',
  );
}

const utf8Text = (key: Buffer): string => key.toString('utf8');

/**
 * A physical row key.
 * @example
 * ```ts
 * { key: <Buffer 30 37 23 …>, text: '07#s1#2023-05-01T12:00:00.000Z', logical: 's1#2023-…' }
 * ```
 */
export interface EncodedRowKey {
  /** Bytes sent to Bigtable. */
  readonly key: Buffer;
  /** The same key as text. */
  readonly text: string;
  /** The key without its salt segment. */
  readonly logical: string;
}

/**
 * Encodes an entity's key properties to its physical row key: salt segment
 * (when salted) + logical key. Throws `KeyEncodingError`/`ValidationError`
 * before anything is sent, including for keys over 4 KiB.
 *
 * @example
 * ```ts
 * encodeRowKey(compileEntity(Reading), { sensorId: 's1', ts: new Date(0) }).text; // 's1#1970-01-01T00:00:00.000Z'
 * ```
 */
export function encodeRowKey(schema: KeySchema, values: Readonly<Record<string, unknown>>): EncodedRowKey {
  const components = encodeKeyComponents(schema, values, 'full');
  if (schema.key.format === 'ordered-code') return encodeOrderedRowKey(schema, components);
  const logical = joinLogicalKey(schema.key.separator, components, true);
  const salt = schema.key.salt;
  const segment =
    salt === undefined
      ? ''
      : saltSegment(salt, components, schema.key.separator, sinceValue(schema, values), schema.name);
  const text = segment + logical;
  const key = Buffer.from(text, 'utf8');
  assertRowKeySize(schema.name, key);
  return { key, text, logical };
}

/** {@link encodeRowKey} of an `ordered-code` key: salt field + logical struct fields; texts are {@link displayKey}s. */
function encodeOrderedRowKey(schema: KeySchema, components: readonly string[]): EncodedRowKey {
  const logical = orderedLogicalKey(schema, components, true);
  const salt = schema.key.salt;
  const key =
    salt === undefined
      ? logical
      : Buffer.concat([orderedSaltSegment(orderedBucket(schema, salt, components)), logical]);
  assertRowKeySize(schema.name, key, displayKey);
  return { key, text: displayKey(key), logical: displayKey(logical) };
}

/**
 * The salt segments a scan with these fixed leading key values reads, as text
 * and as the bytes that start every key of the range: one bucket when the
 * fixed values cover the salt's `on`, else every bucket. Empty for an
 * unsalted entity.
 * @internal
 */
export function scanSaltSegments(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
): { segment: string; prefix: Buffer }[] {
  const salt = schema.key.salt;
  if (salt === undefined) return [];
  const encoded = encodeKeyComponents(schema, fixed, 'prefix');
  if (schema.key.format === 'ordered-code')
    return orderedScanSegments(schema, salt, encoded).map((prefix) => ({ segment: displayKey(prefix), prefix }));
  return scanSegments(salt, encoded, schema.key.separator).map((segment) => ({
    segment,
    prefix: Buffer.from(segment, 'utf8'),
  }));
}

/**
 * Decodes a physical row key back to the entity's typed key properties. With a
 * forward-only salt (`since`), a key counts as salted only when its segment is
 * the bucket its own components hash to and its time is at or after the cutoff.
 *
 * @example
 * ```ts
 * decodeRowKey(schema, Buffer.from('s1#1970-01-01T00:00:00.000Z')); // { sensorId: 's1', ts: Date(0) }
 * ```
 */
export function decodeRowKey(schema: KeySchema, key: Buffer | string): Record<string, unknown> {
  const salt = schema.key.salt;
  if (schema.key.format === 'ordered-code') return decodeOrderedRowKey(schema, key);
  if (Buffer.isBuffer(key) && salt?.since === undefined && salt?.previous === undefined) {
    const start = salt === undefined ? 0 : saltSegmentLength(salt, key);
    const values = start < 0 ? undefined : decodeKeyBytes(schema, key, start);
    if (values !== undefined) return values;
  }
  const text = typeof key === 'string' ? key : key.toString();
  if (salt === undefined) return decodeLogicalKey(schema, text);
  const parsed = parseSaltSegment(salt, text);
  if (salt.previous !== undefined) return decodeResaltedKey(schema, salt, salt.previous, parsed, text);
  if (salt.since === undefined) {
    if (parsed === undefined) {
      throw new KeyEncodingError(
        schema.name,
        '(row key)',
        text,
        'does not start with a salt segment',
        'check that the table holds only this entity, or declare @Salt with the format its rows were written with',
      );
    }
    return decodeLogicalKey(schema, parsed.rest);
  }
  if (parsed !== undefined) {
    const salted = tryDecodeSalted(schema, salt, parsed);
    if (salted !== undefined) return salted;
  }
  return decodeLogicalKey(schema, text);
}

/** {@link decodeRowKey} while re-salting: a key of the declared layout, else one of the previous layout. */
function decodeResaltedKey(
  schema: KeySchema,
  salt: SaltSchema,
  previous: SaltSchema | null,
  parsed: { bucket: number; rest: string } | undefined,
  text: string,
): Record<string, unknown> {
  const current = parsed === undefined ? undefined : tryDecodeSalted(schema, salt, parsed);
  if (current !== undefined) return current;
  if (previous === null) return decodeLogicalKey(schema, text);
  const old = parseSaltSegment(previous, text);
  if (old === undefined) {
    throw new KeyEncodingError(
      schema.name,
      '(row key)',
      text,
      'starts with the salt segment of neither the declared layout nor the previous one',
      'check that the table holds only this entity, and that @Salt previous is the layout its old rows were written with',
    );
  }
  return decodeLogicalKey(schema, old.rest);
}

/** {@link decodeRowKey} of an `ordered-code` key (a string is read as one character per byte). */
function decodeOrderedRowKey(schema: KeySchema, key: Buffer | string): Record<string, unknown> {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'latin1') : key;
  const salt = schema.key.salt;
  const start = salt === undefined ? 0 : orderedSaltLength(salt, bytes);
  if (start < 0) {
    throw new KeyEncodingError(
      schema.name,
      '(row key)',
      displayKey(bytes),
      'does not start with a salt field',
      'check that the table holds only this entity, and that its rows were written with the same @Salt',
    );
  }
  return decodeOrderedKey(schema, bytes, start);
}

/**
 * Whether a physical key is in the salted layout of a forward-only salt.
 * @internal
 */
export function isSaltedKey(schema: KeySchema, text: string): boolean {
  const salt = schema.key.salt;
  if (salt === undefined) return false;
  if (salt.since === undefined) return true;
  const parsed = parseSaltSegment(salt, text);
  return parsed !== undefined && tryDecodeSalted(schema, salt, parsed) !== undefined;
}

/**
 * The key properties of a salted key's logical part, when its segment is the one they salt to.
 * @internal
 */
export function tryDecodeSalted(
  schema: KeySchema,
  salt: SaltSchema,
  parsed: { bucket: number; rest: string },
): Record<string, unknown> | undefined {
  let values: Record<string, unknown>;
  try {
    values = decodeLogicalKey(schema, parsed.rest);
  } catch {
    return undefined;
  }
  const components = encodeKeyComponents(schema, values, 'full');
  const expected = saltSegment(salt, components, schema.key.separator, sinceValue(schema, values), schema.name);
  return expected !== '' && parseSaltSegment(salt, expected)?.bucket === parsed.bucket ? values : undefined;
}

function sinceValue(schema: KeySchema, values: Readonly<Record<string, unknown>>): Date | undefined {
  const since = schema.key.salt?.since;
  return since === undefined ? undefined : (values[since.component] as Date | undefined);
}

/**
 * The salt bucket of a physical row key, in either key format; `undefined`
 * for an unsalted entity, or a key of a forward-only salt's unsalted layout.
 * @internal
 */
export function bucketOfRowKey(schema: KeySchema, key: Buffer): number | undefined {
  const salt = schema.key.salt;
  if (salt === undefined) return undefined;
  if (schema.key.format === 'ordered-code') {
    if (orderedSaltLength(salt, key) < 0) return undefined;
    return salt.allBuckets.find((bucket) =>
      key.subarray(0, orderedSaltSegment(bucket).length).equals(orderedSaltSegment(bucket)),
    );
  }
  const text = key.toString('utf8');
  return isSaltedKey(schema, text) ? parseSaltSegment(salt, text)?.bucket : undefined;
}
