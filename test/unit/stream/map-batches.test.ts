import { describe, expect, it } from 'vitest';
import { mapBatches, type BatchStream } from '../../../src/stream/batch-stream.js';
import { eachItem, fromAsyncIterable } from '../../../src/stream/async-iterable.js';

/** `mapBatches` over a source, with its items read one at a time. */
function mapSource<A, B>(
  source: BatchStream<A>,
  map: (item: A) => B | undefined,
  onEnd: () => void,
): AsyncIterable<B> & { cancel(): void } {
  const stream: BatchStream<B> = mapBatches(source, map, onEnd);
  return { cancel: () => stream.cancel(), [Symbol.asyncIterator]: () => eachItem(stream, (item: B) => item) };
}

function numbers(n: number, stallAt?: number) {
  const state = { cancelled: 0, produced: 0 };
  let release: (() => void) | undefined;
  async function* rows(): AsyncGenerator<number> {
    for (let i = 1; i <= n; i++) {
      if (i === stallAt) await new Promise<void>((r) => (release = r));
      state.produced += 1;
      yield i;
    }
  }
  return {
    source: fromAsyncIterable(rows(), () => {
      state.cancelled += 1;
      release?.();
    }),
    state,
  };
}

describe('mapBatches', () => {
  it('maps, skips undefined results and reports the natural end once', async () => {
    const { source } = numbers(6);
    let ends = 0;
    const out: string[] = [];
    for await (const s of mapSource(
      source,
      (n) => (n % 2 === 0 ? `#${n}` : undefined),
      () => (ends += 1),
    ))
      out.push(s);
    expect(out).toEqual(['#2', '#4', '#6']);
    expect(ends).toBe(1);
  });

  it('cancel() stops the inner source, ends a pending read and does not report an end', async () => {
    const { source, state } = numbers(5, 3);
    let ends = 0;
    const mapped = mapSource(
      source,
      (n) => n,
      () => (ends += 1),
    );
    const iterator = mapped[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    const pending = iterator.next();
    mapped.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(state.cancelled).toBe(1);
    expect(ends).toBe(0);
  });

  it('breaking out of the loop cancels the inner source', async () => {
    const { source, state } = numbers(100);
    for await (const n of mapSource(
      source,
      (x) => x,
      () => undefined,
    ))
      if (n === 3) break;
    expect(state.cancelled).toBe(1);
    expect(state.produced).toBe(3);
  });
});
