/**
 * Java's `String.hashCode()`, bit for bit: `s[0]*31^(n-1) + … + s[n-1]` over
 * UTF-16 code units with 32-bit overflow, so an astral character counts as its
 * two surrogates exactly as in Java.
 *
 * @example
 * ```ts
 * javaStringHashCode('Aa'); // 2112
 * javaStringHashCode('polygenelubricants'); // -2147483648
 * ```
 */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Java's `%` on integers: truncating, the remainder keeps the dividend's sign
 * (never `-0`).
 *
 * @example
 * ```ts
 * javaRemainder(-7, 4); // -3
 * ```
 */
export function javaRemainder(value: number, modulus: number): number {
  return (value % modulus) + 0;
}

/**
 * Java's `Math.floorMod`: the remainder is in `0..modulus-1`, never negative.
 *
 * @example
 * ```ts
 * floorMod(-7, 4); // 1
 * ```
 */
export function floorMod(value: number, modulus: number): number {
  const r = value % modulus;
  return r < 0 ? r + modulus : r + 0;
}

/**
 * Bucket of the `java-string-hashcode` preset: `Math.floorMod(s.hashCode(), buckets)`.
 *
 * @example
 * ```ts
 * javaStringHashBucket('user42-web-1719223200', 10); // 6
 * ```
 */
export function javaStringHashBucket(input: string, buckets: number): number {
  return floorMod(javaStringHashCode(input), buckets);
}

/**
 * Bucket of the `java-string-hashcode-signed` preset, seed 003's
 * `rowKey.hashCode() % saltRange`: from `-(buckets-1)` to `buckets-1`.
 *
 * @example
 * ```ts
 * javaStringHashSignedBucket('user42-web-1719223200', 10); // -4
 * ```
 */
export function javaStringHashSignedBucket(input: string, buckets: number): number {
  return javaRemainder(javaStringHashCode(input), buckets);
}
