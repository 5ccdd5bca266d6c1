/**
 * Java's `String.hashCode()`, bit for bit: `s[0]*31^(n-1) + … + s[n-1]` over
 * UTF-16 code units with 32-bit overflow, so an astral character counts as its
 * two surrogates exactly as in Java.
 * @internal
 */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Java's `%` on integers: truncating, the remainder keeps the dividend's sign
 * (never `-0`).
 * @internal
 */
export function javaRemainder(value: number, modulus: number): number {
  return (value % modulus) + 0;
}

/**
 * Java's `Math.floorMod`: the remainder is in `0..modulus-1`, never negative.
 * @internal
 */
export function floorMod(value: number, modulus: number): number {
  const r = value % modulus;
  return r < 0 ? r + modulus : r + 0;
}

/**
 * Bucket of the `java-string-hashcode` preset: `Math.floorMod(s.hashCode(), buckets)`.
 * @internal
 */
export function javaStringHashBucket(input: string, buckets: number): number {
  return floorMod(javaStringHashCode(input), buckets);
}

/**
 * Bucket of the `java-string-hashcode-signed` preset, seed 003's
 * `rowKey.hashCode() % saltRange`: from `-(buckets-1)` to `buckets-1`.
 * @internal
 */
export function javaStringHashSignedBucket(input: string, buckets: number): number {
  return javaRemainder(javaStringHashCode(input), buckets);
}
