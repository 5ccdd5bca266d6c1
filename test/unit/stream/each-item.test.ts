import { describe, expect, it } from 'vitest';
import { batchStream } from '../../../src/stream/batch-stream.js';
import { eachItem } from '../../../src/stream/async-iterable.js';
import { collect } from '../../support/fake-sources.js';

function batches(list: number[][], options: { failAt?: number } = {}) {
  const state = { returned: 0, pulls: 0 };
  let index = 0;
  const iterator = batchStream<number>({
    async pull() {
      state.pulls += 1;
      if (options.failAt === index) throw new Error(`batch ${index} failed`);
      return list[index++];
    },
    stop() {
      state.returned += 1;
    },
  });
  return { iterator, state };
}

describe('eachItem', () => {
  it('yields the mapped items of every batch in order, pulling a batch only when the previous one ran out', async () => {
    const { iterator, state } = batches([[1, 2], [], [3]]);
    expect(await collect(eachItem(iterator, (n) => n * 10))).toEqual([10, 20, 30]);
    expect(state.pulls).toBe(4);
    expect(state.returned).toBe(0);
  });

  it('return() closes the batches and later next() calls are done', async () => {
    const { iterator, state } = batches([[1, 2], [3]]);
    const items = eachItem(iterator, (n) => n);
    expect(await items.next()).toEqual({ done: false, value: 1 });
    expect(await items.return?.()).toEqual({ done: true, value: undefined });
    expect(state.returned).toBe(1);
    expect(await items.next()).toEqual({ done: true, value: undefined });
  });

  it('an error thrown by map closes the batches and is rethrown', async () => {
    const { iterator, state } = batches([[1, 2, 3]]);
    const items = eachItem(iterator, (n) => {
      if (n === 2) throw new Error('cannot map 2');
      return n;
    });
    await expect(collect(items)).rejects.toThrow('cannot map 2');
    expect(state.returned).toBe(1);
  });

  it('an error from the batches is rethrown', async () => {
    const { iterator } = batches([[1]], { failAt: 1 });
    await expect(collect(eachItem(iterator, (n) => n))).rejects.toThrow('batch 1 failed');
  });
});
