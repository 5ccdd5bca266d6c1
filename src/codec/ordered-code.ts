import type { KeyPartOptions, KeyPartType } from '../model/declarations.js';
import type { KeyComponentCodec } from './codec-contracts.js';
import { MetadataError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { DECODE_FIX, keyError, type KeyCodecContext } from './key-codecs.js';
import { hasLoneSurrogate } from './value-codecs.js';
import { floatFromOrderedBytes, orderedFloatBytes } from './ordered-float.js';

/**
 * The byte encodings of Bigtable's structured row keys (the admin API's
 * `Type.Struct.Encoding.OrderedCodeBytes`): the variable-length Int64
 * encoding, the struct's escaping and terminators, and the field codecs of
 * `keyFormat: 'ordered-code'` key parts.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Header bits XORed into the first two bytes of an Int64 encoding of each length (1–10 bytes). */
const HEADER: readonly (readonly [number, number])[] = [
  [0, 0],
  [0x80, 0],
  [0xc0, 0],
  [0xe0, 0],
  [0xf0, 0],
  [0xf8, 0],
  [0xfc, 0],
  [0xfe, 0],
  [0xff, 0],
  [0xff, 0x80],
  [0xff, 0xc0],
];

/**
 * Int64 `OrderedCodeBytes` (ordered-code's `WriteSignedNumIncreasing`): 1 to
 * 10 bytes, byte order equal to number order, shorter for values near zero.
 * The leading bits count the bytes (ones, then the sign bit); the rest is the
 * value in two's complement, all inverted for negative values.
 * @internal
 */
export function encodeInt64(value: bigint): Buffer {
  if (value < INT64_MIN || value > INT64_MAX) throw new RangeError(`${value} is outside the signed 64-bit range`);
  const magnitude = value < 0n ? -value - 1n : value;
  const bits = magnitude === 0n ? 0 : magnitude.toString(2).length;
  // A length of n bytes holds 7n − 1 bits of magnitude (n header bits and a sign bit are the rest).
  const length = Math.max(1, Math.ceil((bits + 1) / 7));
  const out = Buffer.alloc(length);
  let rest = BigInt.asUintN(length * 8, value);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  const [first, second] = HEADER[length] as readonly [number, number];
  out[0] = (out[0] as number) ^ first;
  if (length > 1) out[1] = (out[1] as number) ^ second;
  return out;
}

/**
 * Reads one Int64 `OrderedCodeBytes` value that starts at `start`: its value
 * and where it ends. `undefined` when the bytes before `end` are not a
 * canonical encoding.
 * @internal
 */
export function readInt64(bytes: Uint8Array, start: number, end: number): { value: bigint; end: number } | undefined {
  if (start >= end) return undefined;
  const mask = ((bytes[start] as number) & 0x80) === 0 ? 0xff : 0;
  let length = leadingOnes((bytes[start] as number) ^ mask);
  if (length === 8 && start + 1 < end) length += leadingOnes((bytes[start + 1] as number) ^ mask);
  if (length > 10 || start + length > end) return undefined;
  const [first, second] = HEADER[length] as readonly [number, number];
  let raw = 0n;
  for (let i = 0; i < length; i++) {
    const header = i === 0 ? first : i === 1 ? second : 0;
    raw = (raw << 8n) | BigInt((bytes[start + i] as number) ^ header);
  }
  const value = BigInt.asIntN(length * 8, raw);
  if (value < INT64_MIN || value > INT64_MAX) return undefined;
  const canonical = encodeInt64(value);
  for (let i = 0; i < length; i++) if (canonical[i] !== bytes[start + i]) return undefined;
  return { value, end: start + length };
}

function leadingOnes(byte: number): number {
  let count = 0;
  while (count < 8 && (byte & (0x80 >> count)) !== 0) count++;
  return count;
}

/** One field of an `OrderedCodeBytes` struct: its encoded bytes and its direction. @internal */
export interface StructField {
  readonly bytes: Uint8Array;
  readonly descending: boolean;
}

/**
 * One field as the struct writes it: `00` escaped to `00 FF`, an empty field
 * as `00 00`, the terminator `00 01` unless it is the last field and
 * ascending, and every bit inverted when descending. Fields written this way
 * are concatenated, so a key prefix is the concatenation of its fields.
 * @internal
 */
export function encodeStructField(bytes: Uint8Array, descending: boolean, last: boolean): Buffer {
  let zeros = 0;
  for (const byte of bytes) if (byte === 0) zeros++;
  const terminated = !last || descending;
  const body = bytes.length === 0 ? 2 : bytes.length + zeros;
  const out = Buffer.alloc(body + (terminated ? 2 : 0));
  let at = 0;
  if (bytes.length === 0) at = 2;
  for (const byte of bytes) {
    out[at++] = byte;
    if (byte === 0) out[at++] = 0xff;
  }
  if (terminated) out[at + 1] = 0x01;
  if (descending) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) ^ 0xff;
  return out;
}

/**
 * The `OrderedCodeBytes` encoding of a whole struct, by the specification's
 * rules in order: trailing empty ascending fields are dropped, then each field
 * is written by {@link encodeStructField}; no field left encodes as `00 00`.
 * @internal
 */
export function encodeStruct(fields: readonly StructField[]): Buffer {
  let count = fields.length;
  while (
    count > 0 &&
    !(fields[count - 1] as StructField).descending &&
    (fields[count - 1] as StructField).bytes.length === 0
  )
    count--;
  if (count === 0) return Buffer.from([0, 0]);
  return Buffer.concat(fields.slice(0, count).map((f, i) => encodeStructField(f.bytes, f.descending, i === count - 1)));
}

/**
 * Reads one field written by {@link encodeStructField} that starts at
 * `start`: its unescaped bytes and where the next field starts (or `end`).
 * A last ascending field runs to `end` and has no terminator; every other
 * field must end with one. `undefined` for bytes the struct never writes.
 * @internal
 */
export function readStructField(
  key: Uint8Array,
  start: number,
  end: number,
  descending: boolean,
  last: boolean,
): { bytes: Buffer; next: number } | undefined {
  const mask = descending ? 0xff : 0;
  const terminated = !last || descending;
  const out: number[] = [];
  let at = start;
  let empty = false;
  while (at < end) {
    const byte = (key[at] as number) ^ mask;
    if (byte !== 0) {
      if (empty) return undefined;
      out.push(byte);
      at++;
      continue;
    }
    if (at + 1 >= end) return undefined;
    const next = (key[at + 1] as number) ^ mask;
    at += 2;
    if (next === 0xff && !empty) out.push(0);
    else if (next === 0x00 && out.length === 0 && !empty && at - 2 === start) empty = true;
    else if (next === 0x01 && terminated && (empty || out.length > 0)) return { bytes: Buffer.from(out), next: at };
    else return undefined;
  }
  if (terminated || at === start) return undefined;
  return { bytes: Buffer.from(out), next: at };
}

/**
 * Reads a struct of `descending.length` fields (their directions, in order)
 * from `key[start, end)`: the unescaped bytes of each field, trailing fields
 * the encoder dropped as empty. `undefined` when the bytes are not the
 * struct's canonical encoding.
 * @internal
 */
export function decodeStruct(
  key: Uint8Array,
  start: number,
  end: number,
  descending: readonly boolean[],
): Buffer[] | undefined {
  const fields: Buffer[] = [];
  if (end - start === 2 && key[start] === 0 && key[start + 1] === 0 && descending.every((d) => !d))
    return descending.map(() => Buffer.alloc(0));
  let at = start;
  for (let i = 0; i < descending.length; i++) {
    if (at === end) {
      if (descending.slice(i).some((d) => d) || fields.length === 0) return undefined;
      while (fields.length < descending.length) fields.push(Buffer.alloc(0));
      break;
    }
    const down = descending[i] === true;
    // A field followed only by ascending ones ends the key when those were dropped as empty.
    const field =
      readStructField(key, at, end, down, i === descending.length - 1) ??
      (descending.slice(i + 1).some((d) => d) ? undefined : readStructField(key, at, end, down, true));
    if (field === undefined) return undefined;
    fields.push(field.bytes);
    at = field.next;
  }
  if (at !== end) return undefined;
  return canonicalStruct(key, start, end, fields, descending) ? fields : undefined;
}

/** Whether decoded fields encode back to exactly the bytes they came from (empty fields the encoder would drop, for one). */
function canonicalStruct(
  key: Uint8Array,
  start: number,
  end: number,
  fields: readonly Buffer[],
  descending: readonly boolean[],
): boolean {
  const again = encodeStruct(fields.map((bytes, i) => ({ bytes, descending: descending[i] === true })));
  return again.length === end - start && again.equals(Buffer.from(key.subarray(start, end)));
}

/**
 * A key-part codec of the `ordered-code` key format. Beside the shared
 * contract (its `encode` gives the field's bytes as a binary string, one
 * character per byte, so that values compare by their encodings), it reads
 * and writes the field's bytes before the struct escapes them.
 * @internal
 */
export interface OrderedFieldCodec extends KeyComponentCodec {
  /** The type the row key schema declares for the field. */
  readonly schemaType: 'string' | 'int64' | 'timestamp' | 'bytes';
  /** Value → the field's bytes. Throws `KeyEncodingError`. */
  fieldBytes(value: unknown): Buffer;
  /** The field's bytes → value. Throws `KeyEncodingError`. */
  fromFieldBytes(bytes: Uint8Array): unknown;
}

const KEY_TYPES: readonly KeyPartType[] = ['string', 'uint', 'int', 'bigint', 'timestamp', 'bytes', 'float', 'boolean'];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Microseconds of the largest `Date`. */
const MAX_DATE_MICROS = 8_640_000_000_000_000_000n;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the codec of one `ordered-code` key part: strings as UTF-8,
 * `uint`/`int`/`bigint` as Int64 `OrderedCodeBytes`, timestamps as epoch
 * microseconds in that Int64 encoding, `bytes` as they are, floats as the 8
 * order-preserving bytes of `orderedFloatBytes` (a BYTES field to GoogleSQL),
 * booleans as the Int64 0 or 1. Any type may be descending. `width` and
 * `format` belong to the text format: they throw `MetadataError`.
 * @internal
 */
export function createOrderedKeyCodec(entity: string, property: string, options: KeyPartOptions): OrderedFieldCodec {
  const fail = (problem: string, fix: string): MetadataError => new MetadataError(entity, property, problem, fix);
  const { type, width, descending = false, format, maxLength } = options ?? ({} as KeyPartOptions);
  if (!KEY_TYPES.includes(type))
    throw fail(`unknown key part type ${preview(type)}`, `use one of ${KEY_TYPES.map((t) => `'${t}'`).join(', ')}`);
  if (typeof descending !== 'boolean')
    throw fail(`descending must be true or false, got ${preview(descending)}`, 'pass descending: true or leave it out');
  if (width !== undefined)
    throw fail(
      "width has no meaning in keyFormat 'ordered-code' (integers take 1 to 10 bytes by value)",
      'remove width',
    );
  if (format !== undefined)
    throw fail(
      "format has no meaning in keyFormat 'ordered-code' (timestamps are epoch microseconds)",
      'remove format',
    );
  if (maxLength !== undefined && type !== 'string' && type !== 'bytes')
    throw fail(`maxLength applies only to string and bytes key parts, not to '${type}'`, 'remove maxLength');
  if (
    (type === 'bytes' || type === 'string') &&
    maxLength !== undefined &&
    (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_KEY_BYTES)
  )
    throw fail(
      `maxLength ${preview(maxLength)} is not an integer from 1 to ${MAX_KEY_BYTES}`,
      type === 'bytes'
        ? 'give the most bytes the property may hold, such as maxLength: 16'
        : 'give the longest value the property may hold, such as maxLength: 64',
    );
  const ctx: KeyCodecContext = { entity, property };
  const field = fieldPart(ctx, type, maxLength);
  return Object.freeze({
    type,
    width: undefined,
    descending,
    format: undefined,
    ...(type === 'bytes' || type === 'string' ? { maxLength } : {}),
    ...field,
    encode: (value: unknown): string => field.fieldBytes(value).toString('latin1'),
    decode: (text: string): unknown => field.fromFieldBytes(Buffer.from(text, 'latin1')),
  });
}

type FieldPart = Pick<OrderedFieldCodec, 'schemaType' | 'fieldBytes' | 'fromFieldBytes'>;

/** Longest `bytes` maxLength: Bigtable's row key limit. */
const MAX_KEY_BYTES = 4096;

function fieldPart(ctx: KeyCodecContext, type: KeyPartType, maxLength: number | undefined): FieldPart {
  switch (type) {
    case 'string':
      return stringField(ctx, maxLength);
    case 'timestamp':
      return timestampField(ctx);
    case 'bytes':
      return bytesField(ctx, maxLength);
    case 'float':
      return floatField(ctx);
    case 'boolean':
      return booleanField(ctx);
    default:
      return intField(ctx, type);
  }
}

/** `maxLength` counts UTF-16 code units, as in text keys. */
function stringField(ctx: KeyCodecContext, maxLength: number | undefined): FieldPart {
  return {
    schemaType: 'string',
    fieldBytes(value) {
      if (typeof value !== 'string' || value === '')
        throw keyError(
          ctx,
          value,
          'is not a valid string key component: expected a non-empty string',
          'pass a non-empty string',
        );
      if (maxLength !== undefined && value.length > maxLength)
        throw keyError(
          ctx,
          value,
          `is not a valid string key component: ${value.length} characters, over its maxLength of ${maxLength}`,
          'shorten the value, or raise maxLength in @KeyPart if longer values are legitimate',
        );
      if (hasLoneSurrogate(value))
        throw keyError(
          ctx,
          value,
          'is not a valid string key component: it has a lone UTF-16 surrogate, which UTF-8 cannot store',
          'remove the broken character',
        );
      return Buffer.from(value, 'utf8');
    },
    fromFieldBytes(bytes) {
      let text: string | undefined;
      try {
        text = bytes.length === 0 ? undefined : UTF8.decode(bytes);
      } catch {
        text = undefined;
      }
      if (text === undefined)
        throw keyError(
          ctx,
          Buffer.from(bytes).toString('hex'),
          'is not a valid encoded string key component (empty or not UTF-8)',
          DECODE_FIX,
        );
      return text;
    },
  };
}

/** The Int64 of a whole field; throws unless the field is exactly one canonical encoding. */
function fieldInt64(ctx: KeyCodecContext, bytes: Uint8Array, label: string): bigint {
  const read = readInt64(bytes, 0, bytes.length);
  if (read === undefined || read.end !== bytes.length)
    throw keyError(
      ctx,
      Buffer.from(bytes).toString('hex'),
      `is not a valid encoded ${label} key component (not one Int64 OrderedCodeBytes value)`,
      DECODE_FIX,
    );
  return read.value;
}

function intField(ctx: KeyCodecContext, type: 'uint' | 'int' | 'bigint'): FieldPart {
  return {
    schemaType: 'int64',
    fieldBytes(value) {
      if (type === 'bigint') {
        if (typeof value !== 'bigint')
          throw keyError(
            ctx,
            value,
            'is not a valid bigint key component: expected a bigint',
            'pass a bigint (e.g. 42n or BigInt(x))',
          );
        if (value < INT64_MIN || value > INT64_MAX)
          throw keyError(
            ctx,
            value,
            'is not a valid bigint key component: outside the signed 64-bit range',
            'pass a value from -(2n ** 63n) to 2n ** 63n - 1n',
          );
        return encodeInt64(value);
      }
      if (typeof value !== 'number' || !Number.isSafeInteger(value))
        throw keyError(
          ctx,
          value,
          `is not a valid ${type} key component: expected a safe integer`,
          typeof value === 'bigint'
            ? "use type: 'bigint' for bigint values"
            : 'pass a whole JS number within Number.MAX_SAFE_INTEGER',
        );
      if (type === 'uint' && value < 0)
        throw keyError(ctx, value, 'is not a valid uint key component: negative', "use type: 'int' for signed values");
      return encodeInt64(BigInt(value));
    },
    fromFieldBytes(bytes) {
      const value = fieldInt64(ctx, bytes, type);
      if (type === 'bigint') return value;
      if (value > MAX_SAFE || value < (type === 'uint' ? 0n : -MAX_SAFE))
        throw keyError(ctx, value, `is not a valid encoded ${type} key component: outside its range`, DECODE_FIX);
      return Number(value);
    },
  };
}

function timestampField(ctx: KeyCodecContext): FieldPart {
  return {
    schemaType: 'timestamp',
    fieldBytes(value) {
      const ms = value instanceof Date ? value.getTime() : Number.NaN;
      if (Number.isNaN(ms))
        throw keyError(
          ctx,
          value,
          'is not a valid timestamp key component: expected a valid Date',
          'pass a valid Date object',
        );
      return encodeInt64(BigInt(ms) * 1000n);
    },
    fromFieldBytes(bytes) {
      const micros = fieldInt64(ctx, bytes, 'timestamp');
      if (micros % 1000n !== 0n || micros > MAX_DATE_MICROS || micros < -MAX_DATE_MICROS)
        throw keyError(
          ctx,
          micros,
          'is not a valid encoded timestamp key component: not whole milliseconds within the range of a Date',
          DECODE_FIX,
        );
      return new Date(Number(micros / 1000n));
    },
  };
}

function bytesField(ctx: KeyCodecContext, maxLength: number | undefined): FieldPart {
  const invalid = (value: Uint8Array): boolean =>
    value.length === 0 || (maxLength !== undefined && value.length > maxLength);
  return {
    schemaType: 'bytes',
    fieldBytes(value) {
      if (!(value instanceof Uint8Array) || invalid(value))
        throw keyError(
          ctx,
          value,
          `is not a valid bytes key component: expected a non-empty Uint8Array or Buffer${maxLength === undefined ? '' : ` of at most ${maxLength} bytes`}`,
          'pass a non-empty Buffer, or raise maxLength in @KeyPart if longer values are legitimate',
        );
      return Buffer.from(value);
    },
    fromFieldBytes(bytes) {
      if (invalid(bytes))
        throw keyError(
          ctx,
          Buffer.from(bytes).toString('hex'),
          'is not a valid encoded bytes key component (empty or over its maxLength)',
          DECODE_FIX,
        );
      return Buffer.from(bytes);
    },
  };
}

function floatField(ctx: KeyCodecContext): FieldPart {
  return {
    schemaType: 'bytes',
    fieldBytes(value) {
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw keyError(
          ctx,
          value,
          'is not a valid float key component: expected a finite number (NaN and infinities have no place in key order)',
          'pass a finite JS number',
        );
      return orderedFloatBytes(value);
    },
    fromFieldBytes(bytes) {
      const value = floatFromOrderedBytes(bytes);
      if (value === undefined)
        throw keyError(
          ctx,
          Buffer.from(bytes).toString('hex'),
          'is not a valid encoded float key component (not the 8 ordered bytes of a finite number)',
          DECODE_FIX,
        );
      return value;
    },
  };
}

function booleanField(ctx: KeyCodecContext): FieldPart {
  return {
    schemaType: 'int64',
    fieldBytes(value) {
      if (typeof value !== 'boolean')
        throw keyError(ctx, value, 'is not a valid boolean key component: expected true or false', 'pass a boolean');
      return encodeInt64(value ? 1n : 0n);
    },
    fromFieldBytes(bytes) {
      const value = fieldInt64(ctx, bytes, 'boolean');
      if (value !== 0n && value !== 1n)
        throw keyError(ctx, value, 'is not a valid encoded boolean key component: not 0 or 1', DECODE_FIX);
      return value === 1n;
    },
  };
}
