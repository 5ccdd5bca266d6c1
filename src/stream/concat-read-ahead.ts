import { batchStream, type BatchStream } from './batch-stream.js';
import type { OpenStream } from './merge.js';

/**
 * Options of {@link concatReadAhead}.
 * @internal
 */
export interface ConcatReadAheadOptions<T> {
  /** Most sources open at once: the one being delivered and those read ahead of it. A positive integer. */
  readonly window: number;
  /** Each open source is read ahead up to this many items... */
  readonly items: number;
  /** ...or about this size in total (by `sizeOf`), whichever comes first, then waits until the reader takes some. */
  readonly size: number;
  readonly sizeOf: (item: T) => number;
}

/**
 * The sources one after the other, in order (every item of source `i`
 * before any of source `i + 1`), while up to `window - 1` of the next sources
 * are already being read, each into a bounded buffer: what keeps an ordered
 * scan of disjoint, sorted key ranges in order while its reads run in
 * parallel. Nothing is opened before the first pull; a source opens when a
 * place in the window frees up. Cancelling cancels every open source; a
 * source's error fails the stream when the reader reaches that source.
 * @internal
 */
export function concatReadAhead<T>(
  sources: readonly OpenStream<T>[],
  options: ConcatReadAheadOptions<T>,
): BatchStream<T> {
  const window = Math.max(1, Math.floor(options.window));
  const open: Prefetch<T>[] = [];
  let next = 0;
  let stopped = false;
  const fill = (): void => {
    while (!stopped && open.length < window && next < sources.length) {
      const source = sources[next++] as OpenStream<T>;
      const prefetch = new Prefetch(source(), options);
      open.push(prefetch);
      prefetch.pump();
    }
  };
  return batchStream({
    pull: async () => {
      for (;;) {
        fill();
        const head = open[0];
        if (head === undefined) return undefined;
        const batch = await head.take();
        if (batch !== undefined) return batch;
        open.shift();
      }
    },
    stop: () => {
      stopped = true;
      for (const prefetch of open.splice(0)) prefetch.stream.cancel();
    },
  });
}

/** One open source and the batches read from it ahead of the reader. */
class Prefetch<T> {
  readonly stream: BatchStream<T>;
  readonly #bounds: ConcatReadAheadOptions<T>;
  readonly #batches: { readonly batch: readonly T[]; readonly size: number }[] = [];
  #items = 0;
  #size = 0;
  #reading = false;
  #ended = false;
  #failed: { readonly error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(stream: BatchStream<T>, bounds: ConcatReadAheadOptions<T>) {
    this.stream = stream;
    this.#bounds = bounds;
  }

  /** Reads the next batch unless one is being read, the source is done, or the buffer is full. */
  pump(): void {
    if (this.#reading || this.#ended || this.#failed !== undefined) return;
    if (this.#items >= this.#bounds.items || this.#size >= this.#bounds.size) return;
    this.#reading = true;
    this.stream.next().then(
      (result) => {
        this.#reading = false;
        if (result.done === true) this.#ended = true;
        else {
          let size = 0;
          for (const item of result.value) size += this.#bounds.sizeOf(item);
          this.#batches.push({ batch: result.value, size });
          this.#items += result.value.length;
          this.#size += size;
        }
        this.#notify();
        this.pump();
      },
      (error: unknown) => {
        this.#reading = false;
        this.#failed = { error };
        this.#notify();
      },
    );
  }

  /** The next batch of this source, `undefined` at its end; rejects with its error. */
  async take(): Promise<readonly T[] | undefined> {
    for (;;) {
      const first = this.#batches.shift();
      if (first !== undefined) {
        this.#items -= first.batch.length;
        this.#size -= first.size;
        this.pump();
        return first.batch;
      }
      if (this.#failed !== undefined) throw this.#failed.error;
      if (this.#ended) return undefined;
      this.pump();
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
