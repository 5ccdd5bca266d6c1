import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { takeItems } from '../../../src/stream/batch-stream.js';
import {
  mergeOrdered as mergeOrderedBatches,
  mergeUnordered as mergeUnorderedBatches,
} from '../../../src/stream/merge.js';
import { BatchedFake, splitInto } from '../../support/batched-source.js';
import { byIdentity, byKey, collect, tagged } from '../../support/fake-sources.js';
import type { Tagged } from '../../support/fake-sources.js';
import { mergeOrdered, mergeUnordered } from '../../support/item-merges.js';
import { eachItem } from '../../../src/stream/async-iterable.js';

const sortedLists = fc
  .array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 20 }), { minLength: 1, maxLength: 8 })
  .map((lists) => lists.map((keys) => [...keys].sort((a, b) => a - b)));
const batchSizes = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 });

function batchedFakes(lists: readonly (readonly number[])[], sizes: readonly number[]): BatchedFake<Tagged>[] {
  return tagged(lists).map((items) => new BatchedFake(splitInto(items, sizes)));
}

describe('merges over batch sources', () => {
  it('ordered: yields the stable sorted concatenation whatever the batch boundaries, with and without a limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        sortedLists,
        batchSizes,
        fc.option(fc.nat({ max: 40 }), { nil: undefined }),
        async (lists, sizes, limit) => {
          const fakes = batchedFakes(lists, sizes);
          const out = await collect(
            mergeOrdered(
              fakes.map((f) => f.factory),
              byKey,
              { limit },
            ),
          );
          expect(out).toEqual(tagged(lists).flat().sort(byKey).slice(0, limit));
        },
      ),
    );
  });

  it('ordered: hands over every item it can place before a source must be read again', async () => {
    const a = new BatchedFake([[1, 2, 3], [7]]);
    const b = new BatchedFake([[4, 5], [6]]);
    const batches = await collect(mergeOrderedBatches([a.factory, b.factory], (x, y) => x - y));
    expect(batches).toEqual([[1, 2, 3], [4, 5], [6], [7]]);
  });

  it('ordered: tells its observer each wait for a source and the items read ahead over all sources', async () => {
    const run = async (items: number): Promise<{ waits: number[]; ahead: number[] }> => {
      const a = new BatchedFake([[1, 2, 3], [7]]);
      const b = new BatchedFake([[4, 5], [6]]);
      const waits: number[] = [];
      const ahead: number[] = [];
      const observer = { waited: (ms: number) => waits.push(ms), readAhead: (n: number) => ahead.push(n) };
      const readAhead = { items, size: 100, sizeOf: () => 1 };
      const out = await collect(mergeOrderedBatches([a.factory, b.factory], (x, y) => x - y, { readAhead, observer }));
      expect(out.flat()).toEqual([1, 2, 3, 4, 5, 6, 7]);
      return { waits, ahead };
    };
    // Without read-ahead a source is read only when it ran out: after the first batches (one wait, both
    // read at once), the merge waits for a's [7], b's [6], and the end of each.
    const bare = await run(0);
    expect(bare.waits).toHaveLength(5);
    for (const ms of bare.waits) expect(ms).toBeGreaterThanOrEqual(0);
    // Read ahead, only the first batch is waited for: the rest were there when needed.
    const ahead = await run(2);
    expect(ahead.waits).toHaveLength(1);
    // One report per batch that arrived, counting the items waiting over both sources.
    expect(ahead.ahead).toHaveLength(4);
    expect(Math.max(...ahead.ahead)).toBeGreaterThanOrEqual(3);
    for (const n of ahead.ahead) expect(n).toBeLessThanOrEqual(7);
  });

  it('ordered: an error from a batch source is rethrown and cancels the other sources', async () => {
    const failing = new BatchedFake([[1], [3]], { failAfter: 1 });
    const other = new BatchedFake([[2], [4]]);
    await expect(collect(mergeOrdered([failing.factory, other.factory], (x, y) => x - y))).rejects.toThrow(
      'batched fake failed after 1 batches',
    );
    expect(other.cancelCalls).toBe(1);
  });

  it('unordered: yields every item once, whole batches at a time, cut to the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        sortedLists,
        batchSizes,
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.nat({ max: 40 }), { nil: undefined }),
        async (lists, sizes, concurrency, limit) => {
          const fakes = batchedFakes(lists, sizes);
          const out = await collect(
            mergeUnordered(
              fakes.map((f) => f.factory),
              { concurrency, limit },
            ),
          );
          const all = tagged(lists).flat();
          expect(out.length).toBe(Math.min(all.length, limit ?? Infinity));
          if (limit === undefined) expect([...out].sort(byIdentity)).toEqual(all.sort(byIdentity));
          expect(new Set(out).size).toBe(out.length);
        },
      ),
    );
  });

  it('unordered: a batch is handed over whole', async () => {
    const a = new BatchedFake([[1, 2, 3]]);
    const batches = await collect(mergeUnorderedBatches([a.factory], { concurrency: 1, limit: 2 }));
    expect(batches).toEqual([[1, 2]]);
    expect(a.cancelCalls).toBe(1);
  });

  it('single source: passes batches through, cuts the last one to the limit and cancels the read at once', async () => {
    const a = new BatchedFake([[1, 2], [3, 4, 5], [6]]);
    expect(await collect(takeItems(a.factory(), 4))).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(a.cancelCalls).toBe(1);
    expect(a.handed).toBe(2);
    const b = new BatchedFake([[1, 2], [3]]);
    expect(await collect(eachItem(takeItems(b.factory(), undefined), (n) => n))).toEqual([1, 2, 3]);
    expect(b.cancelCalls).toBe(0);
  });
});

describe('ordered merge with read-ahead', () => {
  const readAhead = (items: number, size: number) => ({ items, size, sizeOf: () => 1 });

  it('yields the same stable sorted items as without read-ahead, whatever the bounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        sortedLists,
        batchSizes,
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        fc.option(fc.nat({ max: 40 }), { nil: undefined }),
        async (lists, sizes, items, size, limit) => {
          const fakes = batchedFakes(lists, sizes);
          const out = await collect(
            mergeOrdered(
              fakes.map((f) => f.factory),
              byKey,
              { limit, readAhead: readAhead(items, size) },
            ),
          );
          expect(out).toEqual(tagged(lists).flat().sort(byKey).slice(0, limit));
        },
      ),
    );
  });

  it('reads a source ahead only until its read-ahead holds `items` items', async () => {
    // Source a holds the smallest items: b is read ahead while a is merged, but no further than the bound.
    const a = new BatchedFake([[1], [2], [3], [4]]);
    const b = new BatchedFake([[10], [11], [12], [13], [14], [15]]);
    const merged = mergeOrderedBatches([a.factory, b.factory], (x, y) => x - y, { readAhead: readAhead(2, 100) });
    const first = await merged.next();
    expect(first.value?.[0]).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // b: one batch at the head of the merge, two read ahead, none beyond.
    expect(b.handed).toBe(3);
    merged.cancel();
  });

  it('bounds the read-ahead by size too', async () => {
    const a = new BatchedFake([[1], [2], [3]]);
    const b = new BatchedFake([
      [10, 11],
      [12, 13],
      [14, 15],
      [16, 17],
    ]);
    const merged = mergeOrderedBatches([a.factory, b.factory], (x, y) => x - y, {
      readAhead: { items: 100, size: 3, sizeOf: () => 1 },
    });
    await merged.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // b: the head batch, then batches of 2 read ahead until at least 3 are held.
    expect(b.handed).toBe(3);
    merged.cancel();
  });

  it('rethrows an error of a source read ahead when the merge reaches it, and cancels the others', async () => {
    const failing = new BatchedFake([[5], [6]], { failAfter: 1 });
    const other = new BatchedFake([[1], [2], [3], [7], [8], [9], [10]]);
    await expect(
      collect(mergeOrdered([failing.factory, other.factory], (x, y) => x - y, { readAhead: readAhead(2, 2) })),
    ).rejects.toThrow('batched fake failed after 1 batches');
    expect(other.cancelCalls).toBe(1);
  });

  it('cancelling the merge cancels every source, read ahead or not', async () => {
    const a = new BatchedFake([[1], [2], [5], [6], [9]]);
    const b = new BatchedFake([[3], [4], [7], [8], [10]]);
    const merged = mergeOrderedBatches([a.factory, b.factory], (x, y) => x - y, { readAhead: readAhead(2, 2) });
    await merged.next();
    merged.cancel();
    expect([a.cancelCalls, b.cancelCalls]).toEqual([1, 1]);
  });
});
