import type { ValueCodec } from './codec-contracts.js';
import { safeInt64Bytes } from '../util/safe-int64-bytes.js';
import { expectLength, valueError, type ValueCodecContext } from './value-codec-context.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_DATE_MS = 8_640_000_000_000_000;

function int64(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
}

function readInt64(ctx: ValueCodecContext, bytes: Buffer, type: string): bigint {
  expectLength(ctx, bytes, 8, type);
  return bytes.readBigInt64BE();
}

/**
 * The int64 as a number when it is a safe integer, else `undefined`, without
 * a BigInt. `high * 2^32` is exact and adding `low` is exact below 2^53; past
 * it, rounding never lands back inside the safe range, so the check is exact.
 */
function readSafeInt64(ctx: ValueCodecContext, bytes: Buffer, type: string): number | undefined {
  expectLength(ctx, bytes, 8, type);
  const value = bytes.readInt32BE(0) * 0x1_0000_0000 + bytes.readUInt32BE(4);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * `int` cells: 8-byte big-endian signed int64, the layout of Bigtable
 * ReadModifyWrite increments. Encodes safe-integer numbers. A stored value
 * outside the safe range (only increments can put one there) decodes to its
 * exact `bigint` rather than failing the read or losing precision: one such
 * counter never makes a scan of other rows fail. Declare the column
 * `'bigint'` when counts can pass 2^53.
 * @internal
 */
export function createIntValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'int',
    encode(value: unknown): Buffer {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
        throw valueError(
          ctx,
          value,
          "is not a valid int value: expected a safe integer number. Fix: round the value, or use type 'float' for fractions or 'bigint' beyond 2^53",
        );
      }
      return safeInt64Bytes(value);
    },
    decode(bytes: Buffer): unknown {
      return readSafeInt64(ctx, bytes, 'int') ?? readInt64(ctx, bytes, 'int');
    },
  } as const);
}

/**
 * `bigint` cells: 8-byte big-endian signed int64.
 * @internal
 */
export function createBigintValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'bigint',
    encode(value: unknown): Buffer {
      if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX) {
        throw valueError(
          ctx,
          value,
          'is not a valid bigint value: expected a bigint in the signed 64-bit range. Fix: pass a bigint from -(2n ** 63n) to 2n ** 63n - 1n',
        );
      }
      return int64(value);
    },
    decode: (bytes: Buffer): unknown => readInt64(ctx, bytes, 'bigint'),
  } as const);
}

/**
 * `date` cells: epoch milliseconds as 8-byte big-endian signed int64.
 * @internal
 */
export function createDateValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'date',
    encode(value: unknown): Buffer {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
        throw valueError(
          ctx,
          value,
          'is not a valid date value: expected a valid Date. Fix: pass a Date object (new Date(...)) that is not Invalid Date',
        );
      }
      return safeInt64Bytes(value.getTime());
    },
    decode(bytes: Buffer): unknown {
      const ms = readSafeInt64(ctx, bytes, 'date');
      if (ms !== undefined && ms <= MAX_DATE_MS && ms >= -MAX_DATE_MS) return new Date(ms);
      throw valueError(
        ctx,
        bytes,
        `is not a valid stored date value: ${readInt64(ctx, bytes, 'date')} ms is beyond the range of Date. Fix: declare the column with type 'bigint'`,
      );
    },
  } as const);
}
