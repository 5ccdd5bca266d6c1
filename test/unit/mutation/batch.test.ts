import { describe, expect, it } from 'vitest';
import {
  closesBatch,
  DEFAULT_BATCH_BYTES,
  MAX_MUTATIONS_PER_REQUEST,
  resolveBatchLimits,
} from '../../../src/mutation/batch.js';
import { MAX_REQUEST_BYTES } from '../../../src/mutation/request-limits.js';

const MiB = 1024 * 1024;

describe('resolveBatchLimits and closesBatch', () => {
  it('default to 500 rows and 20 MiB, and cap mutations at 100,000 and bytes at 256 MiB', () => {
    expect(MAX_MUTATIONS_PER_REQUEST).toBe(100_000);
    expect(DEFAULT_BATCH_BYTES).toBe(20 * MiB);
    expect(MAX_REQUEST_BYTES).toBe(256 * MiB);
    expect(resolveBatchLimits()).toEqual({ maxEntries: 500, maxMutations: 100_000, maxBytes: 20 * MiB });
    expect(resolveBatchLimits({ maxEntries: 3, maxMutations: 1_000_000, maxBytes: 1_000 * MiB })).toEqual({
      maxEntries: 3,
      maxMutations: 100_000,
      maxBytes: 256 * MiB,
    });
    expect(resolveBatchLimits({ maxMutations: 10, maxBytes: 1_000 })).toEqual({
      maxEntries: 500,
      maxMutations: 10,
      maxBytes: 1_000,
    });
  });

  it('close a full batch, or one the next row would push over the mutation limit, never an empty one', () => {
    const limits = resolveBatchLimits({ maxEntries: 3, maxMutations: 10 });
    expect(closesBatch({ entries: 3, mutations: 3, bytes: 30 }, 1, 10, limits)).toBe(true);
    expect(closesBatch({ entries: 2, mutations: 9, bytes: 30 }, 1, 10, limits)).toBe(false);
    expect(closesBatch({ entries: 2, mutations: 9, bytes: 30 }, 2, 10, limits)).toBe(true);
    expect(closesBatch({ entries: 0, mutations: 0, bytes: 0 }, 50, 10, limits)).toBe(false);
  });

  it('close a batch the next row would push over the byte limit, whichever limit comes first', () => {
    const limits = resolveBatchLimits({ maxEntries: 500, maxBytes: 1_000 });
    expect(closesBatch({ entries: 2, mutations: 2, bytes: 600 }, 1, 400, limits)).toBe(false);
    expect(closesBatch({ entries: 2, mutations: 2, bytes: 600 }, 1, 401, limits)).toBe(true);
    expect(closesBatch({ entries: 0, mutations: 0, bytes: 0 }, 1, 5_000, limits)).toBe(false);
    expect(closesBatch({ entries: 1, mutations: 1, bytes: 5_000 }, 1, 1, limits)).toBe(true);
  });
});
