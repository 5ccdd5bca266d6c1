import { createHash } from 'node:crypto';

/**
 * MD5 digest of the UTF-8 encoding of `input` (a lone surrogate is encoded as
 * U+FFFD, as `Buffer.from(input)` does).
 *
 * @example
 * ```ts
 * md5Digest('a').toString('hex'); // '0cc175b9c0f1b6a831c399e269772661'
 * ```
 */
export function md5Digest(input: string): Buffer {
  return createHash('md5').update(input, 'utf8').digest();
}

/**
 * Bucket of the `md5` preset: the digest as a big-endian 128-bit unsigned
 * integer, modulo `buckets` (seed 002's `int(hashlib.md5(b).hexdigest(), 16) % n`).
 *
 * @example
 * ```ts
 * md5Bucket('event#2026-02-17T10:00:01', 10); // 5
 * ```
 */
export function md5Bucket(input: string, buckets: number): number {
  const digest = md5Digest(input);
  const value = (digest.readBigUInt64BE(0) << 64n) | digest.readBigUInt64BE(8);
  return Number(value % BigInt(buckets));
}

/**
 * Bucket of the `md5-int32` preset, seed 002's Java `computeSalt`: the first 4
 * digest bytes as a signed big-endian int, then `Math.abs(hashInt % buckets)`.
 *
 * @example
 * ```ts
 * md5Int32Bucket('event#2026-02-17T10:00:01', 10); // 1
 * ```
 */
export function md5Int32Bucket(input: string, buckets: number): number {
  return Math.abs(md5Digest(input).readInt32BE(0) % buckets);
}
