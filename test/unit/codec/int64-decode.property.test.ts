import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDateValueCodec, createIntValueCodec } from '../../../src/codec/value-codecs.js';
import { ValueEncodingError } from '../../../src/errors/errors.js';

const ctx = { entity: 'Reading', property: 'count' };
const MAX_DATE_MS = 8.64e15;
const int64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -(2n ** 53n) - 3n, max: -(2n ** 53n) + 3n }),
  fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc.bigInt({ min: BigInt(MAX_DATE_MS) - 2n, max: BigInt(MAX_DATE_MS) + 2n }),
);
const bytesOf = (n: bigint): Buffer => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(n);
  return bytes;
};
const outcome = (run: () => unknown): unknown => {
  try {
    const value = run();
    return value instanceof Date ? { date: value.getTime() } : { value };
  } catch (error) {
    return { error: error instanceof ValueEncodingError, message: (error as Error).message.includes('beyond') };
  }
};

describe('int and date cell decoding without BigInt', () => {
  it('int: a safe int64 decodes to exactly its number, anything else to its exact bigint (never a failed read)', () => {
    const codec = createIntValueCodec(ctx);
    fc.assert(
      fc.property(int64, (n) => {
        const safe = n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
        expect(outcome(() => codec.decode(bytesOf(n)))).toEqual(safe ? { value: Number(n) } : { value: n });
      }),
    );
  });

  it('date: epoch milliseconds within the Date range decode exactly, anything else fails with a ValueEncodingError naming the range', () => {
    const codec = createDateValueCodec(ctx);
    fc.assert(
      fc.property(int64, (n) => {
        const valid = n >= BigInt(-MAX_DATE_MS) && n <= BigInt(MAX_DATE_MS);
        expect(outcome(() => codec.decode(bytesOf(n)))).toEqual(
          valid ? { date: Number(n) } : { error: true, message: true },
        );
      }),
    );
  });
});
