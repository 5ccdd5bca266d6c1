import { preview } from '../errors/bigtable-mapper-error.js';
import { CHARSETS } from '../codec/key-options.js';
import type { KeyComponentCodec } from '../codec/codec-contracts.js';

/*
 * The JSON form of each value type, in one place so that the schema `toJsonSchema` writes and the
 * conversions of `fromJson` and `toJson` cannot drift apart:
 *
 * | value | JSON | schema |
 * | --- | --- | --- |
 * | `Date` (`date` columns, `timestamp` key parts, cell timestamps) | RFC 3339 date-time text | `string`, `format: date-time` and a pattern |
 * | `bigint` | decimal text | `string` with a pattern of the signed 64-bit range |
 * | bytes (`Uint8Array`, `Buffer`) | base64 text (RFC 4648, padded) | `string`, `contentEncoding: base64` and a pattern |
 * | everything else | itself | by type |
 */

/** A JSON Schema object. */
export type SchemaObject = { [keyword: string]: unknown };

/**
 * A JSON value, as `JSON.parse` gives it and `toJson` writes it.
 *
 * @example
 * ```ts
 * const value: JsonValue = { ts: '2024-05-01T12:00:00.000Z', tags: ['a', 'b'], count: 2 };
 * ```
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a conversion of a JSON value reports instead of a value: what was expected. */
export class JsonMismatch {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// ---- date-time -------------------------------------------------------------------------------------

const DIGIT = '[0-9]';
const MONTH = '(?:0[1-9]|1[0-2])';
const DAY = '(?:0[1-9]|[12][0-9]|3[01])';
const HOUR = '(?:[01][0-9]|2[0-3])';
const MINUTE = '[0-5][0-9]';
const SECOND = '(?:[0-5][0-9]|60)';
const OFFSET = `(?:[Zz]|[+-]${HOUR}:${MINUTE})`;
/** Any fraction of a second: digits past the milliseconds are dropped. */
const ANY_FRACTION = `(?:\\.${DIGIT}+)?`;
/** A fraction that leaves no milliseconds once digits past them are dropped: `.0`, `.00`, `.000…`. */
const ZERO_MS_FRACTION = `(?:\\.0(?:0(?:0${DIGIT}*)?)?)?`;

function dateTimePattern(fraction: string): string {
  return `^${DIGIT}{4}-${MONTH}-${DAY}[Tt]${HOUR}:${MINUTE}:${SECOND}${fraction}${OFFSET}$`;
}

/** RFC 3339 `date-time` text, with the ranges of each field (the day of the month is `format`'s to check). */
const DATE_TIME = new RegExp(dateTimePattern(ANY_FRACTION));
const DATE_TIME_PARTS =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (any year, 0000 included). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The `Date` of RFC 3339 `date-time` text, as JSON Schema's `format:
 * date-time` accepts it (the rules of Ajv's `ajv-formats`: a real day of the
 * month, hours to 23, and a leap second `:60` only at 23:59 UTC), or
 * `undefined`. Digits past the milliseconds are dropped; a leap second reads
 * as `:59` (JavaScript time has none).
 */
export function parseDateTime(text: string): Date | undefined {
  if (!DATE_TIME.test(text)) return undefined;
  const m = DATE_TIME_PARTS.exec(text) as RegExpExecArray;
  const field = (i: number): number => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [field(1), field(2), field(3), field(4), field(5), field(6)];
  const sign = m[8] === '-' ? -1 : 1;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (day > (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number))) return undefined;
  if (second === 60) {
    const utcMinute = minute - offsetMinutes * sign;
    const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
    if (!((utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1))) return undefined;
  }
  const ms = Number(((m[7] ?? '') + '000').slice(0, 3));
  const local = (daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + Math.min(second, 59)) * 1_000;
  return new Date(local + ms - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

/** The schema of a `Date`: RFC 3339 text; `wholeSeconds` when milliseconds are refused (`epoch-s` keys). */
export function dateTimeSchema(description: string, wholeSeconds = false): SchemaObject {
  return {
    type: 'string',
    format: 'date-time',
    pattern: dateTimePattern(wholeSeconds ? ZERO_MS_FRACTION : ANY_FRACTION),
    description,
  };
}

const DATE_TIME_TEXT =
  'an RFC 3339 date-time with a time zone, e.g. 2024-05-01T12:00:00.000Z (digits past milliseconds are dropped)';

/** `Date` ← date-time text. */
export function dateFromJson(value: unknown): Date | JsonMismatch {
  const date = typeof value === 'string' ? parseDateTime(value) : undefined;
  return date ?? new JsonMismatch(`expected ${DATE_TIME_TEXT}, got ${preview(value)}`);
}

// ---- bigint ----------------------------------------------------------------------------------------

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const DECIMAL = /^-?(?:0|[1-9][0-9]*)$/;

/** A regular expression alternation of the decimal numbers from 1 to `max` (no leading zeros). */
function decimalsUpTo(max: string): string {
  const alternatives = [`[1-9][0-9]{0,${max.length - 2}}`];
  for (let i = 0; i < max.length; i++) {
    const digit = Number(max[i]);
    const low = i === 0 ? 1 : 0;
    if (digit > low) {
      const range = digit - 1 === low ? String(low) : `[${low}-${digit - 1}]`;
      const rest = max.length - 1 - i;
      alternatives.push(`${max.slice(0, i)}${range}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
    }
  }
  alternatives.push(max);
  return alternatives.join('|');
}

/** A signed 64-bit integer in decimal, exactly: `0`, or no leading zeros, no `-0`, within −2^63 … 2^63 − 1. */
const INT64_PATTERN = `^(?:0|${decimalsUpTo(INT64_MAX.toString())}|-(?:${decimalsUpTo((-INT64_MIN).toString())}))$`;

/** The schema of a `bigint`: decimal text of a signed 64-bit integer. */
export function bigintSchema(): SchemaObject {
  return {
    type: 'string',
    pattern: INT64_PATTERN,
    description: 'a signed 64-bit integer as decimal text, e.g. "-42" (JSON numbers lose precision past 2^53)',
  };
}

/** `bigint` ← decimal text of a signed 64-bit integer. */
export function bigintFromJson(value: unknown): bigint | JsonMismatch {
  // 20 characters hold every int64 ("-9223372036854775808"); a longer text is never parsed.
  if (typeof value === 'string' && value.length <= 20 && DECIMAL.test(value) && value !== '-0') {
    const parsed = BigInt(value);
    if (parsed >= INT64_MIN && parsed <= INT64_MAX) return parsed;
  }
  return new JsonMismatch(
    `expected a signed 64-bit integer as decimal text (e.g. "-42", no leading zeros), got ${preview(value)}`,
  );
}

// ---- bytes -----------------------------------------------------------------------------------------

const B64 = '[A-Za-z0-9+/]';
const GROUP = `${B64}{4}`;
const TAIL_1 = `${B64}{2}==`;
const TAIL_2 = `${B64}{3}=`;
const BASE64 = new RegExp(`^(?:${GROUP})*(?:${TAIL_1}|${TAIL_2})?$`);

/**
 * Padded base64 of `min` (0 or 1) to `max` bytes, exactly: whole groups of
 * 4 characters (3 bytes), then at most one padded group of 1 or 2 bytes.
 */
function base64Pattern(nonEmpty: boolean, max: number | undefined): string {
  const start = nonEmpty ? '^(?!$)' : '^';
  if (max === undefined) return `${start}(?:${GROUP})*(?:${TAIL_1}|${TAIL_2})?$`;
  const groups = Math.floor(max / 3);
  const rest = max % 3;
  const alternatives: string[] = [];
  const upTo = (n: number) => (n === 0 ? '' : n === 1 ? `(?:${GROUP})?` : `(?:${GROUP}){0,${n}}`);
  // Fewer whole groups than the most, then any tail; or the most, then a tail that still fits.
  if (groups > 0) alternatives.push(`${upTo(groups - 1)}(?:${TAIL_1}|${TAIL_2})?`);
  const lastTail = rest === 0 ? '' : rest === 1 ? `(?:${TAIL_1})?` : `(?:${TAIL_1}|${TAIL_2})?`;
  alternatives.push(`${groups === 0 ? '' : groups === 1 ? `${GROUP}` : `(?:${GROUP}){${groups}}`}${lastTail}`);
  return `${start}(?:${alternatives.join('|')})$`;
}

/** The schema of bytes: padded base64; a key part's bytes are non-empty and at most its `maxLength`. */
export function bytesSchema(nonEmpty: boolean, maxBytes: number | undefined): SchemaObject {
  const bound =
    maxBytes === undefined
      ? ''
      : `, at most ${maxBytes} byte${maxBytes === 1 ? '' : 's'}${nonEmpty ? ', not empty' : ''}`;
  return {
    type: 'string',
    contentEncoding: 'base64',
    pattern: base64Pattern(nonEmpty, maxBytes),
    description: `bytes in padded base64 (RFC 4648)${bound || (nonEmpty ? ', not empty' : '')}`,
  };
}

/** `Buffer` ← padded base64 text. */
export function bytesFromJson(value: unknown): Buffer | JsonMismatch {
  if (typeof value === 'string' && BASE64.test(value)) return Buffer.from(value, 'base64');
  return new JsonMismatch(`expected bytes in padded base64 (RFC 4648), got ${preview(value)}`);
}

// ---- key parts -------------------------------------------------------------------------------------

/** Longest string key part: a longer one cannot fit Bigtable's 4 KiB row key. */
const MAX_KEY_TEXT = 4096;
/** Largest epoch milliseconds a `Date` can hold. */
const MAX_DATE_MS = 8_640_000_000_000_000;

/**
 * The schema of a key part's value, from its codec: a string's length and
 * charset, a number's range, the text forms of `bigint`, bytes and `Date`.
 */
export function keyPartSchema(codec: KeyComponentCodec): SchemaObject {
  switch (codec.type) {
    case 'string':
      return stringKeySchema(codec);
    case 'uint': {
      const widest = codec.width === undefined ? MAX_SAFE : Math.min(10 ** codec.width - 1, MAX_SAFE);
      return { type: 'integer', minimum: 0, maximum: widest };
    }
    case 'int':
      return { type: 'integer', minimum: -MAX_SAFE, maximum: MAX_SAFE };
    case 'bigint':
      return bigintSchema();
    case 'float':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'bytes':
      return bytesSchema(true, codec.maxLength);
    case 'timestamp':
      return timestampKeySchema(codec);
  }
}

function stringKeySchema(codec: KeyComponentCodec): SchemaObject {
  const verbatim = codec.verbatim;
  if (verbatim === undefined) return { type: 'string', minLength: 1, maxLength: codec.maxLength ?? MAX_KEY_TEXT };
  const schema: SchemaObject = { type: 'string' };
  if (verbatim.width !== undefined) {
    schema['minLength'] = verbatim.width;
    schema['maxLength'] = verbatim.width;
  } else {
    schema['maxLength'] = codec.maxLength ?? MAX_KEY_TEXT;
  }
  if (verbatim.charset !== undefined) schema['pattern'] = CHARSETS[verbatim.charset].source;
  return schema;
}

function timestampKeySchema(codec: KeyComponentCodec): SchemaObject {
  if (codec.format === 'iso') return dateTimeSchema(`${DATE_TIME_TEXT}; years 0000 to 9999 (UTC)`);
  if (codec.format === undefined) return dateTimeSchema(DATE_TIME_TEXT);
  const seconds = codec.format === 'epoch-s';
  const largest = Math.min((10 ** (codec.width as number) - 1) * (seconds ? 1000 : 1), MAX_DATE_MS);
  const range = `from 1970-01-01T00:00:00Z to ${new Date(largest).toISOString()}`;
  return dateTimeSchema(`${DATE_TIME_TEXT}; ${seconds ? 'whole seconds, ' : ''}${range}`, seconds);
}

/** A key part's value ← JSON: `Date`, `bigint` and bytes from their text; the rest as it is. */
export function keyPartFromJson(codec: KeyComponentCodec, value: unknown): unknown {
  switch (codec.type) {
    case 'timestamp':
      return dateFromJson(value);
    case 'bigint':
      return bigintFromJson(value);
    case 'bytes':
      return bytesFromJson(value);
    default:
      return value;
  }
}

// ---- floats ----------------------------------------------------------------------------------------

/** The numbers JSON cannot write, as text: a `float` column may hold them. */
const NON_FINITE = ['NaN', 'Infinity', '-Infinity'] as const;

/** The schema of a `float` column's value: a number, or `NaN`, `Infinity` or `-Infinity` as text. */
export function floatSchema(): SchemaObject {
  return {
    anyOf: [{ type: 'number' }, { enum: [...NON_FINITE], description: 'a number JSON cannot write, as text' }],
  };
}

/** A `float` column's value ← JSON: the text of a non-finite number becomes the number; the rest stays. */
export function floatFromJson(value: unknown): unknown {
  return typeof value === 'string' && (NON_FINITE as readonly string[]).includes(value) ? Number(value) : value;
}

/** A `float` column's value → JSON: a non-finite number as its text. */
export function floatToJson(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}
