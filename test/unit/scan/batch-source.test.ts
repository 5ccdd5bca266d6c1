import { describe, expect, it } from 'vitest';
import { isBatchSource, toBatchSource, withItemIterator } from '../../../src/stream/batch-source.js';
import { fromAsyncIterable } from '../../../src/stream/row-source.js';
import { collect } from '../../support/fake-sources.js';

function counting(items: number[]) {
  const state = { cancelled: 0, returned: 0, produced: 0 };
  const source = fromAsyncIterable(
    (async function* () {
      try {
        for (const item of items) {
          state.produced += 1;
          yield item;
        }
      } finally {
        state.returned += 1;
      }
    })(),
    () => (state.cancelled += 1),
  );
  return { source, state };
}

describe('toBatchSource', () => {
  it('reads a plain source one item per batch, then undefined', async () => {
    const { source } = counting([1, 2]);
    const batches = toBatchSource(source);
    expect(isBatchSource(source)).toBe(false);
    expect(await batches.nextBatch()).toEqual([1]);
    expect(await batches.nextBatch()).toEqual([2]);
    expect(await batches.nextBatch()).toBeUndefined();
  });

  it('cancel() cancels the source once and closes its iterator; later reads are undefined', async () => {
    const { source, state } = counting([1, 2, 3]);
    const batches = toBatchSource(source);
    expect(await batches.nextBatch()).toEqual([1]);
    batches.cancel();
    batches.cancel();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.cancelled).toBe(1);
    expect(state.returned).toBe(1);
    expect(await batches.nextBatch()).toBeUndefined();
    expect(state.produced).toBe(1);
  });

  it('returns a batch source as it is', () => {
    const batched = withItemIterator({ nextBatch: async () => undefined, cancel: () => undefined });
    expect(isBatchSource(batched)).toBe(true);
    expect(toBatchSource(batched)).toBe(batched);
  });
});

describe('withItemIterator', () => {
  function batchesOf(list: number[][]) {
    let next = 0;
    const state = { cancelled: 0, calls: 0 };
    const source = withItemIterator({
      nextBatch: async () => {
        state.calls += 1;
        return list[next++];
      },
      cancel: () => (state.cancelled += 1),
    });
    return { source, state };
  }

  it('iterates every item of every batch in order, reading a batch only when the previous one ran out', async () => {
    const { source, state } = batchesOf([[1, 2, 3], [4], [5, 6]]);
    expect(await collect(source)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(state.calls).toBe(4);
    expect(state.cancelled).toBe(0);
  });

  it('skips empty batches instead of yielding holes', async () => {
    const { source } = batchesOf([[1], [], [2]]);
    expect(await collect(source)).toEqual([1, 2]);
  });

  it('nextBatch() after partial item iteration hands over the rest of the current batch first', async () => {
    const { source } = batchesOf([[1, 2, 3], [4]]);
    const items = source[Symbol.asyncIterator]();
    expect(await items.next()).toEqual({ done: false, value: 1 });
    expect(await source.nextBatch()).toEqual([2, 3]);
    expect(await source.nextBatch()).toEqual([4]);
  });

  it('breaking out of the loop cancels the source and drops the rest of the batch', async () => {
    const { source, state } = batchesOf([[1, 2, 3], [4]]);
    for await (const item of source) if (item === 1) break;
    expect(state.cancelled).toBe(1);
    expect(await source.nextBatch()).toEqual([4]);
  });
});
