/**
 * The value of a run of ASCII digits (exact while it is a safe integer; larger
 * values come out at 2^53 or above, never back inside the safe range); -1 when
 * the text is empty or has any other character.
 * @internal
 */
export function digitsValue(text: string): number {
  if (text.length === 0) return -1;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * {@link digitsValue} of the bytes at `[start, end)`.
 * @internal
 */
export function digitBytesValue(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = (bytes[i] as number) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
