import { describe, expect, it } from 'vitest';
import { fromAsyncIterable } from '../../../src/stream/async-iterable.js';
import { iterateSingleSource } from '../../support/item-merges.js';

function source(items: number[], options: { stallAfter?: number; failAt?: number } = {}) {
  const state = { produced: 0, cancelled: 0 };
  let release: (() => void) | undefined;
  async function* rows(): AsyncGenerator<number> {
    for (const item of items) {
      if (options.stallAfter !== undefined && state.produced >= options.stallAfter)
        await new Promise<void>((r) => (release = r));
      if (item === options.failAt) throw new Error(`boom at ${item}`);
      state.produced += 1;
      yield item;
    }
  }
  const made = fromAsyncIterable(rows(), () => {
    state.cancelled += 1;
    release?.();
  });
  return { made, state };
}

async function collect(iterator: AsyncIterableIterator<number>): Promise<number[]> {
  const out: number[] = [];
  for await (const n of iterator) out.push(n);
  return out;
}

describe('iterateSingleSource', () => {
  it('yields every item in order and does not cancel a source that ended', async () => {
    const { made, state } = source([1, 2, 3]);
    expect(await collect(iterateSingleSource(made, undefined))).toEqual([1, 2, 3]);
    expect(state.cancelled).toBe(0);
  });

  it('stops after limit and cancels the source without reading further', async () => {
    const { made, state } = source([1, 2, 3, 4, 5]);
    expect(await collect(iterateSingleSource(made, 2))).toEqual([1, 2]);
    expect(state.cancelled).toBe(1);
    expect(state.produced).toBe(2);
  });

  it('return() cancels at once, even while a read is pending', async () => {
    const { made, state } = source([1, 2, 3], { stallAfter: 1 });
    const iterator = iterateSingleSource(made, undefined);
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    const pending = iterator.next();
    await iterator.return?.();
    expect(state.cancelled).toBe(1);
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('an error from the source is thrown and cancels it', async () => {
    const { made, state } = source([1, 2, 3], { failAt: 2 });
    await expect(collect(iterateSingleSource(made, undefined))).rejects.toThrow('boom at 2');
    expect(state.cancelled).toBe(1);
  });
});
