import type { KeyComponentCodec } from './codec-contracts.js';
import { DECODE_FIX, keyError, type KeyCodecContext } from './key-codec-context.js';
import { escapeComponent, unescapeComponent } from './escape.js';
import { hasLoneSurrogate } from './utf8.js';

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
 * Empty strings and strings with lone UTF-16 surrogates (not representable in
 * UTF-8) are rejected.
 * @internal
 */
export function createStringCodec(ctx: KeyCodecContext, separator: string): KeyComponentCodec {
  return Object.freeze({
    type: 'string',
    width: undefined,
    descending: false,
    format: undefined,
    encode(value: unknown): string {
      if (typeof value !== 'string')
        throw keyError(ctx, value, 'is not a valid string key component: expected a string', 'pass a non-empty string');
      if (value === '')
        throw keyError(ctx, value, 'is not a valid string key component: must not be empty', 'pass a non-empty string');
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
