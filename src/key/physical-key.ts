import { KeyEncodingError } from '../errors/key-encoding-error.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { assertRowKeySize, decodeLogicalKey, encodeKeyComponents, joinLogicalKey, type KeySchema } from './row-key.js';
import { decodeKeyBytes } from './row-key-bytes.js';
import { parseSaltSegment, saltSegment, saltSegmentLength } from './salt.js';

/** A physical row key. @example `{ key: <Buffer 30 37 23 …>, text: '07#s1#2023-05-01T12:00:00.000Z', logical: 's1#2023-…' }` */
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
  if (Buffer.isBuffer(key) && salt?.since === undefined) {
    const start = salt === undefined ? 0 : saltSegmentLength(salt, key);
    const values = start < 0 ? undefined : decodeKeyBytes(schema, key, start);
    if (values !== undefined) return values;
  }
  const text = typeof key === 'string' ? key : key.toString();
  if (salt === undefined) return decodeLogicalKey(schema, text);
  const parsed = parseSaltSegment(salt, text);
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
    const salted = tryDecodeSalted(schema as EntitySchema, parsed);
    if (salted !== undefined) return salted;
  }
  return decodeLogicalKey(schema, text);
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
  return parsed !== undefined && tryDecodeSalted(schema as EntitySchema, parsed) !== undefined;
}

function tryDecodeSalted(
  schema: KeySchema,
  parsed: { bucket: number; rest: string },
): Record<string, unknown> | undefined {
  let values: Record<string, unknown>;
  try {
    values = decodeLogicalKey(schema, parsed.rest);
  } catch {
    return undefined;
  }
  const components = encodeKeyComponents(schema, values, 'full');
  const expected = saltSegment(
    schema.key.salt!,
    components,
    schema.key.separator,
    sinceValue(schema, values),
    schema.name,
  );
  return expected !== '' && parseSaltSegment(schema.key.salt!, expected)?.bucket === parsed.bucket ? values : undefined;
}

function sinceValue(schema: KeySchema, values: Readonly<Record<string, unknown>>): Date | undefined {
  const since = schema.key.salt?.since;
  return since === undefined ? undefined : (values[since.component] as Date | undefined);
}
