import type { ValueCodec } from './codec-contracts.js';
import { expectLength, valueError, type ValueCodecContext } from './value-codec-context.js';
import { decodeUtf8Strict, hasLoneSurrogate } from './utf8.js';

/**
 * `string` cells: UTF-8. Rejects non-strings and lone surrogates; decoding
 * rejects malformed UTF-8 instead of replacing it.
 * @internal
 */
export function createStringValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'string',
    encode(value: unknown): Buffer {
      if (typeof value !== 'string')
        throw valueError(
          ctx,
          value,
          'is not a valid string value: expected a string. Fix: pass a string, or declare another column type',
        );
      const bytes = Buffer.from(value, 'utf8');
      // As many bytes as UTF-16 units: ASCII, so no surrogate to look for.
      if (bytes.length !== value.length && hasLoneSurrogate(value))
        throw valueError(
          ctx,
          value,
          'is not a valid string value: it has a lone UTF-16 surrogate, which UTF-8 cannot store. Fix: remove the broken character',
        );
      return bytes;
    },
    decode(bytes: Buffer): unknown {
      const text = decodeUtf8Strict(bytes);
      if (text === undefined)
        throw valueError(
          ctx,
          bytes,
          "is not a valid stored string value: malformed UTF-8. Fix: declare the column with type 'bytes'",
        );
      return text;
    },
  } as const);
}

/**
 * `float` cells: IEEE-754 float64, big-endian. Any number, NaN and ±Infinity included.
 * @internal
 */
export function createFloatValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'float',
    encode(value: unknown): Buffer {
      if (typeof value !== 'number')
        throw valueError(
          ctx,
          value,
          'is not a valid float value: expected a number. Fix: convert the value with Number(...)',
        );
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(value);
      return bytes;
    },
    decode(bytes: Buffer): unknown {
      expectLength(ctx, bytes, 8, 'float');
      return bytes.readDoubleBE();
    },
  } as const);
}

/**
 * `boolean` cells: one byte, `0x00` or `0x01`.
 * @internal
 */
export function createBooleanValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'boolean',
    encode(value: unknown): Buffer {
      if (typeof value !== 'boolean')
        throw valueError(
          ctx,
          value,
          'is not a valid boolean value: expected true or false. Fix: convert the value with Boolean(...)',
        );
      const bytes = Buffer.allocUnsafe(1);
      bytes[0] = value ? 1 : 0;
      return bytes;
    },
    decode(bytes: Buffer): unknown {
      expectLength(ctx, bytes, 1, 'boolean');
      if (bytes[0] === 0) return false;
      if (bytes[0] === 1) return true;
      throw valueError(
        ctx,
        bytes,
        "is not a valid stored boolean value: expected 0x00 or 0x01. Fix: check the column's declared type matches how the cell was written",
      );
    },
  } as const);
}

/**
 * `bytes` cells: a copy of a `Buffer` or `Uint8Array`.
 * @internal
 */
export function createBytesValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'bytes',
    encode(value: unknown): Buffer {
      if (!(value instanceof Uint8Array))
        throw valueError(
          ctx,
          value,
          'is not a valid bytes value: expected a Buffer or Uint8Array. Fix: pass Buffer.from(...)',
        );
      return Buffer.from(value);
    },
    decode: (bytes: Buffer): unknown => Buffer.from(bytes),
  } as const);
}
