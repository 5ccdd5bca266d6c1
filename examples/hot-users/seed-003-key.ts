/**
 * Seed 003's Java key code, transcribed independently of the library so the
 * example can check the mapper's keys against it.
 */

/** Java's `String.hashCode()` over UTF-16 code units. @example `javaHashCode('a') // 97` */
export function javaHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * `rowKey.substring(0, rowKey.lastIndexOf("-")).hashCode() % saltRange + "-" + rowKey`
 * (Java's `%` keeps the sign, as JavaScript's does).
 *
 * @example
 * ```ts
 * seed003SaltedKey('user42-web-1719223200000', 4); // '<prefix>-user42-web-1719223200000'
 * ```
 */
export function seed003SaltedKey(rowKey: string, saltRange: number): string {
  const prefix = javaHashCode(rowKey.substring(0, rowKey.lastIndexOf('-'))) % saltRange;
  return `${prefix}-${rowKey}`;
}
