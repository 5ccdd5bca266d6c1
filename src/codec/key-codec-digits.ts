import type { KeyComponentCodec } from './codec-contracts.js';
import type { ResolvedKeyOptions } from './key-codec-options.js';
import { DECODE_FIX, keyError, type KeyCodecContext } from './key-codec-context.js';
import { digitBytesValue, digitsValue } from '../util/ascii-digits.js';

/**
 * Conversions between a component's values and the non-negative "ascending"
 * integer that is written as digits. Both throw `KeyEncodingError`.
 * @internal
 */
export interface DigitsMapping {
  toAscending(value: unknown): bigint;
  fromAscending(ascending: bigint, text: string): unknown;
  /**
   * `fromAscending` without a BigInt, for an ascending value that is a safe
   * integer; `undefined` where `fromAscending` throws (it is then called to
   * throw). Used whenever the stored digits are exact as a number: always up
   * to {@link MAX_NUMBER_WIDTH} digits, and for wider ascending components
   * when the value is a safe integer.
   */
  fromAscendingNumber?(ascending: number): unknown;
}

/** The widest digits text whose every value (below 10^15) is an exact JS number. */
const MAX_NUMBER_WIDTH = 15;

/**
 * Builds a fixed-width digits codec, shared by the numeric and epoch key
 * codecs: `encode` pads the ascending value to `width` digits (reversed as
 * `10^width − 1 − v` when descending); `decode` accepts exactly `width` ASCII
 * digits.
 * @internal
 */
export function createDigitsCodec(
  ctx: KeyCodecContext,
  options: ResolvedKeyOptions,
  mapping: DigitsMapping,
): KeyComponentCodec {
  const width = options.width as number;
  const max = 10n ** BigInt(width) - 1n;
  const { descending } = options;
  const label = options.format ?? options.type;
  const fromNumber = mapping.fromAscendingNumber;
  const exactWidth = width <= MAX_NUMBER_WIDTH;
  const maxNumber = Number(max);
  /** The value of stored digits read as a number; `undefined` when only the BigInt path can tell. */
  const numberValue = (fromAscending: (ascending: number) => unknown, stored: number): unknown => {
    if (exactWidth) return fromAscending(descending ? maxNumber - stored : stored);
    return !descending && stored <= Number.MAX_SAFE_INTEGER ? fromAscending(stored) : undefined;
  };
  const decodeBytes =
    fromNumber === undefined
      ? undefined
      : (bytes: Uint8Array, start: number, end: number): unknown => {
          if (end - start !== width) return undefined;
          const stored = digitBytesValue(bytes, start, end);
          return stored < 0 ? undefined : numberValue(fromNumber, stored);
        };
  return Object.freeze({
    type: options.type,
    width,
    descending,
    format: options.format,
    encode(value: unknown): string {
      const ascending = mapping.toAscending(value);
      if (ascending > max) {
        throw keyError(
          ctx,
          value,
          `is not a valid ${label} key component: it needs more than ${width} digits`,
          'declare a larger width in @KeyPart (at most 20)',
        );
      }
      return (descending ? max - ascending : ascending).toString().padStart(width, '0');
    },
    decode(text: string): unknown {
      if (fromNumber !== undefined && text.length === width) {
        const stored = digitsValue(text);
        const value = stored < 0 ? undefined : numberValue(fromNumber, stored);
        if (value !== undefined) return value;
      }
      if (text.length !== width || !/^[0-9]+$/.test(text)) {
        throw keyError(
          ctx,
          text,
          `is not a valid encoded ${label} key component: expected exactly ${width} digits`,
          DECODE_FIX,
        );
      }
      const stored = BigInt(text);
      return mapping.fromAscending(descending ? max - stored : stored, text);
    },
    ...(decodeBytes === undefined ? {} : { decodeBytes }),
  });
}
