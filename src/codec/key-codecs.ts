import type { KeyPartOptions } from '../model/declarations.js';
import type { KeyComponentCodec, VerbatimRules } from './codec-contracts.js';
import { KeyEncodingError } from '../errors/errors.js';
import { hasLoneSurrogate } from './value-codecs.js';
import { digitBytesValue, digitsValue } from '../util/ascii-digits.js';
import { floatFromOrderedBytes, orderedFloatBytes } from './ordered-float.js';
import { CHARSETS, IMPLIED_WIDTH, resolveKeyOptions, type ResolvedKeyOptions } from './key-options.js';
import { escapeComponent, unescapeComponent } from './key-escaping.js';

/**
 * Builds the text codec of one row-key component (docs/row-key-design.md). Validates the
 * options first and throws `MetadataError` for impossible combinations
 * (descending strings or ISO timestamps, bad widths, `format` on a
 * non-timestamp, unknown types, an ISO timestamp with `-`, `:` or `.` as
 * separator). The codec's `encode`/`decode` throw `KeyEncodingError` naming
 * `Entity.property`.
 *
 * | type | text |
 * |---|---|
 * | `string` | UTF-8, `%`→`%25`, separator→`%XX` |
 * | `string` `verbatim` | UTF-8 as is (see `createVerbatimStringCodec`) |
 * | `uint` | zero-padded, `width` digits (default 16, 1–20) |
 * | `int` | `value + 2^53`, 17 digits |
 * | `bigint` | `value + 2^63`, 20 digits |
 * | `timestamp` `iso` | `toISOString()` |
 * | `timestamp` `epoch-ms` / `epoch-s` | zero-padded, width 13 / 10 (at most 20) |
 * | `bytes` | lowercase hex (hex digits sort as the bytes they spell) |
 * | `float` | 16 hex digits of the order-preserving double bits (`codec/ordered-float.ts`) |
 * | `boolean` | `0` / `1` |
 *
 * Descending numeric and epoch components store `10^width − 1 − v`; descending
 * floats and booleans store the complement of their hex digits or digit.
 * @internal
 */
export function createKeyCodec(
  entity: string,
  property: string,
  options: KeyPartOptions,
  separator: string,
): KeyComponentCodec {
  const resolved = resolveKeyOptions(entity, property, options, separator);
  const ctx = { entity, property };
  switch (resolved.type) {
    case 'string':
      return resolved.verbatim === undefined
        ? createStringCodec(ctx, separator, resolved.maxLength)
        : createVerbatimStringCodec(ctx, resolved.verbatim, resolved.maxLength);
    case 'uint':
      return createUintCodec(ctx, resolved);
    case 'int':
      return createIntCodec(ctx, resolved);
    case 'bigint':
      return createBigintCodec(ctx, resolved);
    case 'timestamp':
      return resolved.format === 'iso' ? createIsoTimestampCodec(ctx) : createEpochTimestampCodec(ctx, resolved);
    case 'bytes':
      return createBytesCodec(ctx, resolved.maxLength);
    case 'float':
      return createFloatCodec(ctx, resolved.descending);
    case 'boolean':
      return createBooleanCodec(ctx, resolved.descending);
  }
}

/**
 * The entity and property a key codec was built for, so that its errors name
 * `Entity.property`.
 * @internal
 */
export interface KeyCodecContext {
  readonly entity: string;
  readonly property: string;
}

/**
 * Fix offered when stored key text does not decode.
 * @internal
 */
export const DECODE_FIX =
  'check that the row was written with the same @KeyPart declarations (type, width, descending, format) and that the scan covers only rows of this entity';

/**
 * Builds a `KeyEncodingError` for the codec's property.
 * @internal
 */
export function keyError(ctx: KeyCodecContext, value: unknown, reason: string, fix: string): KeyEncodingError {
  return new KeyEncodingError(ctx.entity, ctx.property, value, reason, fix);
}

/**
 * Throws unless `value` is a `Date` holding a valid time; returns its epoch milliseconds.
 * @internal
 */
function validTime(ctx: KeyCodecContext, value: unknown): number {
  if (!(value instanceof Date))
    throw keyError(ctx, value, 'is not a valid timestamp key component: expected a Date', 'pass a Date object');
  const ms = value.getTime();
  if (Number.isNaN(ms))
    throw keyError(ctx, value, 'is not a valid timestamp key component: the Date is invalid', 'pass a valid Date');
  return ms;
}

/**
 * `string` key component: UTF-8 text with `%` and the separator
 * percent-escaped, so an encoded component never contains the separator.
 *
 * Equality and prefix isolation are always exact: a scan for `"a"` never
 * returns rows of `"ab"` or `"a#b"`. Order follows the UTF-8 bytes (code point
 * order) of the *escaped* text, so it matches the order of the raw strings
 * only when every character is greater than `%` and is not the separator:
 * characters `<= '%'` such as space, `!`, `"`, `#`, `$` and `%` itself (and the
 * separator, when it is above `%`) sort differently once escaped. Composite
 * keys keep tuple order when the separator is below every character used.
 * Scan ranges stay exact regardless: `planKeyRange` widens the key range
 * past such characters and scans drop the rows outside the logical range.
 * Empty strings, strings longer than `maxLength`, and strings with lone UTF-16 surrogates (not representable in
 * UTF-8) are rejected.
 * @internal
 */
function createStringCodec(ctx: KeyCodecContext, separator: string, maxLength: number | undefined): KeyComponentCodec {
  return Object.freeze({
    type: 'string',
    width: undefined,
    descending: false,
    format: undefined,
    maxLength,
    encode(value: unknown): string {
      if (typeof value !== 'string')
        throw keyError(ctx, value, 'is not a valid string key component: expected a string', 'pass a non-empty string');
      if (value === '')
        throw keyError(ctx, value, 'is not a valid string key component: must not be empty', 'pass a non-empty string');
      if (maxLength !== undefined && value.length > maxLength) {
        throw keyError(
          ctx,
          value,
          `is not a valid string key component: ${value.length} characters, over its maxLength of ${maxLength}`,
          `shorten the value, or raise maxLength in @KeyPart if longer values are legitimate`,
        );
      }
      if (hasLoneSurrogate(value)) {
        throw keyError(
          ctx,
          value,
          'is not a valid string key component: it has a lone UTF-16 surrogate, which UTF-8 cannot store',
          'remove the broken character',
        );
      }
      return escapeComponent(value, separator);
    },
    decode(text: string): unknown {
      const value = text === '' ? undefined : unescapeComponent(text, separator);
      if (value === undefined)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded string key component (empty, raw separator or bad %-escape)',
          DECODE_FIX,
        );
      return value;
    },
  } as const);
}

/**
 * `string` key component written verbatim: the value's UTF-8 bytes as they
 * are, for adopting tables whose keys were written by hand. Empty values and
 * values holding `%` or the separator are kept; decoding stays unambiguous
 * because the compile pass allows a verbatim part only as the last key part
 * (decoding takes the rest of the key), with a `width` (decoding takes that
 * many code units), or with a `charset` that excludes the separator. Encode
 * checks the width and charset; lone surrogates are rejected.
 * @internal
 */
function createVerbatimStringCodec(
  ctx: KeyCodecContext,
  rules: VerbatimRules,
  maxLength: number | undefined,
): KeyComponentCodec {
  const { width, charset } = rules;
  const check = (value: string, what: string): string | undefined => {
    if (width !== undefined && value.length !== width)
      return `${what} ${value.length} characters, not its width of exactly ${width}`;
    if (maxLength !== undefined && value.length > maxLength)
      return `${what} ${value.length} characters, over its maxLength of ${maxLength}`;
    if (charset !== undefined && !CHARSETS[charset].test(value))
      return `${what} a character outside its charset '${charset}'`;
    return undefined;
  };
  return Object.freeze({
    type: 'string',
    width: undefined,
    descending: false,
    format: undefined,
    maxLength,
    verbatim: rules,
    encode(value: unknown): string {
      if (typeof value !== 'string')
        throw keyError(ctx, value, 'is not a valid verbatim string key component: expected a string', 'pass a string');
      const problem = check(value, 'it has');
      if (problem !== undefined) {
        throw keyError(
          ctx,
          value,
          `is not a valid verbatim string key component: ${problem}`,
          'pass a value that fits the width and charset declared in @KeyPart, or change the declaration',
        );
      }
      if (hasLoneSurrogate(value)) {
        throw keyError(
          ctx,
          value,
          'is not a valid string key component: it has a lone UTF-16 surrogate, which UTF-8 cannot store',
          'remove the broken character',
        );
      }
      return value;
    },
    decode(text: string): unknown {
      const problem = check(text, 'it has');
      if (problem !== undefined)
        throw keyError(ctx, text, `is not a valid verbatim string key component: ${problem}`, DECODE_FIX);
      return text;
    },
  } as const);
}

const INT_BIAS = 2n ** 53n;
const BIGINT_BIAS = 2n ** 63n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function safeInteger(ctx: KeyCodecContext, value: unknown, type: 'uint' | 'int'): number {
  const expected = type === 'uint' ? 'a non-negative safe integer' : 'a safe integer';
  if (typeof value !== 'number') {
    const fix = typeof value === 'bigint' ? "use type: 'bigint' for bigint values" : `pass ${expected} (a JS number)`;
    throw keyError(ctx, value, `is not a valid ${type} key component: expected a number`, fix);
  }
  if (!Number.isFinite(value))
    throw keyError(ctx, value, `is not a valid ${type} key component: not a finite number`, `pass ${expected}`);
  if (!Number.isInteger(value))
    throw keyError(
      ctx,
      value,
      `is not a valid ${type} key component: not an integer`,
      'round the value before saving, or key on an integer',
    );
  if (!Number.isSafeInteger(value)) {
    throw keyError(
      ctx,
      value,
      `is not a valid ${type} key component: beyond Number.MAX_SAFE_INTEGER`,
      "use type: 'bigint' with a bigint value",
    );
  }
  return value;
}

/**
 * `uint` key component: zero-padded decimal of `width` digits (default 16).
 * @internal
 */
function createUintCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      const n = safeInteger(ctx, value, 'uint');
      if (n < 0)
        throw keyError(ctx, value, 'is not a valid uint key component: negative', "use type: 'int' for signed values");
      return BigInt(n);
    },
    fromAscending(ascending, text) {
      if (ascending > MAX_SAFE)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded uint key component: beyond Number.MAX_SAFE_INTEGER',
          DECODE_FIX,
        );
      return Number(ascending);
    },
    fromAscendingNumber: (ascending) => ascending,
  });
}

/**
 * `int` key component: order-preserving `value + 2^53`, zero-padded to 17 digits.
 * @internal
 */
function createIntCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending: (value) => BigInt(safeInteger(ctx, value, 'int')) + INT_BIAS,
    fromAscending(ascending, text) {
      const n = ascending - INT_BIAS;
      if (n > MAX_SAFE || n < -MAX_SAFE)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded int key component: beyond the safe integer range',
          DECODE_FIX,
        );
      return Number(n);
    },
  });
}

/**
 * `bigint` key component: order-preserving `value + 2^63`, zero-padded to 20 digits (signed int64 range).
 * @internal
 */
function createBigintCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      if (typeof value !== 'bigint') {
        throw keyError(
          ctx,
          value,
          'is not a valid bigint key component: expected a bigint',
          'pass a bigint (e.g. 42n or BigInt(x))',
        );
      }
      if (value < -BIGINT_BIAS || value >= BIGINT_BIAS) {
        throw keyError(
          ctx,
          value,
          'is not a valid bigint key component: outside the signed 64-bit range',
          'pass a value from -(2n ** 63n) to 2n ** 63n - 1n',
        );
      }
      return value + BIGINT_BIAS;
    },
    fromAscending(ascending, text) {
      if (ascending >= 2n * BIGINT_BIAS)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded bigint key component: outside the signed 64-bit range',
          DECODE_FIX,
        );
      return ascending - BIGINT_BIAS;
    },
  });
}

/**
 * Conversions between a component's values and the non-negative "ascending"
 * integer that is written as digits. Both throw `KeyEncodingError`.
 * @internal
 */
export interface DigitsMapping {
  toAscending(value: unknown): bigint;
  fromAscending(ascending: bigint, text: string): unknown;
  /**
   * `fromAscending` without a BigInt, for an ascending value that is a safe
   * integer; `undefined` where `fromAscending` throws (it is then called to
   * throw). Used whenever the stored digits are exact as a number: always up
   * to {@link MAX_NUMBER_WIDTH} digits, and for wider ascending components
   * when the value is a safe integer.
   */
  fromAscendingNumber?(ascending: number): unknown;
}

/** The widest digits text whose every value (below 10^15) is an exact JS number. */
const MAX_NUMBER_WIDTH = 15;

/**
 * Builds a fixed-width digits codec, shared by the numeric and epoch key
 * codecs: `encode` pads the ascending value to `width` digits (reversed as
 * `10^width − 1 − v` when descending); `decode` accepts exactly `width` ASCII
 * digits.
 * @internal
 */
export function createDigitsCodec(
  ctx: KeyCodecContext,
  options: ResolvedKeyOptions,
  mapping: DigitsMapping,
): KeyComponentCodec {
  const width = options.width as number;
  const max = 10n ** BigInt(width) - 1n;
  const { descending } = options;
  const label = options.format ?? options.type;
  const fromNumber = mapping.fromAscendingNumber;
  const exactWidth = width <= MAX_NUMBER_WIDTH;
  const maxNumber = Number(max);
  /** The value of stored digits read as a number; `undefined` when only the BigInt path can tell. */
  const numberValue = (fromAscending: (ascending: number) => unknown, stored: number): unknown => {
    if (exactWidth) return fromAscending(descending ? maxNumber - stored : stored);
    return !descending && stored <= Number.MAX_SAFE_INTEGER ? fromAscending(stored) : undefined;
  };
  const decodeBytes =
    fromNumber === undefined
      ? undefined
      : (bytes: Uint8Array, start: number, end: number): unknown => {
          if (end - start !== width) return undefined;
          const stored = digitBytesValue(bytes, start, end);
          return stored < 0 ? undefined : numberValue(fromNumber, stored);
        };
  return Object.freeze({
    type: options.type,
    width,
    descending,
    format: options.format,
    encode(value: unknown): string {
      const ascending = mapping.toAscending(value);
      if (ascending > max) {
        throw keyError(
          ctx,
          value,
          `is not a valid ${label} key component: it needs more than ${width} digits`,
          'declare a larger width in @KeyPart (at most 20)',
        );
      }
      return (descending ? max - ascending : ascending).toString().padStart(width, '0');
    },
    decode(text: string): unknown {
      if (fromNumber !== undefined && text.length === width) {
        const stored = digitsValue(text);
        const value = stored < 0 ? undefined : numberValue(fromNumber, stored);
        if (value !== undefined) return value;
      }
      if (text.length !== width || !/^[0-9]+$/.test(text)) {
        throw keyError(
          ctx,
          text,
          `is not a valid encoded ${label} key component: expected exactly ${width} digits`,
          DECODE_FIX,
        );
      }
      const stored = BigInt(text);
      return mapping.fromAscending(descending ? max - stored : stored, text);
    },
    ...(decodeBytes === undefined ? {} : { decodeBytes }),
  });
}

/** Largest epoch milliseconds a `Date` can hold. */
const MAX_DATE_MS = 8_640_000_000_000_000n;
const MAX_DATE_MS_NUMBER = Number(MAX_DATE_MS);
const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `timestamp` key component in ISO-8601 UTC with milliseconds (`2023-05-01T12:00:00.000Z`).
 * Years must be 0000–9999 so that text order equals time order.
 * @internal
 */
function createIsoTimestampCodec(ctx: KeyCodecContext): KeyComponentCodec {
  return Object.freeze({
    type: 'timestamp',
    width: undefined,
    descending: false,
    format: 'iso',
    encode(value: unknown): string {
      validTime(ctx, value);
      const year = (value as Date).getUTCFullYear();
      if (year < 0 || year > 9999) {
        throw keyError(
          ctx,
          value,
          'is not a valid ISO timestamp key component: the year is outside 0000–9999, where text order would break',
          'pass a date between the years 0 and 9999',
        );
      }
      return (value as Date).toISOString();
    },
    decode(text: string): unknown {
      const date = new Date(ISO_SHAPE.test(text) ? text : Number.NaN);
      if (Number.isNaN(date.getTime()) || date.toISOString() !== text) {
        throw keyError(
          ctx,
          text,
          'is not a valid encoded ISO timestamp key component (expected YYYY-MM-DDTHH:mm:ss.sssZ)',
          DECODE_FIX,
        );
      }
      return date;
    },
  } as const);
}

/**
 * `timestamp` key component as zero-padded epoch seconds or milliseconds,
 * optionally descending (`10^width − 1 − t`). Dates before 1970 are rejected;
 * `epoch-s` rejects dates with milliseconds, which would collide rows.
 * @internal
 */
function createEpochTimestampCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  const seconds = options.format === 'epoch-s';
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      const ms = validTime(ctx, value);
      if (ms < 0) {
        throw keyError(
          ctx,
          value,
          `is not a valid ${options.format} key component: before 1970`,
          "use format: 'iso' for dates before 1970",
        );
      }
      if (seconds && ms % 1000 !== 0) {
        throw keyError(
          ctx,
          value,
          'is not a valid epoch-s key component: it has milliseconds, so two rows in the same second would share a key',
          "round the date to whole seconds, or use format: 'epoch-ms'",
        );
      }
      return BigInt(seconds ? ms / 1000 : ms);
    },
    fromAscending(ascending, text) {
      const ms = seconds ? ascending * 1000n : ascending;
      if (ms > MAX_DATE_MS)
        throw keyError(
          ctx,
          text,
          `is not a valid encoded ${options.format} key component: beyond the largest Date`,
          DECODE_FIX,
        );
      return new Date(Number(ms));
    },
    fromAscendingNumber(ascending) {
      const ms = seconds ? ascending * 1000 : ascending;
      return ms > MAX_DATE_MS_NUMBER ? undefined : new Date(ms);
    },
  });
}

const HEX_BYTES = /^(?:[0-9a-f]{2})+$/;

/**
 * `bytes` key component (a `Uint8Array`, `Buffer` included): lowercase hex,
 * which sorts as the bytes do and never holds `%` or a separator. Empty
 * values and values over `maxLength` bytes are rejected. Decodes to a `Buffer`.
 * @internal
 */
function createBytesCodec(ctx: KeyCodecContext, maxLength: number | undefined): KeyComponentCodec {
  return Object.freeze({
    type: 'bytes',
    width: undefined,
    descending: false,
    format: undefined,
    maxLength,
    encode(value: unknown): string {
      if (!(value instanceof Uint8Array) || value.length === 0)
        throw keyError(
          ctx,
          value,
          'is not a valid bytes key component: expected a non-empty Uint8Array or Buffer',
          'pass a non-empty Buffer',
        );
      if (maxLength !== undefined && value.length > maxLength)
        throw keyError(
          ctx,
          value,
          `is not a valid bytes key component: ${value.length} bytes, over its maxLength of ${maxLength}`,
          'shorten the value, or raise maxLength in @KeyPart if longer values are legitimate',
        );
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
    },
    decode(text: string): unknown {
      if (!HEX_BYTES.test(text) || (maxLength !== undefined && text.length > 2 * maxLength))
        throw keyError(
          ctx,
          text,
          'is not a valid encoded bytes key component (expected pairs of lowercase hex digits)',
          DECODE_FIX,
        );
      return Buffer.from(text, 'hex');
    },
  } as const);
}

const HEX_COMPLEMENT: Readonly<Record<string, string>> = Object.fromEntries(
  [...'0123456789abcdef'].map((digit, i) => [digit, (15 - i).toString(16)]),
);

/** Each hex digit `d` as `f − d`: reverses the order of equal-length hex texts. */
function complementHex(text: string): string {
  let out = '';
  for (const digit of text) out += HEX_COMPLEMENT[digit] ?? digit;
  return out;
}

const FLOAT_HEX = /^[0-9a-f]{16}$/;

/**
 * `float` key component (a finite JS number): the 8 order-preserving bytes of
 * `orderedFloatBytes` as 16 lowercase hex digits, each digit complemented when
 * descending. NaN and infinities are rejected; `-0` is stored, and read back,
 * as `0`.
 * @internal
 */
function createFloatCodec(ctx: KeyCodecContext, descending: boolean): KeyComponentCodec {
  return Object.freeze({
    type: 'float',
    width: IMPLIED_WIDTH.float,
    descending,
    format: undefined,
    encode(value: unknown): string {
      if (typeof value !== 'number')
        throw keyError(ctx, value, 'is not a valid float key component: expected a number', 'pass a finite JS number');
      if (!Number.isFinite(value))
        throw keyError(
          ctx,
          value,
          'is not a valid float key component: NaN and infinities have no place in key order',
          'pass a finite number, or key on a separate flag for missing values',
        );
      const hex = orderedFloatBytes(value).toString('hex');
      return descending ? complementHex(hex) : hex;
    },
    decode(text: string): unknown {
      const value = FLOAT_HEX.test(text)
        ? floatFromOrderedBytes(Buffer.from(descending ? complementHex(text) : text, 'hex'))
        : undefined;
      if (value === undefined)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded float key component (expected 16 lowercase hex digits of a finite number)',
          DECODE_FIX,
        );
      return value;
    },
  } as const);
}

/**
 * `boolean` key component: `0` for false and `1` for true (`1` and `0` when descending).
 * @internal
 */
function createBooleanCodec(ctx: KeyCodecContext, descending: boolean): KeyComponentCodec {
  const [falseText, trueText] = descending ? ['1', '0'] : ['0', '1'];
  return Object.freeze({
    type: 'boolean',
    width: IMPLIED_WIDTH.boolean,
    descending,
    format: undefined,
    encode(value: unknown): string {
      if (typeof value !== 'boolean')
        throw keyError(ctx, value, 'is not a valid boolean key component: expected true or false', 'pass a boolean');
      return value ? trueText : falseText;
    },
    decode(text: string): unknown {
      if (text === trueText) return true;
      if (text === falseText) return false;
      throw keyError(ctx, text, 'is not a valid encoded boolean key component (expected 0 or 1)', DECODE_FIX);
    },
  } as const);
}
