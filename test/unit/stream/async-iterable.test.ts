import { describe, expect, it, vi } from 'vitest';
import { fromAsyncIterable } from '../../../src/stream/async-iterable.js';

async function* numbers(state: { closed: boolean; produced: number }): AsyncGenerator<number> {
  try {
    for (let i = 0; i < 100; i += 1) {
      state.produced += 1;
      yield i;
    }
  } finally {
    state.closed = true;
  }
}

describe('fromAsyncIterable', () => {
  it('hands over one item per batch', async () => {
    const batches: (readonly number[])[] = [];
    for await (const batch of fromAsyncIterable(numbers({ closed: false, produced: 0 }), () => undefined))
      batches.push(batch);
    expect(batches).toEqual(Array.from({ length: 100 }, (_, i) => [i]));
  });

  it('calls onCancel once however often cancel() is called', () => {
    const onCancel = vi.fn();
    const source = fromAsyncIterable(numbers({ closed: false, produced: 0 }), onCancel);
    source.cancel();
    source.cancel();
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('ends the iteration after cancel() and closes the wrapped iterable without reading further', async () => {
    const state = { closed: false, produced: 0 };
    const source = fromAsyncIterable(numbers(state), () => undefined);
    const seen: number[] = [];
    for await (const batch of source) {
      seen.push(...batch);
      if (batch.includes(2)) source.cancel();
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(state.closed).toBe(true);
    expect(state.produced).toBe(3);
  });

  it('closes the wrapped iterable when the consumer breaks', async () => {
    const state = { closed: false, produced: 0 };
    for await (const batch of fromAsyncIterable(numbers(state), () => undefined)) if (batch.includes(1)) break;
    expect(state).toEqual({ closed: true, produced: 2 });
  });

  it('yields nothing when cancelled before iterating', async () => {
    const state = { closed: false, produced: 0 };
    const source = fromAsyncIterable(numbers(state), () => undefined);
    source.cancel();
    const seen: number[] = [];
    for await (const batch of source) seen.push(...batch);
    expect(seen).toEqual([]);
    expect(state.produced).toBe(0);
  });
});
