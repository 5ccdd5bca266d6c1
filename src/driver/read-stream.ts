import type { RowData } from './driver.js';
import type { RowSource } from '../scan/row-source.js';
import { DriverError } from '../errors/driver-error.js';
import { fromClientRow } from './client-row.js';
import { abortRead } from './abort-read.js';
import type { ClientReadStream } from './abort-read.js';

/**
 * Counts the read streams a driver has open (opened and not yet ended,
 * failed or cancelled).
 * @internal
 * @example
 * ```ts
 * const reads: ReadCounter = { active: 0 };
 * ```
 */
export interface ReadCounter {
  active: number;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A pull-based {@link RowSource} over one `createReadStream()`. The stream is
 * opened on the first `next()` (never, if the source is cancelled first) and
 * iterated with its async iterator, so with the stream's `highWaterMark: 0` a
 * slow consumer holds the server back through HTTP/2 flow control. `cancel()`
 * and the iterator's `return()` abort the gRPC call with `stream.end()`.
 * Errors reject `next()` as `DriverError`s with the gRPC code.
 * @internal
 * @example
 * ```ts
 * const source = new ReadRowsSource(() => table.createReadStream(options), 'readRows "t"', counter);
 * for await (const row of source) if (enough(row)) break; // return() cancels the read
 * ```
 */
export class ReadRowsSource implements RowSource<RowData>, AsyncIterableIterator<RowData, undefined, undefined> {
  readonly #open: (() => ClientReadStream) | undefined;
  readonly #operation: string;
  readonly #counter: ReadCounter;
  #state: 'idle' | 'open' | 'closed';
  #stream: ClientReadStream | undefined;
  #rows: AsyncIterator<unknown> | undefined;

  /** `open` undefined means an empty read: the source ends without any RPC. */
  constructor(open: (() => ClientReadStream) | undefined, operation: string, counter: ReadCounter) {
    this.#open = open;
    this.#operation = operation;
    this.#counter = counter;
    this.#state = open === undefined ? 'closed' : 'idle';
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<RowData, undefined>> {
    if (this.#state === 'idle') this.#start();
    if (this.#state === 'closed' || this.#rows === undefined) return DONE;
    let result: IteratorResult<unknown>;
    try {
      result = await this.#rows.next();
    } catch (err) {
      if (this.#isClosed()) return DONE;
      this.#release();
      throw new DriverError(this.#operation, err);
    }
    if (this.#isClosed()) return DONE;
    if (result.done === true) {
      this.#release();
      return DONE;
    }
    try {
      return { done: false, value: fromClientRow(result.value) };
    } catch (err) {
      this.cancel();
      throw new DriverError(this.#operation, err);
    }
  }

  async return(): Promise<IteratorResult<RowData, undefined>> {
    this.cancel();
    return DONE;
  }

  cancel(): void {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    const stream = this.#stream;
    const rows = this.#rows;
    this.#release();
    if (!wasOpen || stream === undefined) return;
    abortRead(stream);
    Promise.resolve()
      .then(() => rows?.return?.())
      .catch(() => undefined);
  }

  #start(): void {
    try {
      this.#stream = (this.#open as () => ClientReadStream)();
      this.#rows = this.#stream[Symbol.asyncIterator]();
    } catch (err) {
      this.#state = 'closed';
      if (this.#stream !== undefined) abortRead(this.#stream);
      throw new DriverError(this.#operation, err);
    }
    this.#state = 'open';
    this.#counter.active += 1;
  }

  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #release(): void {
    if (this.#state === 'open') this.#counter.active -= 1;
    this.#state = 'closed';
  }
}
