import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TopPrefixes } from '../../../src/lint/top-prefixes.js';
import { propertyRuns } from '../../support/property-runs.js';

describe('TopPrefixes (Space-Saving)', () => {
  it('brackets every true count, reports every key above rows / capacity, and is exact while keys fit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 600 }),
        fc.integer({ min: 1, max: 12 }),
        (stream, capacity) => {
          const top = new TopPrefixes(capacity);
          const truth = new Map<string, number>();
          for (const k of stream) {
            top.add(`k${k}`, 2);
            truth.set(`k${k}`, (truth.get(`k${k}`) ?? 0) + 1);
          }
          const reported = top.top(capacity);
          expect(reported.length).toBe(Math.min(capacity, truth.size));
          for (const r of reported) {
            const real = truth.get(r.prefix) ?? 0;
            expect(r.rows).toBeGreaterThanOrEqual(real);
            expect(r.rows - r.rowsError).toBeLessThanOrEqual(real);
            expect(r.rowsError).toBeLessThanOrEqual(stream.length / capacity);
            expect(r.bytes - r.bytesError).toBeLessThanOrEqual(real * 2);
            if (truth.size <= capacity) expect([r.rows, r.rowsError]).toEqual([real, 0]);
          }
          const names = new Set(reported.map((r) => r.prefix));
          for (const [key, count] of truth) if (count > stream.length / capacity) expect(names.has(key)).toBe(true);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
