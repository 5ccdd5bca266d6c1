/*
 * Percent-escaping of row-key component text, so that an encoded component
 * never contains the key separator (docs/row-key-design.md). Only two characters are
 * escaped: `%` becomes `%25` and the separator becomes `%XX` (uppercase hex
 * of its byte). Every other character is kept as is.
 */

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * True when `separator` is one ASCII punctuation character other than `%`.
 * @internal
 */
export function isValidSeparator(separator: string): boolean {
  return separator !== '%' && ASCII_PUNCTUATION.test(separator);
}

/**
 * The escape sequence of a separator: `%` followed by the uppercase hex of its byte.
 */
function separatorEscape(separator: string): string {
  return `%${separator.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * Escapes `%` and the separator in component text.
 * @internal
 */
export function escapeComponent(text: string, separator: string): string {
  const sepEscape = separatorEscape(separator);
  let out = '';
  for (const ch of text) {
    if (ch === '%') out += '%25';
    else if (ch === separator) out += sepEscape;
    else out += ch;
  }
  return out;
}

/**
 * Reverses {@link escapeComponent}. Returns `undefined` when `text` is not
 * canonical escaped text: a raw separator, a `%` not followed by `25` or the
 * separator's escape, or any other `%XX` sequence.
 * @internal
 */
export function unescapeComponent(text: string, separator: string): string | undefined {
  const sepEscape = separatorEscape(separator);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === separator) return undefined;
    if (ch !== '%') {
      out += ch;
      i += 1;
      continue;
    }
    const sequence = text.slice(i, i + 3);
    if (sequence === '%25') out += '%';
    else if (sequence === sepEscape) out += separator;
    else return undefined;
    i += 3;
  }
  return out;
}
