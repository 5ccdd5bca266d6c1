import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RowData } from '../../../src/model/driver.js';
import { compareLogical, type ScannedRow } from '../../../src/scan/execute-scan.js';

const scanned = (segment: Uint8Array, logical: Uint8Array): ScannedRow => ({
  row: { key: Buffer.concat([segment, logical]), cells: {} } as RowData,
  source: 0,
  segmentBytes: segment.length,
});
const bytes = (maxLength: number) => fc.uint8Array({ maxLength });
const sign = (n: number): number => Math.sign(n);

describe('compareLogical', () => {
  it('orders like Buffer.compare of the logical keys, for short and long keys, whatever the segments', () => {
    const logical = fc.oneof(bytes(8), bytes(80), fc.constant(new Uint8Array(0)));
    fc.assert(
      fc.property(bytes(4), logical, bytes(4), logical, (segA, keyA, segB, keyB) => {
        expect(sign(compareLogical(scanned(segA, keyA), scanned(segB, keyB)))).toBe(
          Buffer.compare(Buffer.from(keyA), Buffer.from(keyB)),
        );
      }),
    );
  });

  it('orders keys that share a long prefix by their first difference, then by length', () => {
    const prefix = Buffer.alloc(100, 0x61);
    fc.assert(
      fc.property(bytes(4), bytes(4), (tailA, tailB) => {
        const a = Buffer.concat([prefix, tailA]);
        const b = Buffer.concat([prefix, tailB]);
        expect(sign(compareLogical(scanned(Buffer.from('01#'), a), scanned(Buffer.from('7#'), b)))).toBe(
          Buffer.compare(a, b),
        );
      }),
    );
  });
});
