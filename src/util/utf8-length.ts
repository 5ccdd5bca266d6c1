/**
 * The UTF-8 length of `text` (what `Buffer.byteLength` answers), counted in
 * JavaScript for short ASCII strings (names, keys, short values), where a
 * call into the runtime costs more than the count.
 * @internal
 * @example
 * ```ts
 * utf8Length('é'); // 2
 * ```
 */
export function utf8Length(text: string): number {
  const length = text.length;
  if (length > 64) return Buffer.byteLength(text, 'utf8');
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) >= 0x80) return Buffer.byteLength(text, 'utf8');
  return length;
}
