/** Byte strings up to this many shared bytes are compared in a JS loop; longer ones with the native compare. */
const SHORT_BYTES = 64;

/**
 * Orders `x` from `xStart` against `y` from `yStart` (to their ends), with
 * the sign of `Buffer.compare` of the two tails. Short tails (the usual keys
 * and qualifiers) are compared in a JS loop, which beats a call into the
 * native compare; no subarray is made.
 * @internal
 */
export function compareBytesFrom(x: Buffer, xStart: number, y: Buffer, yStart: number): number {
  return compareByteRanges(x, xStart, x.length, y, yStart, y.length);
}

/** {@link compareBytesFrom} of `x[xStart, xEnd)` and `y[yStart, yEnd)`. */
export function compareByteRanges(
  x: Buffer,
  xStart: number,
  xEnd: number,
  y: Buffer,
  yStart: number,
  yEnd: number,
): number {
  const xLength = xEnd - xStart;
  const yLength = yEnd - yStart;
  const shared = Math.min(xLength, yLength);
  if (shared > SHORT_BYTES) return x.compare(y, yStart, yEnd, xStart, xEnd);
  for (let i = 0; i < shared; i++) {
    const difference = (x[xStart + i] as number) - (y[yStart + i] as number);
    if (difference !== 0) return difference;
  }
  return xLength - yLength;
}

/**
 * Whether bytes `start` to `end` of `x` equal `y`, compared in a JS loop (for
 * short strings such as key literals; see {@link sameBytes} for any length).
 * @internal
 */
export function sameBytesAt(x: Uint8Array, start: number, end: number, y: Uint8Array): boolean {
  const length = end - start;
  if (length !== y.length) return false;
  for (let i = 0; i < length; i++) if (x[start + i] !== y[i]) return false;
  return true;
}

/**
 * Whether two byte strings are equal: lengths first, then a JS loop for short
 * ones (most keys and qualifiers) and `equals` beyond.
 * @internal
 */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) return false;
  return a.length > SHORT_BYTES ? a.equals(b) : sameBytesAt(a, 0, a.length, b);
}
