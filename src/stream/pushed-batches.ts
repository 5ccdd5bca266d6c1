import { batchStream, type BatchStream } from './batch-stream.js';

/**
 * Where a {@link PushFeed} delivers: items with their size, then exactly one
 * of `end` or `fail`.
 * @internal
 */
export interface PushSink<T> {
  push(item: T, size: number): void;
  end(): void;
  /** Items pushed before are delivered before the error, or dropped with `dropBuffered` (the operation is over). */
  fail(error: unknown, dropBuffered?: boolean): void;
}

/**
 * A source that pushes items into a {@link PushSink} (e.g. a gRPC read) and
 * can be held back: the one push interface of the library.
 * @internal
 */
export interface PushFeed<T> {
  /** Starts pushing into `sink`; may throw, which fails the stream. */
  start(sink: PushSink<T>): void;
  pause(): void;
  resume(): void;
  /** Stops the source; the sink hears nothing more. */
  cancel(): void;
}

/** How far a push source may run ahead: `items` items or about `size` in total, whichever comes first. @internal */
export interface ReadAhead {
  readonly items: number;
  readonly size: number;
}

const END = Symbol('end');

/** A push source read with backpressure: paused while `readAhead` is full; each batch is the whole buffer. @internal */
export function pushedBatches<T>(open: () => PushFeed<T>, readAhead: ReadAhead): BatchStream<T> {
  const buffer = new PushBuffer(open, readAhead);
  return batchStream({ pull: () => buffer.take(), stop: () => buffer.stop() });
}

/** The read-ahead buffer of {@link pushedBatches}: what the feed pushed and how it finished. */
class PushBuffer<T> implements PushSink<T> {
  readonly #open: () => PushFeed<T>;
  readonly #limits: ReadAhead;
  #feed: PushFeed<T> | undefined;
  #items: T[] = [];
  #size = 0;
  #paused = false;
  /** How the feed finished: {@link END}, or its error; `undefined` while it runs. */
  #outcome: unknown = undefined;
  #finished = false;
  #wake: (() => void) | undefined;
  #wakeScheduled = false;

  constructor(open: () => PushFeed<T>, limits: ReadAhead) {
    this.#open = open;
    this.#limits = limits;
  }

  async take(): Promise<readonly T[] | undefined> {
    if (this.#feed === undefined) {
      this.#feed = this.#open();
      this.#feed.start(this);
    }
    while (this.#items.length === 0) {
      if (this.#finished) {
        if (this.#outcome === END) return undefined;
        throw this.#outcome;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const items = this.#items;
    this.#items = [];
    this.#size = 0;
    if (this.#paused && !this.#finished) {
      this.#paused = false;
      this.#feed.resume();
    }
    return items;
  }

  stop(): void {
    this.#items = [];
    this.#size = 0;
    const running = !this.#finished;
    this.#finish(END);
    if (running) this.#feed?.cancel();
  }

  push(item: T, size: number): void {
    if (this.#finished) return;
    this.#items.push(item);
    this.#size += size;
    if (!this.#paused && (this.#items.length >= this.#limits.items || this.#size >= this.#limits.size)) {
      this.#paused = true;
      this.#feed?.pause();
    }
    this.#notifySoon();
  }

  end(): void {
    this.#finish(END);
  }

  fail(error: unknown, dropBuffered = false): void {
    if (this.#finished) return;
    if (dropBuffered) {
      this.#items = [];
      this.#size = 0;
    }
    this.#finish(error);
  }

  #finish(outcome: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#outcome = outcome;
    this.#notify();
  }

  /** Wakes the consumer after this turn's items, not the first: batches of ~40 rows, not 1 (measured). */
  #notifySoon(): void {
    if (this.#wake === undefined || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      this.#notify();
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
