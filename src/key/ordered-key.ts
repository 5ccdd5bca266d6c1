import { KeyEncodingError, ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { KeyComponentSchema, SaltSchema } from '../metadata/entity-schema.js';
import { DECODE_FIX } from '../codec/key-codecs.js';
import {
  encodeInt64,
  encodeStructField,
  readInt64,
  readStructField,
  type OrderedFieldCodec,
} from '../codec/ordered-code.js';
import { describeKeyLayout, type KeySchema } from './logical-key.js';
import { printableBytes } from '../util/printable-bytes.js';

/**
 * The row-key layout of `keyFormat: 'ordered-code'`: the key is an
 * `OrderedCodeBytes` struct (see `codec/ordered-code.ts`) whose fields are the
 * salt bucket (when salted, an Int64) and then the key components in order.
 * Every field but a last ascending one ends with a terminator, so a key
 * prefix is the concatenation of its leading fields and byte order is tuple
 * order. The functions here take the components as `encodeKeyComponents`
 * gives them: literal text, or a codec's binary string of the field bytes.
 */

type PropertyComponent = Extract<KeyComponentSchema, { kind: 'property' }>;

/** The raw field bytes of one encoded component. */
function fieldBytes(component: KeyComponentSchema, encoded: string): Buffer {
  return component.kind === 'literal' ? Buffer.from(component.literal, 'utf8') : Buffer.from(encoded, 'latin1');
}

function isDescending(component: KeyComponentSchema): boolean {
  return component.kind === 'property' && component.codec.descending;
}

/**
 * The logical key (no salt) of the leading encoded components: the whole key
 * when `complete`, else a prefix whose every field is terminated.
 * @internal
 */
export function orderedLogicalKey(schema: KeySchema, encoded: readonly string[], complete: boolean): Buffer {
  const { components } = schema.key;
  const last = complete ? components.length - 1 : -1;
  return Buffer.concat(
    encoded.map((text, i) => {
      const component = components[i] as KeyComponentSchema;
      return encodeStructField(fieldBytes(component, text), isDescending(component), i === last);
    }),
  );
}

/**
 * The salt field that starts every physical key of `bucket`: the Int64 of the
 * bucket and the terminator.
 * @internal
 */
export function orderedSaltSegment(bucket: number): Buffer {
  return encodeStructField(encodeInt64(BigInt(bucket)), false, false);
}

/**
 * The bucket of a key's leading components: the salt hash of the lowercase
 * hex of the logical key bytes that hold the `on` properties (the whole
 * logical key when they cover every component). Needs at least
 * `prefixLength` components.
 * @internal
 */
export function orderedBucket(schema: KeySchema, salt: SaltSchema, encoded: readonly string[]): number {
  if (encoded.length < salt.prefixLength) {
    throw new ValidationError(
      `${schema.name}: the salt bucket is computed from ${salt.on.join(', ')}, but only ${encoded.length} of the ` +
        `${salt.prefixLength} leading key components were given. Fix: pass ${salt.on.join(', ')} to address one row.`,
      { entity: schema.name, on: salt.on, given: encoded.length },
    );
  }
  const complete = salt.prefixLength === schema.key.components.length;
  return salt.bucketOf(orderedLogicalKey(schema, encoded.slice(0, salt.prefixLength), complete).toString('hex'));
}

/**
 * Salt segments a scan must read: the one bucket of the fixed components when
 * they cover the salt's `on`, else every bucket.
 * @internal
 */
export function orderedScanSegments(schema: KeySchema, salt: SaltSchema, fixed: readonly string[]): Buffer[] {
  if (fixed.length >= salt.prefixLength) return [orderedSaltSegment(orderedBucket(schema, salt, fixed))];
  return salt.allBuckets.map(orderedSaltSegment);
}

/**
 * Byte length of a physical key's salt field, or -1 when the key does not
 * start with one holding a bucket of this salt.
 * @internal
 */
export function orderedSaltLength(salt: SaltSchema, key: Uint8Array): number {
  const field = readStructField(key, 0, key.length, false, false);
  if (field === undefined) return -1;
  const read = readInt64(field.bytes, 0, field.bytes.length);
  if (read === undefined || read.end !== field.bytes.length) return -1;
  const bucket = Number(read.value);
  const low = salt.allBuckets[0] ?? 0;
  return bucket >= low && bucket <= salt.buckets - 1 ? field.next : -1;
}

/**
 * Decodes the logical key that starts at byte `start` of a physical key.
 * Throws `ValidationError` when the fields do not match the layout and
 * `KeyEncodingError` when a field does not decode.
 * @internal
 */
export function decodeOrderedKey(schema: KeySchema, key: Uint8Array, start: number): Record<string, unknown> {
  const { components } = schema.key;
  const values: Record<string, unknown> = {};
  let at = start;
  for (const [index, component] of components.entries()) {
    const field = readStructField(key, at, key.length, isDescending(component), index === components.length - 1);
    if (field === undefined)
      throw layoutMismatch(schema, key, `has no well-formed field ${index} (expected ${components.length} fields)`);
    if (component.kind === 'literal') {
      if (!field.bytes.equals(Buffer.from(component.literal, 'utf8')))
        throw layoutMismatch(
          schema,
          key,
          `has ${preview(field.bytes.toString('utf8'))} at position ${index}, expected the literal ${preview(component.literal)}`,
        );
    } else {
      values[component.property] = decodeField(schema, component, index, field.bytes, key);
    }
    at = field.next;
  }
  if (at !== key.length) throw layoutMismatch(schema, key, `has bytes after its ${components.length} fields`);
  return values;
}

function decodeField(
  schema: KeySchema,
  component: PropertyComponent,
  index: number,
  bytes: Buffer,
  key: Uint8Array,
): unknown {
  try {
    return (component.codec as OrderedFieldCodec).fromFieldBytes(bytes);
  } catch (err) {
    if (!(err instanceof KeyEncodingError)) throw err;
    throw new KeyEncodingError(
      schema.name,
      component.property,
      displayKey(key),
      `is not a valid row key: field ${index} ${String(err.details.reason)}`,
      DECODE_FIX,
    );
  }
}

function layoutMismatch(schema: KeySchema, key: Uint8Array, problem: string): ValidationError {
  const text = displayKey(key);
  return new ValidationError(
    `${schema.name}: row key ${preview(text)} ${problem} (key layout ${describeKeyLayout(schema)}). Fix: ${DECODE_FIX}.`,
    { entity: schema.name, rowKey: text },
  );
}

/**
 * A binary key as readable text: printable ASCII as is, a backslash as `\\`,
 * every other byte as `\xHH` (e.g. `\x80\x00\x01s1`). Distinct keys give
 * distinct texts.
 * @internal
 */
export function displayKey(key: Uint8Array): string {
  return printableBytes(key, 'upper');
}
