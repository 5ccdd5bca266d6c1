import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createValueCodec } from '../../../src/codec/value-codecs.js';
import { hasLoneSurrogate } from '../../../src/codec/value-codecs.js';
import { propertyRuns } from '../../support/property-runs.js';

const RUNS = { numRuns: propertyRuns(5000) };
const LONE_SURROGATE = /\p{Surrogate}/u;
/** The int64 big-endian bytes of an integer, the BigInt way. */
const int64 = (value: number | bigint): Buffer => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(value));
  return bytes;
};

describe('int64 cell encoding without BigInt', () => {
  const int = createValueCodec('E', 'p', 'int');
  const date = createValueCodec('E', 'p', 'date');

  it('writes the same bytes as BigInt for every safe integer', () => {
    const edges = [
      0,
      -0,
      1,
      -1,
      2 ** 31,
      -(2 ** 31),
      2 ** 32 - 1,
      2 ** 32,
      -(2 ** 32),
      -(2 ** 32) - 1,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ];
    for (const n of edges) expect(int.encode(n)).toEqual(int64(n));
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => int.encode(n).equals(int64(n)) && int.decode(int.encode(n)) === n),
      RUNS,
    );
  });

  it('writes dates as the BigInt bytes of their epoch milliseconds, over the whole Date range', () => {
    for (const ms of [-8.64e15, 8.64e15, 0, -1]) expect(date.encode(new Date(ms))).toEqual(int64(ms));
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (d) => date.encode(d).equals(int64(d.getTime()))),
      RUNS,
    );
  });
});

describe('boolean cells', () => {
  it('are one fresh byte each', () => {
    const codec = createValueCodec('E', 'p', 'boolean');
    expect([codec.encode(false), codec.encode(true)]).toEqual([Buffer.from([0]), Buffer.from([1])]);
    expect(codec.encode(true)).not.toBe(codec.encode(true));
  });
});

describe('hasLoneSurrogate', () => {
  afterEach(() => {
    vi.resetModules();
  });

  const strings = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '😀', 'a', 'é'),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    ),
  });

  it('agrees with the Unicode regex, lone surrogates at either end included', () => {
    for (const text of ['', 'ok 😀', '\ud800', 'a\udc00', '\ud83d', '\ude00x', '😀\ud83d'])
      expect(hasLoneSurrogate(text)).toBe(LONE_SURROGATE.test(text));
    fc.assert(
      fc.property(strings, (text) => hasLoneSurrogate(text) === LONE_SURROGATE.test(text)),
      RUNS,
    );
  });

  it('falls back to the regex where String.prototype.isWellFormed is missing', async () => {
    const native = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
    expect(native).toBeDefined();
    Reflect.deleteProperty(String.prototype, 'isWellFormed');
    try {
      vi.resetModules();
      const fallback = (await import('../../../src/codec/value-codecs.js')).hasLoneSurrogate;
      expect(fallback).not.toBe(hasLoneSurrogate);
      fc.assert(
        fc.property(strings, (text) => fallback(text) === LONE_SURROGATE.test(text)),
        { numRuns: propertyRuns(500) },
      );
    } finally {
      Object.defineProperty(String.prototype, 'isWellFormed', native as PropertyDescriptor);
    }
  });
});
