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
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
