import { utf8Length } from '../util/utf8-length.js';
import type { ColumnScalarType, Constructor } from '../model/declarations.js';
import type { ValueCodec } from './codec-contracts.js';
import { MetadataError, ValueEncodingError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { safeInt64Bytes } from '../util/safe-int64-bytes.js';
import { instanceToPlain, plainToInstance } from 'class-transformer';

const SCALAR_CODECS: Readonly<Record<ColumnScalarType, (ctx: ValueCodecContext) => ValueCodec>> = {
  string: createStringValueCodec,
  int: createIntValueCodec,
  float: createFloatValueCodec,
  boolean: createBooleanValueCodec,
  date: createDateValueCodec,
  bigint: createBigintValueCodec,
  json: createJsonValueCodec,
  bytes: createBytesValueCodec,
};

/**
 * Builds the cell codec of a column. Every codec returns a
 * `Buffer`, so no JS value ever reaches the client's lossy encoder.
 *
 * | type | bytes |
 * |---|---|
 * | `string` | UTF-8 |
 * | `int` | int64 big-endian (safe integers; compatible with increments) |
 * | `float` | float64 big-endian |
 * | `boolean` | one byte `00`/`01` |
 * | `date` | int64 big-endian epoch milliseconds |
 * | `bigint` | int64 big-endian |
 * | `json` | UTF-8 JSON |
 * | `bytes` | the bytes |
 * | a class | UTF-8 JSON of `instanceToPlain`, hydrated with `plainToInstance` |
 *
 * Encoding a value of the wrong shape, or decoding malformed bytes, throws
 * `ValueEncodingError` naming `Entity.property`; an unknown type throws `MetadataError`.
 * @internal
 */
export function createValueCodec(entity: string, property: string, type: ColumnScalarType | Constructor): ValueCodec {
  const ctx = { entity, property };
  if (typeof type === 'function') return createClassValueCodec(ctx, type);
  if (typeof type === 'string' && Object.hasOwn(SCALAR_CODECS, type)) return SCALAR_CODECS[type](ctx);
  throw new MetadataError(
    entity,
    property,
    `unknown column type ${preview(type)}`,
    `use one of ${Object.keys(SCALAR_CODECS)
      .map((t) => `'${t}'`)
      .join(', ')}, or a class (stored as JSON with class-transformer)`,
  );
}

/**
 * The entity and column property a value codec was built for, so that its
 * errors name `Entity.property`.
 * @internal
 */
export interface ValueCodecContext {
  readonly entity: string;
  readonly property: string;
}

/**
 * Builds a `ValueEncodingError`; `reason` should end with `Fix: …`.
 * @internal
 */
export function valueError(ctx: ValueCodecContext, value: unknown, reason: string): ValueEncodingError {
  return new ValueEncodingError(ctx.entity, ctx.property, value, reason);
}

/**
 * Throws `ValueEncodingError` unless the stored cell has exactly `length` bytes.
 * @internal
 */
function expectLength(ctx: ValueCodecContext, bytes: Buffer, length: number, type: string): void {
  if (bytes.length !== length) {
    throw valueError(
      ctx,
      bytes,
      `is not a valid stored ${type} value: expected ${length} byte${length === 1 ? '' : 's'}, got ${bytes.length}. Fix: check the column's declared type matches how the cell was written`,
    );
  }
}

/**
 * `string` cells: UTF-8. Rejects non-strings and lone surrogates; decoding
 * rejects malformed UTF-8 instead of replacing it.
 * @internal
 */
function createStringValueCodec(ctx: ValueCodecContext): ValueCodec {
  const text = (value: unknown, byteLength: number): string => {
    // As many bytes as UTF-16 units: ASCII, so no surrogate to look for.
    if (byteLength !== (value as string).length && hasLoneSurrogate(value as string))
      throw valueError(
        ctx,
        value,
        'is not a valid string value: it has a lone UTF-16 surrogate, which UTF-8 cannot store. Fix: remove the broken character',
      );
    return value as string;
  };
  const checkType = (value: unknown): void => {
    if (typeof value !== 'string')
      throw valueError(
        ctx,
        value,
        'is not a valid string value: expected a string. Fix: pass a string, or declare another column type',
      );
  };
  return Object.freeze({
    type: 'string',
    encode(value: unknown): Buffer {
      checkType(value);
      const bytes = Buffer.from(value as string, 'utf8');
      text(value, bytes.length);
      return bytes;
    },
    encodeText(value: unknown): string {
      checkType(value);
      return text(value, utf8Length(value as string));
    },
    decode(bytes: Buffer): unknown {
      const text = decodeUtf8Strict(bytes);
      if (text === undefined)
        throw valueError(
          ctx,
          bytes,
          "is not a valid stored string value: malformed UTF-8. Fix: declare the column with type 'bytes'",
        );
      return text;
    },
  } as const);
}

/**
 * `float` cells: IEEE-754 float64, big-endian. Any number, NaN and ±Infinity included.
 * @internal
 */
function createFloatValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'float',
    encode(value: unknown): Buffer {
      if (typeof value !== 'number')
        throw valueError(
          ctx,
          value,
          'is not a valid float value: expected a number. Fix: convert the value with Number(...)',
        );
      // Pooled: every byte is written.
      const bytes = Buffer.allocUnsafe(8);
      bytes.writeDoubleBE(value);
      return bytes;
    },
    decode(bytes: Buffer): unknown {
      expectLength(ctx, bytes, 8, 'float');
      return bytes.readDoubleBE();
    },
  } as const);
}

/**
 * `boolean` cells: one byte, `0x00` or `0x01`.
 * @internal
 */
function createBooleanValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'boolean',
    encode(value: unknown): Buffer {
      if (typeof value !== 'boolean')
        throw valueError(
          ctx,
          value,
          'is not a valid boolean value: expected true or false. Fix: convert the value with Boolean(...)',
        );
      const bytes = Buffer.allocUnsafe(1);
      bytes[0] = value ? 1 : 0;
      return bytes;
    },
    decode(bytes: Buffer): unknown {
      expectLength(ctx, bytes, 1, 'boolean');
      if (bytes[0] === 0) return false;
      if (bytes[0] === 1) return true;
      throw valueError(
        ctx,
        bytes,
        "is not a valid stored boolean value: expected 0x00 or 0x01. Fix: check the column's declared type matches how the cell was written",
      );
    },
  } as const);
}

/**
 * `bytes` cells: a copy of a `Buffer` or `Uint8Array`.
 * @internal
 */
function createBytesValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'bytes',
    encode(value: unknown): Buffer {
      if (!(value instanceof Uint8Array))
        throw valueError(
          ctx,
          value,
          'is not a valid bytes value: expected a Buffer or Uint8Array. Fix: pass Buffer.from(...)',
        );
      return Buffer.from(value);
    },
    decode: (bytes: Buffer): unknown => Buffer.from(bytes),
  } as const);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_DATE_MS = 8_640_000_000_000_000;

function int64(value: bigint): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeBigInt64BE(value);
  return bytes;
}

function readInt64(ctx: ValueCodecContext, bytes: Buffer, type: string): bigint {
  expectLength(ctx, bytes, 8, type);
  return bytes.readBigInt64BE();
}

/**
 * The int64 as a number when it is a safe integer, else `undefined`, without
 * a BigInt. `high * 2^32` is exact and adding `low` is exact below 2^53; past
 * it, rounding never lands back inside the safe range, so the check is exact.
 */
function readSafeInt64(ctx: ValueCodecContext, bytes: Buffer, type: string): number | undefined {
  expectLength(ctx, bytes, 8, type);
  const value = bytes.readInt32BE(0) * 0x1_0000_0000 + bytes.readUInt32BE(4);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * `int` cells: 8-byte big-endian signed int64, the layout of Bigtable
 * ReadModifyWrite increments. Encodes safe-integer numbers. A stored value
 * outside the safe range (only increments can put one there) decodes to its
 * exact `bigint` rather than failing the read or losing precision: one such
 * counter never makes a scan of other rows fail. Declare the column
 * `'bigint'` when counts can pass 2^53.
 * @internal
 */
export function createIntValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'int',
    encode(value: unknown): Buffer {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
        throw valueError(
          ctx,
          value,
          "is not a valid int value: expected a safe integer number. Fix: round the value, or use type 'float' for fractions or 'bigint' beyond 2^53",
        );
      }
      return safeInt64Bytes(value);
    },
    decode(bytes: Buffer): unknown {
      return readSafeInt64(ctx, bytes, 'int') ?? readInt64(ctx, bytes, 'int');
    },
  } as const);
}

/**
 * `bigint` cells: 8-byte big-endian signed int64.
 * @internal
 */
function createBigintValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'bigint',
    encode(value: unknown): Buffer {
      if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX) {
        throw valueError(
          ctx,
          value,
          'is not a valid bigint value: expected a bigint in the signed 64-bit range. Fix: pass a bigint from -(2n ** 63n) to 2n ** 63n - 1n',
        );
      }
      return int64(value);
    },
    decode: (bytes: Buffer): unknown => readInt64(ctx, bytes, 'bigint'),
  } as const);
}

/**
 * `date` cells: epoch milliseconds as 8-byte big-endian signed int64.
 * @internal
 */
export function createDateValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'date',
    encode(value: unknown): Buffer {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
        throw valueError(
          ctx,
          value,
          'is not a valid date value: expected a valid Date. Fix: pass a Date object (new Date(...)) that is not Invalid Date',
        );
      }
      return safeInt64Bytes(value.getTime());
    },
    decode(bytes: Buffer): unknown {
      const ms = readSafeInt64(ctx, bytes, 'date');
      if (ms !== undefined && ms <= MAX_DATE_MS && ms >= -MAX_DATE_MS) return new Date(ms);
      throw valueError(
        ctx,
        bytes,
        `is not a valid stored date value: ${readInt64(ctx, bytes, 'date')} ms is beyond the range of Date. Fix: declare the column with type 'bigint'`,
      );
    },
  } as const);
}

function unsupported(key: string, value: unknown): string | undefined {
  const at = key === '' ? '' : ` at "${key}"`;
  if (typeof value === 'bigint') return `holds a bigint${at}, which JSON cannot store`;
  if (typeof value === 'function' || typeof value === 'symbol')
    return `holds a ${typeof value}${at}, which JSON would drop`;
  if (typeof value === 'number' && !Number.isFinite(value))
    return `holds ${value}${at}, which JSON would store as null`;
  return undefined;
}

/**
 * `JSON.stringify` that never loses data silently: rejects bigints,
 * functions, symbols, non-finite numbers, cycles and values with no JSON form
 * (`undefined`) with a `ValueEncodingError`.
 * @internal
 */
export function toJsonBytes(ctx: ValueCodecContext, value: unknown, type: string): Buffer {
  const fix =
    'Fix: store plain data (objects, arrays, strings, finite numbers, booleans, null); convert bigints to strings';
  let problem: string | undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, v: unknown) => {
      problem ??= unsupported(key, v);
      return problem === undefined ? v : undefined;
    });
  } catch (err) {
    problem = `cannot be serialized (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
  }
  if (problem !== undefined) throw valueError(ctx, value, `is not a valid ${type} value: it ${problem}. ${fix}`);
  if (text === undefined) throw valueError(ctx, value, `is not a valid ${type} value: it has no JSON form. ${fix}`);
  return Buffer.from(text, 'utf8');
}

/**
 * Parses stored UTF-8 JSON; malformed bytes throw `ValueEncodingError`.
 * @internal
 */
export function parseJsonBytes(ctx: ValueCodecContext, bytes: Buffer, type: string): unknown {
  const text = decodeUtf8Strict(bytes);
  try {
    if (text !== undefined) return JSON.parse(text) as unknown;
  } catch {
    // Reported below with the bytes.
  }
  throw valueError(
    ctx,
    bytes,
    `is not a valid stored ${type} value: not UTF-8 JSON. Fix: check the column's declared type matches how the cell was written`,
  );
}

/**
 * `json` cells: UTF-8 JSON text.
 * @internal
 */
function createJsonValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'json',
    encode: (value: unknown): Buffer => toJsonBytes(ctx, value, 'json'),
    decode: (bytes: Buffer): unknown => parseJsonBytes(ctx, bytes, 'json'),
  } as const);
}

/**
 * Class-typed cells: `instanceToPlain` then UTF-8 JSON; decoding parses the
 * JSON and hydrates it with `plainToInstance(cls, …)`, so nested
 * class-transformer decorators (`@Type`, `@Transform`, `@Exclude`) apply.
 * Arrays of instances round-trip as arrays. A `__proto__` key, which
 * `instanceToPlain` drops, is refused ({@link refuseProtoKeys}).
 * @internal
 */
function createClassValueCodec(ctx: ValueCodecContext, cls: Constructor): ValueCodec {
  const expect = `Fix: pass an instance of ${cls.name || 'the class'} (or a plain object of its shape)`;
  return Object.freeze({
    type: 'class',
    encode(value: unknown): Buffer {
      if (typeof value !== 'object' || value === null) {
        throw valueError(ctx, value, `is not a valid ${cls.name || 'class'} value: expected an object. ${expect}`);
      }
      refuseProtoKeys(ctx, value, cls.name || 'class');
      return toJsonBytes(ctx, instanceToPlain(value), 'class');
    },
    decode(bytes: Buffer): unknown {
      const plain = parseJsonBytes(ctx, bytes, 'class');
      if (typeof plain !== 'object' || plain === null) {
        throw valueError(
          ctx,
          bytes,
          `is not a valid stored ${cls.name || 'class'} value: the JSON is not an object or array. ${expect}`,
        );
      }
      return plainToInstance(cls, plain);
    },
  } as const);
}

/**
 * Throws `ValueEncodingError` when `value` holds an own `__proto__` key (as
 * `JSON.parse` makes one) at any depth: class-transformer's `instanceToPlain`
 * drops such keys, so the stored object would silently lack them. Walks
 * objects and arrays with an explicit stack (a hostile, deeply nested value
 * cannot overflow the call stack), each object once.
 * @internal
 */
export function refuseProtoKeys(ctx: ValueCodecContext, value: object, type: string): void {
  const seen = new Set<object>();
  const pending: { node: object; path: string }[] = [{ node: value, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, path } = next;
    if (seen.has(node) || ArrayBuffer.isView(node) || node instanceof Date) continue;
    seen.add(node);
    if (Object.hasOwn(node, '__proto__')) {
      const at = path === '' ? '' : ` at "${path.length > 60 ? `${path.slice(0, 59)}…` : path}"`;
      throw valueError(
        ctx,
        value,
        `is not a valid ${type} value: it holds a "__proto__" key${at}, which class-transformer would drop, losing its value. Fix: rename the key, or store the data in a 'json' column`,
      );
    }
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object')
        pending.push({ node: child, path: path === '' ? key : `${path}.${key}` });
    }
  }
}

const LONE_SURROGATE = /\p{Surrogate}/u;
/** `String.prototype.isWellFormed` (ES2024, in Node 20+) is typed from `lib: ES2024` on, so it is declared here. */
interface WellFormedString {
  isWellFormed(): boolean;
}
const NATIVE_WELL_FORMED = typeof (String.prototype as Partial<WellFormedString>).isWellFormed === 'function';
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * True when the string has a lone UTF-16 surrogate, which UTF-8 cannot store
 * (it would silently become U+FFFD). Uses the native
 * `String.prototype.isWellFormed` (Node 20+), else a Unicode regex.
 * @internal
 */
export function hasLoneSurrogate(text: string): boolean {
  return NATIVE_WELL_FORMED ? !(text as unknown as WellFormedString).isWellFormed() : LONE_SURROGATE.test(text);
}

/**
 * Decodes UTF-8 strictly: `undefined` for malformed bytes instead of U+FFFD.
 * @internal
 */
function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
