import type { KeyComponentCodec } from './codec-contracts.js';
import type { ResolvedKeyOptions } from './key-codec-options.js';
import { DECODE_FIX, keyError, type KeyCodecContext } from './key-codec-context.js';
import { createDigitsCodec } from './key-codec-digits.js';

const INT_BIAS = 2n ** 53n;
const BIGINT_BIAS = 2n ** 63n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function safeInteger(ctx: KeyCodecContext, value: unknown, type: 'uint' | 'int'): number {
  const expected = type === 'uint' ? 'a non-negative safe integer' : 'a safe integer';
  if (typeof value !== 'number') {
    const fix = typeof value === 'bigint' ? "use type: 'bigint' for bigint values" : `pass ${expected} (a JS number)`;
    throw keyError(ctx, value, `is not a valid ${type} key component: expected a number`, fix);
  }
  if (!Number.isFinite(value))
    throw keyError(ctx, value, `is not a valid ${type} key component: not a finite number`, `pass ${expected}`);
  if (!Number.isInteger(value))
    throw keyError(
      ctx,
      value,
      `is not a valid ${type} key component: not an integer`,
      'round the value before saving, or key on an integer',
    );
  if (!Number.isSafeInteger(value)) {
    throw keyError(
      ctx,
      value,
      `is not a valid ${type} key component: beyond Number.MAX_SAFE_INTEGER`,
      "use type: 'bigint' with a bigint value",
    );
  }
  return value;
}

/**
 * `uint` key component: zero-padded decimal of `width` digits (default 16).
 * @internal
 */
export function createUintCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      const n = safeInteger(ctx, value, 'uint');
      if (n < 0)
        throw keyError(ctx, value, 'is not a valid uint key component: negative', "use type: 'int' for signed values");
      return BigInt(n);
    },
    fromAscending(ascending, text) {
      if (ascending > MAX_SAFE)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded uint key component: beyond Number.MAX_SAFE_INTEGER',
          DECODE_FIX,
        );
      return Number(ascending);
    },
    fromAscendingNumber: (ascending) => ascending,
  });
}

/**
 * `int` key component: order-preserving `value + 2^53`, zero-padded to 17 digits.
 * @internal
 */
export function createIntCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending: (value) => BigInt(safeInteger(ctx, value, 'int')) + INT_BIAS,
    fromAscending(ascending, text) {
      const n = ascending - INT_BIAS;
      if (n > MAX_SAFE || n < -MAX_SAFE)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded int key component: beyond the safe integer range',
          DECODE_FIX,
        );
      return Number(n);
    },
  });
}

/**
 * `bigint` key component: order-preserving `value + 2^63`, zero-padded to 20 digits (signed int64 range).
 * @internal
 */
export function createBigintCodec(ctx: KeyCodecContext, options: ResolvedKeyOptions): KeyComponentCodec {
  return createDigitsCodec(ctx, options, {
    toAscending(value) {
      if (typeof value !== 'bigint') {
        throw keyError(
          ctx,
          value,
          'is not a valid bigint key component: expected a bigint',
          'pass a bigint (e.g. 42n or BigInt(x))',
        );
      }
      if (value < -BIGINT_BIAS || value >= BIGINT_BIAS) {
        throw keyError(
          ctx,
          value,
          'is not a valid bigint key component: outside the signed 64-bit range',
          'pass a value from -(2n ** 63n) to 2n ** 63n - 1n',
        );
      }
      return value + BIGINT_BIAS;
    },
    fromAscending(ascending, text) {
      if (ascending >= 2n * BIGINT_BIAS)
        throw keyError(
          ctx,
          text,
          'is not a valid encoded bigint key component: outside the signed 64-bit range',
          DECODE_FIX,
        );
      return ascending - BIGINT_BIAS;
    },
  });
}
