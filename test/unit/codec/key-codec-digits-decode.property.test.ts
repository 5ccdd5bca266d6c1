import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECODE_FIX, keyError, type KeyCodecContext } from '../../../src/codec/key-codecs.js';
import { createDigitsCodec, type DigitsMapping } from '../../../src/codec/key-codecs.js';
import { createKeyCodec } from '../../../src/codec/key-codecs.js';
import { resolveKeyOptions } from '../../../src/codec/key-options.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';
import { propertyRuns } from '../../support/property-runs.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_DATE_MS = 8_640_000_000_000_000n;
const CTX: KeyCodecContext = { entity: 'E', property: 'p' };

/** The BigInt-only decoding every digits codec had before the number fast path (same checks, same errors). */
function referenceMapping(options: KeyPartOptions): DigitsMapping {
  const unused = (): bigint => {
    throw new Error('the reference only decodes');
  };
  if (options.type === 'uint') {
    return {
      toAscending: unused,
      fromAscending(ascending, text) {
        if (ascending > MAX_SAFE)
          throw keyError(
            CTX,
            text,
            'is not a valid encoded uint key component: beyond Number.MAX_SAFE_INTEGER',
            DECODE_FIX,
          );
        return Number(ascending);
      },
    };
  }
  const seconds = options.format === 'epoch-s';
  return {
    toAscending: unused,
    fromAscending(ascending, text) {
      const ms = seconds ? ascending * 1000n : ascending;
      if (ms > MAX_DATE_MS)
        throw keyError(
          CTX,
          text,
          `is not a valid encoded ${options.format} key component: beyond the largest Date`,
          DECODE_FIX,
        );
      return new Date(Number(ms));
    },
  };
}

function outcome(decode: () => unknown): unknown {
  try {
    const value = decode();
    return { value: value instanceof Date ? `Date ${value.getTime()}` : value };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
}

const optionsArb: fc.Arbitrary<KeyPartOptions> = fc.oneof(
  fc.record({ type: fc.constant('uint' as const), width: fc.integer({ min: 1, max: 20 }), descending: fc.boolean() }),
  fc.record({
    type: fc.constant('timestamp' as const),
    format: fc.constant('epoch-ms' as const),
    width: fc.integer({ min: 13, max: 20 }),
    descending: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('timestamp' as const),
    format: fc.constant('epoch-s' as const),
    width: fc.integer({ min: 10, max: 20 }),
    descending: fc.boolean(),
  }),
);

/** Digit strings near the width (mostly exactly it), values near the safe-integer and Date limits, and some junk. */
const textArb = (width: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: width, maxLength: width }) },
    {
      weight: 3,
      arbitrary: fc.bigInt({ min: 0n, max: 10n ** BigInt(width) - 1n }).map((n) => n.toString().padStart(width, '0')),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          MAX_SAFE - 1n,
          MAX_SAFE,
          MAX_SAFE + 1n,
          2n ** 53n + 2n,
          MAX_DATE_MS,
          MAX_DATE_MS + 1n,
          MAX_DATE_MS / 1000n,
          MAX_DATE_MS / 1000n + 1n,
          10n ** BigInt(width) - 1n,
        )
        .map((n) => n.toString().padStart(width, '0')),
    },
    {
      weight: 1,
      arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789 +-.eEx_a'), minLength: 0, maxLength: width + 1 }),
    },
  );

describe('digits key codecs decode (number fast path)', () => {
  it('decodes exactly as the BigInt path does: same value, or the same error', () => {
    fc.assert(
      fc.property(
        optionsArb.chain((options) => fc.tuple(fc.constant(options), textArb(options.width as number))),
        ([options, text]) => {
          const codec = createKeyCodec(CTX.entity, CTX.property, options, '#');
          const reference = createDigitsCodec(
            CTX,
            resolveKeyOptions(CTX.entity, CTX.property, options, '#'),
            referenceMapping(options),
          );
          expect(outcome(() => codec.decode(text))).toEqual(outcome(() => reference.decode(text)));
        },
      ),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('keeps the boundaries exact', () => {
    const uint16 = createKeyCodec('E', 'p', { type: 'uint', width: 16 }, '#');
    expect(() => uint16.decode('0009007199254740991')).toThrow(/exactly 16 digits/);
    expect(uint16.decode('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => uint16.decode('9007199254740992')).toThrow(/beyond Number.MAX_SAFE_INTEGER/);
    const uint15desc = createKeyCodec('E', 'p', { type: 'uint', width: 15, descending: true }, '#');
    expect(uint15desc.decode('000000000000000')).toBe(999_999_999_999_999);
    const seconds = createKeyCodec('E', 'p', { type: 'timestamp', format: 'epoch-s', width: 13 }, '#');
    expect((seconds.decode('8640000000000') as Date).getTime()).toBe(8_640_000_000_000_000);
    expect(() => seconds.decode('8640000000001')).toThrow(/beyond the largest Date/);
  });
});
