/**
 * Bytes as readable text: printable ASCII as is, the backslash as `\\` and
 * every other byte as `\xNN`, so a row key with a separator, a `0xff` bound
 * or UTF-8 reads unambiguously in a log line. `hexDigits` picks the case of
 * the `NN` digits.
 * @internal
 * @example
 * ```ts
 * printableBytes(Buffer.from([0x61, 0x23, 0x00])); // 'a#\\x00'
 * ```
 */
export function printableBytes(bytes: Uint8Array, hexDigits: 'lower' | 'upper' = 'lower'): string {
  let text = '';
  for (const byte of bytes) {
    if (byte === 0x5c) text += '\\\\';
    else if (byte >= 0x20 && byte <= 0x7e) text += String.fromCharCode(byte);
    else {
      const hex = byte.toString(16).padStart(2, '0');
      text += `\\x${hexDigits === 'upper' ? hex.toUpperCase() : hex}`;
    }
  }
  return text;
}
