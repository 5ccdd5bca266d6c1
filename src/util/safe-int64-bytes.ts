/**
 * The 8 big-endian two's-complement bytes of a safe integer: what
 * `writeBigInt64BE(BigInt(value))` writes, without a BigInt (high and low
 * 32-bit words).
 * @internal
 */
export function safeInt64Bytes(value: number): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  const high = Math.floor(value / 0x1_0000_0000);
  bytes.writeInt32BE(high, 0);
  bytes.writeUInt32BE(value - high * 0x1_0000_0000, 4);
  return bytes;
}
