/** Byte strings up to this many shared bytes are compared in a JS loop; longer ones with the native compare. */
const SHORT_BYTES = 64;

/**
 * Orders `x` from `xStart` against `y` from `yStart` (to their ends), with
 * the sign of `Buffer.compare` of the two tails. Short tails (the usual keys
 * and qualifiers) are compared in a JS loop, which beats a call into the
 * native compare; no subarray is made.
 * @internal
 * @example
 * ```ts
 * compareBytesFrom(Buffer.from('07#a'), 3, Buffer.from('02#b'), 3) < 0; // 'a' before 'b'
 * ```
 */
export function compareBytesFrom(x: Buffer, xStart: number, y: Buffer, yStart: number): number {
  const xLength = x.length - xStart;
  const yLength = y.length - yStart;
  const shared = Math.min(xLength, yLength);
  if (shared > SHORT_BYTES) return x.compare(y, yStart, y.length, xStart, x.length);
  for (let i = 0; i < shared; i++) {
    const difference = (x[xStart + i] as number) - (y[yStart + i] as number);
    if (difference !== 0) return difference;
  }
  return xLength - yLength;
}

/**
 * Whether two byte strings are equal (lengths first, then
 * {@link compareBytesFrom}).
 * @internal
 * @example
 * ```ts
 * sameBytes(Buffer.from('ab'), Buffer.from('ab')); // true
 * ```
 */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && compareBytesFrom(a, 0, b, 0) === 0;
}
