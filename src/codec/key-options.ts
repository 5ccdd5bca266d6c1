import type { KeyPartOptions, KeyPartType, TimestampKeyFormat, VerbatimCharset } from '../model/declarations.js';
import type { VerbatimRules } from './codec-contracts.js';
import { MetadataError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { isValidSeparator } from './key-escaping.js';

/*
 * The options of one row-key part (`@KeyPart(n, options)`), checked and completed once at compile time:
 * type, width, direction, timestamp format, maximum length and the verbatim charset.
 */

/**
 * Validated options of one key component, with defaults applied.
 * @internal
 */
export interface ResolvedKeyOptions {
  readonly type: KeyPartType;
  readonly width: number | undefined;
  readonly descending: boolean;
  readonly format: TimestampKeyFormat | undefined;
  /** Longest string value in UTF-16 code units (bytes value in bytes); `undefined` when unbounded or neither. */
  readonly maxLength?: number | undefined;
  /** A `verbatim` string part's fixed width and charset; `undefined` for escaped parts. */
  readonly verbatim?: VerbatimRules | undefined;
}

/** The characters of each verbatim charset; none holds ASCII punctuation other than `_`. @internal */
export const CHARSETS: Readonly<Record<VerbatimCharset, RegExp>> = {
  alnum: /^[A-Za-z0-9]*$/,
  word: /^[A-Za-z0-9_]*$/,
  hex: /^[0-9A-Fa-f]*$/,
};

const KEY_TYPES: readonly KeyPartType[] = ['string', 'uint', 'int', 'bigint', 'timestamp', 'bytes', 'float', 'boolean'];
const FORMATS: readonly TimestampKeyFormat[] = ['iso', 'epoch-s', 'epoch-ms'];
/** Fixed widths: `int` is `value + 2^53` (17 digits), `bigint` is `value + 2^63` (20 digits). */
const FIXED_WIDTH: Partial<Record<KeyPartType, number>> = { int: 17, bigint: 20 };
/** Text lengths of the types whose width is not an option: 16 hex digits of a double, one digit of a boolean. */
export const IMPLIED_WIDTH = { float: 16, boolean: 1 } as const;
/** Longest `bytes` maxLength: its hex text is twice as long and must fit Bigtable's 4 KiB row key. */
const MAX_KEY_BYTES_LENGTH = 2048;
/** Default, minimum and maximum digits of the configurable widths. */
const WIDTH_RULES = {
  uint: { default: 16, min: 1, max: 20, why: 'uint widths go from 1 to 20 digits (16 hold every safe integer)' },
  'epoch-ms': { default: 13, min: 13, max: 20, why: 'epoch-ms needs at least 13 digits (dates up to the year 2286)' },
  'epoch-s': { default: 10, min: 10, max: 20, why: 'epoch-s needs at least 10 digits (dates up to the year 2286)' },
} as const;
/** Largest `maxLength`: a longer value cannot fit Bigtable's 4 KiB row key even in ASCII. */
const MAX_KEY_STRING_LENGTH = 4096;
/** Characters of `YYYY-MM-DDTHH:mm:ss.sssZ` that a separator could collide with. */
const ISO_PUNCTUATION = ['-', ':', '.'];

/**
 * Validates `@KeyPart` options and applies defaults; throws `MetadataError`
 * naming `Entity.property` for impossible combinations.
 * @internal
 */
export function resolveKeyOptions(
  entity: string,
  property: string,
  options: KeyPartOptions,
  separator: string,
): ResolvedKeyOptions {
  const fail = (problem: string, fix: string): MetadataError => new MetadataError(entity, property, problem, fix);
  if (!isValidSeparator(separator)) {
    throw new MetadataError(
      entity,
      undefined,
      `key separator ${preview(separator)} is not a single ASCII punctuation character other than "%"`,
      "set @Entity({ separator: '#' }) or another punctuation character",
    );
  }
  const { type, width, descending = false, format, maxLength, verbatim, charset } = options ?? ({} as KeyPartOptions);
  if (!KEY_TYPES.includes(type)) {
    throw fail(`unknown key part type ${preview(type)}`, `use one of ${KEY_TYPES.map((t) => `'${t}'`).join(', ')}`);
  }
  if (maxLength !== undefined && type !== 'string' && type !== 'bytes') {
    throw fail(
      `maxLength applies only to string and bytes key parts, not to '${type}'`,
      type === 'uint' ? 'remove maxLength; width bounds a uint part' : 'remove maxLength',
    );
  }
  if (
    type === 'string' &&
    maxLength !== undefined &&
    (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_KEY_STRING_LENGTH)
  ) {
    throw fail(
      `maxLength ${preview(maxLength)} is not an integer from 1 to ${MAX_KEY_STRING_LENGTH}`,
      `give the longest value the property may hold, such as maxLength: 64 (each character takes at most 3 of the row key's 4096 bytes)`,
    );
  }
  if (typeof descending !== 'boolean')
    throw fail(`descending must be true or false, got ${preview(descending)}`, 'pass descending: true or leave it out');
  if (format !== undefined && type !== 'timestamp') {
    throw fail(
      `format applies only to timestamp key parts, not to '${type}'`,
      "remove format, or use type: 'timestamp'",
    );
  }
  if (format !== undefined && !FORMATS.includes(format)) {
    throw fail(`unknown timestamp format ${preview(format)}`, `use one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`);
  }
  if (type === 'string') {
    if (descending)
      throw fail(
        'string components cannot be descending',
        'remove descending, or key on a number or an epoch timestamp',
      );
    if (verbatim !== undefined && typeof verbatim !== 'boolean')
      throw fail(`verbatim must be true or false, got ${preview(verbatim)}`, 'pass verbatim: true or leave it out');
    if (verbatim === true) return resolveVerbatim(fail, { type, width, charset, maxLength }, separator);
    if (width !== undefined)
      throw fail(
        'escaped string components have no width',
        'remove width, or add verbatim: true for fixed-width raw text',
      );
    if (charset !== undefined)
      throw fail('charset applies only to verbatim string key parts', 'add verbatim: true, or remove charset');
    return { type, width: undefined, descending: false, format: undefined, maxLength };
  }
  if (verbatim !== undefined || charset !== undefined)
    throw fail(`verbatim and charset apply only to string key parts, not to '${type}'`, 'remove verbatim and charset');
  if (type === 'bytes') return resolveBytes(fail, { width, descending, maxLength }, separator);
  if (type === 'timestamp' && (format ?? 'iso') === 'iso') {
    if (descending)
      throw fail(
        "descending timestamps need an epoch format, not 'iso'",
        "use format: 'epoch-ms' (or 'epoch-s') with descending: true",
      );
    if (width !== undefined) throw fail('ISO timestamps have no width', "remove width, or use format: 'epoch-ms'");
    if (ISO_PUNCTUATION.includes(separator)) {
      throw fail(
        `ISO timestamps contain the key separator ${preview(separator)}`,
        "use format: 'epoch-ms', or another separator such as '#'",
      );
    }
    return { type, width: undefined, descending: false, format: 'iso' };
  }
  if (type === 'float' || type === 'boolean') {
    if (width !== undefined)
      throw fail(
        `${type} components have no width (always ${IMPLIED_WIDTH[type]} ${type === 'float' ? 'hex digits' : 'digit'})`,
        'remove width',
      );
    return { type, width: IMPLIED_WIDTH[type], descending, format: undefined };
  }
  const fixed = FIXED_WIDTH[type];
  if (fixed !== undefined) {
    if (width !== undefined && width !== fixed) {
      throw fail(`${type} components are always ${fixed} digits wide, got width ${preview(width)}`, 'remove width');
    }
    return { type, width: fixed, descending, format: undefined };
  }
  const rule = type === 'uint' ? WIDTH_RULES.uint : WIDTH_RULES[format as 'epoch-s' | 'epoch-ms'];
  const resolved = width ?? rule.default;
  if (!Number.isInteger(resolved) || resolved < rule.min || resolved > rule.max) {
    throw fail(
      `width ${preview(width)} is not valid: ${rule.why}`,
      `use an integer width from ${rule.min} to ${rule.max}, or leave it out (default ${rule.default})`,
    );
  }
  return { type, width: resolved, descending, format: type === 'timestamp' ? format : undefined };
}

/**
 * The options of a `bytes` part: no width, no descending (a shorter value is
 * a prefix of a longer one in either order, so hex cannot be reversed), a
 * `maxLength` in bytes, and a separator below `0`, so that a value and a
 * longer value it starts sort as the byte strings do with the separator after
 * them.
 */
function resolveBytes(
  fail: (problem: string, fix: string) => MetadataError,
  options: Pick<KeyPartOptions, 'width' | 'descending' | 'maxLength'>,
  separator: string,
): ResolvedKeyOptions {
  const { width, descending, maxLength } = options;
  if (width !== undefined) throw fail('bytes components have no width', 'remove width, or bound them with maxLength');
  if (descending)
    throw fail(
      "bytes components cannot be descending in keyFormat 'text'",
      "remove descending, or use keyFormat: 'ordered-code', whose struct fields can be descending",
    );
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_KEY_BYTES_LENGTH)) {
    throw fail(
      `maxLength ${preview(maxLength)} is not an integer from 1 to ${MAX_KEY_BYTES_LENGTH}`,
      'give the most bytes the property may hold, such as maxLength: 16 (each byte takes 2 hex characters of the row key)',
    );
  }
  if (separator.charCodeAt(0) >= 0x30) {
    throw fail(
      `bytes components need a key separator that sorts below the hex digits, not ${preview(separator)}`,
      "use @Entity({ separator: '#' }) or another punctuation character from '!' to '/'",
    );
  }
  return { type: 'bytes', width: undefined, descending: false, format: undefined, maxLength };
}

/** Longest verbatim `width`: a wider part cannot fit Bigtable's 4 KiB row key. */
const MAX_VERBATIM_WIDTH = 4096;

/**
 * The options of a `verbatim` string part. Whether it is the last key part
 * (which needs neither width nor charset) is checked by the compile pass,
 * which sees the whole key.
 */
function resolveVerbatim(
  fail: (problem: string, fix: string) => MetadataError,
  options: Pick<KeyPartOptions, 'width' | 'charset' | 'maxLength'> & { type: 'string' },
  separator: string,
): ResolvedKeyOptions {
  const { width, charset, maxLength } = options;
  if (width !== undefined && (!Number.isInteger(width) || width < 1 || width > MAX_VERBATIM_WIDTH)) {
    throw fail(
      `width ${preview(width)} is not an integer from 1 to ${MAX_VERBATIM_WIDTH}`,
      'give the exact length of every value, such as width: 36 for a UUID',
    );
  }
  if (width !== undefined && maxLength !== undefined)
    throw fail('a verbatim part with a width needs no maxLength', 'remove maxLength; width fixes the length');
  if (charset !== undefined && !Object.hasOwn(CHARSETS, charset)) {
    throw fail(
      `unknown charset ${preview(charset)}`,
      `use one of ${Object.keys(CHARSETS)
        .map((c) => `'${c}'`)
        .join(', ')}`,
    );
  }
  if (charset !== undefined && CHARSETS[charset].test(separator)) {
    throw fail(
      `charset '${charset}' holds the key separator ${preview(separator)}, so the part's end could not be found`,
      "use charset 'alnum', or another separator",
    );
  }
  return {
    type: 'string',
    width: undefined,
    descending: false,
    format: undefined,
    maxLength: width ?? maxLength,
    verbatim: Object.freeze({ width, charset }),
  };
}
