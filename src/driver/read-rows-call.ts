import type { RowData } from './driver.js';
import { ChunkMerger, type ReadRowsChunk } from './chunk-merger.js';
import { resumeReadPlan, type ReadPlan } from './read-plan.js';
import { abortRead, type AbortableRead } from './abort-read.js';
import { responseBytes } from './client-row.js';

/**
 * One `ReadRowsResponse` as the generated client decodes it.
 * @internal
 * @example
 * ```ts
 * const response: ReadRowsResponse = { chunks: [], lastScannedRowKey: Buffer.from('k9') };
 * ```
 */
export interface ReadRowsResponse {
  readonly chunks?: readonly ReadRowsChunk[] | null;
  readonly lastScannedRowKey?: Uint8Array | null;
}

/**
 * The response stream of one ReadRows RPC attempt (`bigtable.request({ method: 'readRows' })`).
 * @internal
 * @example
 * ```ts
 * const stream: ReadAttemptStream = bigtable.request({ client: 'BigtableClient', method: 'readRows', reqOpts });
 * ```
 */
export interface ReadAttemptStream extends AbortableRead {
  on(event: 'data', listener: (response: ReadRowsResponse) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/**
 * When a failed attempt is retried: after which errors, how many times in a
 * row, and how long to wait before the next attempt.
 * @internal
 * @example
 * ```ts
 * const never: ReadRetryPolicy = { maxRetries: 0, isRetryable: () => false, delayMs: () => 0 };
 * ```
 */
export interface ReadRetryPolicy {
  readonly maxRetries: number;
  isRetryable(error: unknown): boolean;
  /** Delay before retry number `consecutiveErrors` (1 for the first). */
  delayMs(consecutiveErrors: number): number;
}

/**
 * Where a read delivers: each row with the bytes of its key and values, then
 * exactly one of `end` or `fail`.
 * @internal
 * @example
 * ```ts
 * const sink: RowSink = { row: (row) => rows.push(row), end: () => done(), fail: (error) => reject(error) };
 * ```
 */
export interface RowSink {
  row(row: RowData, bytes: number): void;
  end(): void;
  fail(error: unknown): void;
}

/**
 * A read that pushes rows into a {@link RowSink}, with flow control.
 * @internal
 * @example
 * ```ts
 * feed.start(sink); feed.pause(); feed.resume(); feed.cancel();
 * ```
 */
export interface RowFeed {
  start(sink: RowSink): void;
  pause(): void;
  resume(): void;
  /** Aborts the RPC; the sink hears nothing more. */
  cancel(): void;
}

/**
 * One logical ReadRows read over as many RPC attempts as it takes: merges each
 * attempt's chunks into rows ({@link ChunkMerger}), and after a retryable error
 * sends the rest of the read ({@link resumeReadPlan}: after the last row
 * delivered or the last key the server reported scanning, with the remaining
 * row limit), as `table.createReadStream()` does. The retry count resets
 * only when the resume point advances (a row completed, or a larger scanned
 * key): an attempt that fails after part of a split row spends the budget. A
 * protocol violation or a non-retryable error fails the read.
 * @internal
 * @example
 * ```ts
 * const feed = new ReadRowsCall(plan, (plan, attempt) => openAttempt(plan, attempt), retryPolicy);
 * feed.start(sink);
 * ```
 */
export class ReadRowsCall implements RowFeed {
  readonly #plan: ReadPlan;
  readonly #open: (plan: ReadPlan, attempt: number) => ReadAttemptStream;
  readonly #retry: ReadRetryPolicy;
  #sink: RowSink | undefined;
  #stream: ReadAttemptStream | undefined;
  #attempts = 0;
  #consecutiveErrors = 0;
  #resumeAfter: Buffer | undefined;
  #rowsRead = 0;
  #paused = false;
  #done = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onRow = (row: RowData, bytes: number): void => {
    this.#resumeAfter = row.key;
    this.#rowsRead += 1;
    this.#consecutiveErrors = 0;
    this.#sink?.row(row, bytes);
  };

  constructor(plan: ReadPlan, open: (plan: ReadPlan, attempt: number) => ReadAttemptStream, retry: ReadRetryPolicy) {
    this.#plan = plan;
    this.#open = open;
    this.#retry = retry;
  }

  start(sink: RowSink): void {
    this.#sink = sink;
    this.#attempt(this.#plan);
  }

  pause(): void {
    this.#paused = true;
    this.#stream?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#stream?.resume();
  }

  cancel(): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    const stream = this.#stream;
    this.#stream = undefined;
    if (stream !== undefined) abortRead(stream);
  }

  #attempt(plan: ReadPlan): void {
    this.#timer = undefined;
    const merger = new ChunkMerger();
    merger.lastKey = this.#resumeAfter;
    let stream: ReadAttemptStream;
    try {
      stream = this.#open(plan, this.#attempts++);
    } catch (error) {
      this.#finish(error);
      return;
    }
    this.#stream = stream;
    // Settling an attempt (end, error, failure, cancel) takes it out of #stream, so later events from it are ignored.
    const current = (): boolean => this.#stream === stream;
    stream.on('data', (response) => {
      if (!current()) return;
      try {
        merger.push(response.chunks ?? [], this.#onRow);
        const scanned = response.lastScannedRowKey;
        if (scanned != null && scanned.length > 0 && !merger.inRow) this.#scannedUpTo(merger, responseBytes(scanned));
      } catch (error) {
        this.#finish(error);
      }
    });
    stream.on('end', () => {
      if (!current()) return;
      try {
        merger.finish();
      } catch (error) {
        this.#finish(error);
        return;
      }
      this.#finish(undefined);
    });
    stream.on('error', (error) => {
      if (!current()) return;
      this.#failed(error);
    });
    stream.on('close', () => {
      if (!current()) return;
      this.#failed(new Error('the read stream closed before its end'));
    });
    if (this.#paused) stream.pause();
  }

  /** Rows up to the key the server reports having scanned need not be asked for again. */
  #scannedUpTo(merger: ChunkMerger, scanned: Buffer): void {
    if (this.#resumeAfter !== undefined && Buffer.compare(scanned, this.#resumeAfter) <= 0) return;
    this.#resumeAfter = scanned;
    this.#consecutiveErrors = 0;
    merger.lastKey = scanned;
  }

  #failed(error: unknown): void {
    const retries = this.#consecutiveErrors + 1;
    if (retries > this.#retry.maxRetries || !this.#retry.isRetryable(error)) {
      this.#finish(error);
      return;
    }
    this.#consecutiveErrors = retries;
    const rest = this.#resumeAfter === undefined ? this.#plan : resumeReadPlan(this.#plan, this.#resumeAfter, this.#rowsRead);
    if (rest === undefined) {
      this.#finish(undefined);
      return;
    }
    this.#stream = undefined;
    this.#timer = setTimeout(() => {
      if (!this.#done) this.#attempt(rest);
    }, this.#retry.delayMs(retries));
  }

  #finish(error: unknown): void {
    const stream = this.#stream;
    this.#done = true;
    this.#stream = undefined;
    if (error === undefined) {
      this.#sink?.end();
      return;
    }
    if (stream !== undefined) abortRead(stream);
    this.#sink?.fail(error);
  }
}
