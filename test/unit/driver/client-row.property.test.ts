import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { responseBytes, timestampMicros } from '../../../src/driver/client-row.js';
import { propertyRuns } from '../../support/property-runs.js';

/** `timestampMicros` before the digit fast path. */
function referenceMicros(value: unknown): number {
  const micros = Number(typeof value === 'number' ? value : String(value));
  if (!Number.isFinite(micros)) throw new TypeError(`unexpected cell timestamp ${String(value)} from the client`);
  return micros;
}

/** A comparable picture of a result or an error: own keys in order, bytes as hex, -0 kept apart from 0. */
function picture(run: () => unknown): unknown {
  const draw = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return `bytes ${Buffer.from(value).toString('hex')} (${value.constructor.name})`;
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : value;
    if (Array.isArray(value)) return value.map(draw);
    if (typeof value === 'object' && value !== null)
      return Object.keys(value).map((k) => [k, draw((value as Record<string, unknown>)[k])]);
    return value;
  };
  try {
    return { result: draw(run()) };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
}

const longLike = (text: string): object => ({ low: 0, high: 0, unsigned: false, toString: () => text });

const timestampArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.maxSafeNat().map(String) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1_600_000_000_000_000n, max: 1_900_000_000_000_000n }).map(String) },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 17n }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '9999999999999999',
      '0000000000000001',
      '00000000000000001',
      '0',
      '-0',
      '',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(' 12', '12 ', '+5', '-5', '1e3', '0x1f', '1.5', 'Infinity', 'NaN', 'abc', '１２'),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.maxSafeInteger(), fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0)),
  },
  { weight: 1, arbitrary: fc.maxSafeNat().map((n) => longLike(String(n))) },
);

describe('response value and timestamp conversion', () => {
  it('timestampMicros equals Number(String(value)) (and throws alike)', () => {
    fc.assert(
      fc.property(timestampArb, (value) => {
        expect(picture(() => timestampMicros(value))).toEqual(picture(() => referenceMicros(value)));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('responseBytes passes bytes through without copying and rejects anything else', () => {
    const backing = Buffer.from('xxabcxx');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 3);
    const bytes = responseBytes(view);
    expect(bytes.toString()).toBe('abc');
    expect(bytes.buffer).toBe(backing.buffer);
    expect(responseBytes(backing)).toBe(backing);
    for (const value of [7, 'text', null, undefined])
      expect(() => responseBytes(value)).toThrow(/unexpected cell value of type/);
  });

  it('keeps the exactness boundary of the digit fast path', () => {
    expect(timestampMicros('9007199254740991')).toBe(9007199254740991);
    expect(timestampMicros('9007199254740993')).toBe(Number('9007199254740993'));
    expect(timestampMicros('')).toBe(0);
    expect(() => timestampMicros('abc')).toThrow(TypeError);
  });
});
