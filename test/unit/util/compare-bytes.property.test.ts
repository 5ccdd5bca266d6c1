import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytesFrom, sameBytes, sameBytesAt } from '../../../src/util/compare-bytes.js';
import { propertyRuns } from '../../support/property-runs.js';

const bytes = fc.uint8Array({ maxLength: 140 }).map((b) => Buffer.from(b));
/** Two byte strings that often share a long prefix, so both the JS loop and the native compare are reached. */
const pair = fc
  .tuple(bytes, fc.uint8Array({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 }))
  .map(([prefix, a, b]) => [Buffer.concat([prefix, a]), Buffer.concat([prefix, b])] as const);

describe('compareBytesFrom, sameBytes and sameBytesAt', () => {
  it('order tails with the sign of Buffer.compare, on either side of the short-string threshold', () => {
    fc.assert(
      fc.property(pair, fc.nat(5), fc.nat(5), ([x, y], xCut, yCut) => {
        const xStart = Math.min(xCut, x.length);
        const yStart = Math.min(yCut, y.length);
        expect(Math.sign(compareBytesFrom(x, xStart, y, yStart))).toBe(
          Math.sign(Buffer.compare(x.subarray(xStart), y.subarray(yStart))),
        );
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('sameBytes is Buffer.equals', () => {
    fc.assert(
      fc.property(pair, ([x, y]) => {
        expect(sameBytes(x, y)).toBe(x.equals(y));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('sameBytesAt is Buffer.equals of the range', () => {
    fc.assert(
      fc.property(pair, fc.nat(6), fc.nat(6), ([x, y], from, cut) => {
        const start = Math.min(from, x.length);
        const end = Math.max(start, x.length - cut);
        expect(sameBytesAt(x, start, end, y)).toBe(x.subarray(start, end).equals(y));
        expect(sameBytesAt(x, 0, x.length, y)).toBe(x.equals(y));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
