import type { KeyPartOptions, KeyPartType, TimestampKeyFormat } from '../model/declarations.js';
import { MetadataError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { isValidSeparator } from './escape.js';

/**
 * Validated options of one key component, with defaults applied.
 * @internal
 */
export interface ResolvedKeyOptions {
  readonly type: KeyPartType;
  readonly width: number | undefined;
  readonly descending: boolean;
  readonly format: TimestampKeyFormat | undefined;
}

const KEY_TYPES: readonly KeyPartType[] = ['string', 'uint', 'int', 'bigint', 'timestamp'];
const FORMATS: readonly TimestampKeyFormat[] = ['iso', 'epoch-s', 'epoch-ms'];
/** Fixed widths: `int` is `value + 2^53` (17 digits), `bigint` is `value + 2^63` (20 digits). */
const FIXED_WIDTH: Partial<Record<KeyPartType, number>> = { int: 17, bigint: 20 };
/** Default, minimum and maximum digits of the configurable widths. */
const WIDTH_RULES = {
  uint: { default: 16, min: 1, max: 20, why: 'uint widths go from 1 to 20 digits (16 hold every safe integer)' },
  'epoch-ms': { default: 13, min: 13, max: 20, why: 'epoch-ms needs at least 13 digits (dates up to the year 2286)' },
  'epoch-s': { default: 10, min: 10, max: 20, why: 'epoch-s needs at least 10 digits (dates up to the year 2286)' },
} as const;
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
  const { type, width, descending = false, format } = options ?? ({} as KeyPartOptions);
  if (!KEY_TYPES.includes(type)) {
    throw fail(`unknown key part type ${preview(type)}`, `use one of ${KEY_TYPES.map((t) => `'${t}'`).join(', ')}`);
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
    if (width !== undefined) throw fail('string components have no width', 'remove width');
    return { type, width: undefined, descending: false, format: undefined };
  }
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
