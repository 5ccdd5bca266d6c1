import { batchStream, type BatchStream } from './batch-stream.js';

/**
 * Where a push source delivers: each item with its size, then exactly one of
 * `end` or `fail`. `fail` with `dropBuffered` discards the items not yet
 * handed over (the operation is over, they are not worth delivering);
 * otherwise they are delivered first and the error comes after them.
 * @internal
 * @example
 * ```ts
 * feed.start({ row: (row, bytes) => sink.push(row, bytes), end: () => sink.end(), fail: (e) => sink.fail(e, false) });
 * ```
 */
export interface PushSink<T> {
  push(item: T, size: number): void;
  end(): void;
  fail(error: unknown, dropBuffered: boolean): void;
}

/**
 * A source that pushes items (e.g. a gRPC read) and can be held back.
 * @internal
 * @example
 * ```ts
 * const feed: PushFeed<RowData> = { start: (sink) => call.start(sink), pause: () => call.pause(), resume: () => call.resume(), cancel: () => call.cancel() };
 * ```
 */
export interface PushFeed<T> {
  /** Starts pushing into `sink`; may throw, which fails the stream. */
  start(sink: PushSink<T>): void;
  pause(): void;
  resume(): void;
  /** Stops the source; the sink hears nothing more. */
  cancel(): void;
}

/**
 * How far a push source may run ahead of its consumer: at most `items`
 * items and about `size` in total size, whichever comes first (an item
 * pushed while paused is still taken).
 * @internal
 * @example
 * ```ts
 * const limits: ReadAhead = { items: 1024, size: 1024 * 1024 };
 * ```
 */
export interface ReadAhead {
  readonly items: number;
  readonly size: number;
}

const END = Symbol('end');

/**
 * Reads a {@link PushFeed} as a {@link BatchStream}, with backpressure: the
 * feed is opened and started on the first `next()` (never, if the stream is
 * cancelled first) and pushes into a buffer bounded by `readAhead`; the feed
 * is paused when the buffer is full and resumed when the consumer takes it,
 * so memory per read stays bounded whatever the consumer's pace. Each
 * `next()` hands over the whole buffer: one promise per batch, not per item.
 * Cancelling the stream cancels the feed and drops the buffer.
 * @internal
 * @example
 * ```ts
 * const rows = pushedBatches(() => rowFeed(call), { items: 1024, size: 1024 * 1024 });
 * ```
 */
export function pushedBatches<T>(open: () => PushFeed<T>, readAhead: ReadAhead): BatchStream<T> {
  const buffer = new PushBuffer(open, readAhead);
  return batchStream({ pull: () => buffer.take(), stop: () => buffer.stop() });
}

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

  fail(error: unknown, dropBuffered: boolean): void {
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

  /**
   * Wakes a waiting consumer after the items of this turn of the event loop
   * arrived, not after the first one: a gRPC read's responses arrive one I/O
   * event at a time with a few rows each, so waking at once would hand over
   * tiny batches whenever the consumer keeps up (measured: batches of about
   * 40 rows instead of 1, and 5-10% less CPU per row). The end, an error and
   * a stop still wake at once.
   */
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
