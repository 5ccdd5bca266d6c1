import { describe, expect, it } from 'vitest';
import { OperationAbortedError } from '../../../src/errors/operation-errors.js';
import { batchStream, mapBatches, takeItems, type BatchProducer } from '../../../src/stream/batch-stream.js';
import { iteratorBatches } from '../../../src/stream/async-iterable.js';
import { collect } from '../../support/fake-sources.js';

/** A producer over fixed batches that records its pulls and stops; `gate` holds the pull of that batch index until released. */
function recorded(list: (number[] | Error)[], options: { gate?: number } = {}) {
  const state = { pulls: 0, stops: 0, concurrent: 0, maxConcurrent: 0 };
  let index = 0;
  let release: (() => void) | undefined;
  const producer: BatchProducer<number> = {
    async pull() {
      state.pulls += 1;
      state.concurrent += 1;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.concurrent);
      try {
        if (options.gate === index) await new Promise<void>((resolve) => (release = resolve));
        const next = list[index++];
        if (next instanceof Error) throw next;
        return next;
      } finally {
        state.concurrent -= 1;
      }
    },
    stop() {
      state.stops += 1;
    },
  };
  return { producer, state, release: () => release?.() };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('batchStream', () => {
  it('hands over the batches in order, skips empty ones, ends done, and never stops a source that ended', async () => {
    const { producer, state } = recorded([[1, 2], [], [3]]);
    let ends = 0;
    const stream = batchStream(producer, { onEnd: () => (ends += 1) });
    expect(await collect(stream)).toEqual([[1, 2], [3]]);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(state).toMatchObject({ pulls: 4, stops: 0 });
    expect(ends).toBe(1);
  });

  it('cancel() settles a pending next() at once, stops the source once, and later next() calls are done', async () => {
    const { producer, state, release } = recorded([[1], [2]], { gate: 1 });
    let ends = 0;
    const stream = batchStream(producer, { onEnd: () => (ends += 1) });
    expect(await stream.next()).toEqual({ done: false, value: [1] });
    const pending = stream.next();
    await tick();
    stream.cancel();
    stream.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    release();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(state).toMatchObject({ pulls: 2, stops: 1 });
    expect(ends).toBe(0);
  });

  it('a stream cancelled before its first next() never pulls', async () => {
    const { producer, state } = recorded([[1]]);
    const stream = batchStream(producer);
    await stream.return();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(state).toMatchObject({ pulls: 0, stops: 1 });
  });

  it('a failed pull rejects once, stops the source, and the stream is done afterwards', async () => {
    const { producer, state } = recorded([[1], new Error('read failed'), [2]]);
    const stream = batchStream(producer);
    expect(await stream.next()).toEqual({ done: false, value: [1] });
    await expect(stream.next()).rejects.toThrow('read failed');
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(state).toMatchObject({ pulls: 2, stops: 1 });
  });

  it('a pull that throws synchronously fails the stream the same way', async () => {
    let stops = 0;
    const stream = batchStream<number>({
      pull: () => {
        throw new Error('cannot open');
      },
      stop: () => void (stops += 1),
    });
    await expect(stream.next()).rejects.toThrow('cannot open');
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(stops).toBe(1);
  });

  it('serializes next() calls: the source is never pulled twice at once', async () => {
    const { producer, state } = recorded([[1], [2], [3]]);
    const stream = batchStream(producer);
    const results = await Promise.all([stream.next(), stream.next(), stream.next(), stream.next()]);
    expect(results.map((r) => r.value)).toEqual([[1], [2], [3], undefined]);
    expect(state.maxConcurrent).toBe(1);
  });

  it('an abort rejects the pending next() at once with the typed error naming the operation, stops the source, and every later next() rejects', async () => {
    const controller = new AbortController();
    const { producer, state } = recorded([[1], [2]], { gate: 1 });
    const stream = batchStream(producer, { signal: controller.signal, name: 'Item.scan' });
    expect(await stream.next()).toEqual({ done: false, value: [1] });
    const pending = stream.next();
    await tick();
    controller.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OperationAbortedError);
    expect((failure as OperationAbortedError).operation).toBe('Item.scan');
    await expect(stream.next()).rejects.toBeInstanceOf(OperationAbortedError);
    expect(state.stops).toBe(1);
  });

  it('a stream whose signal is already aborted stops its source at once and never pulls', async () => {
    const { producer, state } = recorded([[1]]);
    const stream = batchStream(producer, { signal: AbortSignal.abort(), name: 'Item.scan' });
    expect(state.stops).toBe(1);
    await expect(stream.next()).rejects.toBeInstanceOf(OperationAbortedError);
    expect(state.pulls).toBe(0);
  });

  it('return() waits for the source to close when its stop() returns a promise', async () => {
    let closed = false;
    const stream = batchStream<number>({
      pull: async () => [1],
      stop: async () => {
        await tick();
        closed = true;
      },
    });
    await stream.next();
    await stream.return();
    expect(closed).toBe(true);
  });
});

describe('takeItems', () => {
  it('cuts the batch that reaches the limit and cancels the source before the consumer asks again', async () => {
    const { producer, state } = recorded([[1, 2], [3, 4, 5], [6]]);
    const stream = takeItems(batchStream(producer), 3);
    expect(await stream.next()).toEqual({ done: false, value: [1, 2] });
    expect(await stream.next()).toEqual({ done: false, value: [3] });
    expect(state).toMatchObject({ pulls: 2, stops: 1 });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('a limit of 0 cancels the source without reading it', async () => {
    const { producer, state } = recorded([[1]]);
    expect(await collect(takeItems(batchStream(producer), 0))).toEqual([]);
    expect(state).toMatchObject({ pulls: 0, stops: 1 });
  });
});

describe('mapBatches', () => {
  it('maps a batch at a time and drops batches left empty', async () => {
    const { producer } = recorded([[1, 2], [3], [4, 5]]);
    const odd = mapBatches(batchStream(producer), (n) => (n % 2 === 1 ? n * 10 : undefined));
    expect(await collect(odd)).toEqual([[10], [30], [50]]);
  });
});

describe('iteratorBatches', () => {
  function counting(items: number[]) {
    const state = { cancelled: 0, returned: 0, produced: 0 };
    const generator = (async function* () {
      try {
        for (const item of items) {
          state.produced += 1;
          yield item;
        }
      } finally {
        state.returned += 1;
      }
    })();
    return { open: () => generator, onCancel: () => void (state.cancelled += 1), state };
  }

  it('reads an async iterator one item per batch, then ends', async () => {
    const { open, onCancel } = counting([1, 2]);
    expect(await collect(iteratorBatches(open, onCancel))).toEqual([[1], [2]]);
  });

  it('cancel() calls onCancel once and closes the iterator; later reads are done', async () => {
    const { open, onCancel, state } = counting([1, 2, 3]);
    const stream = iteratorBatches(open, onCancel);
    expect(await stream.next()).toEqual({ done: false, value: [1] });
    stream.cancel();
    stream.cancel();
    await tick();
    expect(state).toEqual({ cancelled: 1, returned: 1, produced: 1 });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
