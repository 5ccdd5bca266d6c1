/**
 * Order-preserving bytes of a finite double: the IEEE-754 big-endian bits
 * with every bit flipped for negatives and only the sign bit flipped
 * otherwise, so unsigned byte order equals numeric order. `-0` is written as
 * `0` (one key per number); NaN and infinities have no key and are rejected
 * by the codecs before they get here.
 * @internal
 */
export function orderedFloatBytes(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value === 0 ? 0 : value);
  const negative = (bytes[0] as number) >= 0x80;
  if (negative) for (let i = 0; i < 8; i++) bytes[i] = ~(bytes[i] as number) & 0xff;
  else bytes[0] = (bytes[0] as number) ^ 0x80;
  return bytes;
}

/**
 * Reverses {@link orderedFloatBytes}; `undefined` unless `bytes` are 8 bytes
 * that it writes for some finite number (never `-0`, NaN or an infinity).
 * @internal
 */
export function floatFromOrderedBytes(bytes: Uint8Array): number | undefined {
  if (bytes.length !== 8) return undefined;
  const raw = Buffer.from(bytes);
  const negative = (raw[0] as number) < 0x80;
  if (negative) for (let i = 0; i < 8; i++) raw[i] = ~(raw[i] as number) & 0xff;
  else raw[0] = (raw[0] as number) ^ 0x80;
  const value = raw.readDoubleBE();
  return Number.isFinite(value) && !Object.is(value, -0) ? value : undefined;
}
