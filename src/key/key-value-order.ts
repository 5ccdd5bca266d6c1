/**
 * Compares two strings by Unicode code point, the order of their UTF-8 bytes
 * (and so of Bigtable row keys). JavaScript's `<` compares UTF-16 code units,
 * which differs for characters above U+FFFF against U+E000–U+FFFF.
 *
 * @example
 * ```ts
 * compareCodePoints('\uffff', '😀') < 0; // true ('<' says the opposite)
 * ```
 * @internal
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (U+D800–DFFF) above U+E000–FFFF, so code units compare like code points. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Logical order of two key-part values of the same type: strings by code
 * point, numbers and bigints numerically, `Date`s by time. Values must
 * already have passed the key part's codec.
 *
 * @example
 * ```ts
 * compareKeyValues(new Date(1), new Date(2)); // negative
 * ```
 * @internal
 */
export function compareKeyValues(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}
