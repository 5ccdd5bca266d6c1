import { describe, expect, it } from 'vitest';
import { closesBatch, MAX_MUTATIONS_PER_REQUEST, resolveBatchLimits } from '../../../src/mutation/batch.js';

describe('resolveBatchLimits and closesBatch', () => {
  it('default to 500 rows and cap mutations at 100,000', () => {
    expect(MAX_MUTATIONS_PER_REQUEST).toBe(100_000);
    expect(resolveBatchLimits()).toEqual({ maxEntries: 500, maxMutations: 100_000 });
    expect(resolveBatchLimits({ maxEntries: 3, maxMutations: 1_000_000 })).toEqual({ maxEntries: 3, maxMutations: 100_000 });
    expect(resolveBatchLimits({ maxMutations: 10 })).toEqual({ maxEntries: 500, maxMutations: 10 });
  });

  it('close a full batch, or one the next row would push over the mutation limit, never an empty one', () => {
    const limits = resolveBatchLimits({ maxEntries: 3, maxMutations: 10 });
    expect(closesBatch(3, 3, 1, limits)).toBe(true);
    expect(closesBatch(2, 9, 1, limits)).toBe(false);
    expect(closesBatch(2, 9, 2, limits)).toBe(true);
    expect(closesBatch(0, 0, 50, limits)).toBe(false);
  });
});
