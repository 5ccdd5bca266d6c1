import type { CallOptions, RowData } from '../model/driver.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { abortError } from '../util/operation-signal.js';
import { ChunkMerger, type ReadRowsChunk } from './chunk-merger.js';
import { resumeReadPlan, type ReadPlan } from './read-plan.js';
import { abortRead, type AbortableRead } from './abort-read.js';
import { responseBytes } from './client-row.js';
import type { PushFeed, PushSink } from '../stream/pushed-batches.js';

/**
 * One `ReadRowsResponse` as the generated client decodes it.
 * @internal
 */
export interface ReadRowsResponse {
  readonly chunks?: readonly ReadRowsChunk[] | null;
  readonly lastScannedRowKey?: Uint8Array | null;
}

/**
 * The response stream of one ReadRows RPC attempt (the generated client's `readRows`).
 * @internal
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
 */
export interface ReadRetryPolicy {
  readonly maxRetries: number;
  isRetryable(error: unknown): boolean;
  /** Delay before retry number `consecutiveErrors` (1 for the first) after `error`. */
  delayMs(consecutiveErrors: number, error?: unknown): number;
}

/** The longest a timer can wait; a longer bound is checked again when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One logical ReadRows read over as many RPC attempts as it takes: merges each
 * attempt's chunks into rows ({@link ChunkMerger}), and after a retryable error
 * sends the rest of the read ({@link resumeReadPlan}: after the last row
 * delivered or the last key the server reported scanning, with the remaining
 * row limit), as `table.createReadStream()` does. A reversed plan resumes the
 * same way in its own direction: the rest lies below the last key. The retry count resets
 * only when the resume point advances (a row completed, or a scanned key past
 * key): an attempt that fails after part of a split row spends the budget. A
 * protocol violation or a non-retryable error fails the read.
 *
 * Time bounds ({@link CallOptions}): an attempt that receives nothing for
 * `idleTimeoutMs` while the read is not paused, or that runs past
 * `attemptTimeoutMs`, is cancelled and fails with a retryable
 * `DeadlineExceededError` (kind `idle` or `attempt`: the read's error when no
 * retry is left). At `deadline` the running attempt is cancelled and the read
 * fails with `DeadlineExceededError` (kind `total`); a retry whose delay would
 * end past it is not started. When `signal` aborts, the running attempt is
 * cancelled and the read fails with `abortError(signal)`. One unref'd timer
 * per attempt watches all three bounds; a response only records its time.
 *
 * An attempt cut for silence or length is handed to `retireChannel` before
 * it is cancelled: its connection may carry no data any more while still
 * answering keepalive pings (an HTTP/2 flow-control wedge), so the next
 * attempt must go out on another one.
 * @internal
 */
export class ReadRowsCall implements PushFeed<RowData> {
  readonly #plan: ReadPlan;
  readonly #open: (plan: ReadPlan, attempt: number) => ReadAttemptStream;
  readonly #retry: ReadRetryPolicy;
  readonly #call: CallOptions;
  readonly #operation: string;
  readonly #ready: (() => Promise<void>) | undefined;
  readonly #retireChannel: ((stream: ReadAttemptStream) => void) | undefined;
  #sink: PushSink<RowData> | undefined;
  #stream: ReadAttemptStream | undefined;
  #attempts = 0;
  #consecutiveErrors = 0;
  #resumeAfter: Buffer | undefined;
  #rowsRead = 0;
  #paused = false;
  #done = false;
  #startedAt = 0;
  #attemptStartedAt = 0;
  #lastActivity = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #watch: ReturnType<typeof setTimeout> | undefined;
  readonly #onRow = (row: RowData, bytes: number): void => {
    this.#resumeAfter = row.key;
    this.#rowsRead += 1;
    this.#consecutiveErrors = 0;
    this.#sink?.push(row, bytes);
  };
  readonly #onAbort = (): void => {
    if (!this.#done) this.#finish(abortError(this.#call.signal as AbortSignal, this.#operation));
  };
  readonly #check = (): void => {
    this.#watch = undefined;
    if (this.#done || this.#stream === undefined) return;
    const { deadline, attemptTimeoutMs, idleTimeoutMs } = this.#call;
    const now = Date.now();
    if (deadline !== undefined && now >= deadline) this.#finish(this.#expired(undefined));
    else if (attemptTimeoutMs !== undefined && now - this.#attemptStartedAt >= attemptTimeoutMs)
      this.#cut(new DeadlineExceededError(this.#operation, attemptTimeoutMs, 'attempt'));
    else if (idleTimeoutMs !== undefined && !this.#paused && now - this.#lastActivity >= idleTimeoutMs)
      this.#cut(new DeadlineExceededError(this.#operation, idleTimeoutMs, 'idle'));
    else this.#arm(now);
  };

  /**
   * `ready`, when given, is awaited before the first attempt (the driver's
   * endpoint probe): its rejection fails the read without any attempt.
   * `retireChannel`, when given, hears each attempt cut by the idle or
   * attempt timeout, before the next attempt is opened.
   */
  constructor(
    plan: ReadPlan,
    open: (plan: ReadPlan, attempt: number) => ReadAttemptStream,
    retry: ReadRetryPolicy,
    call: CallOptions = {},
    operation = 'readRows',
    ready?: () => Promise<void>,
    retireChannel?: (stream: ReadAttemptStream) => void,
  ) {
    this.#plan = plan;
    this.#open = open;
    this.#retry = retry;
    this.#call = call;
    this.#operation = operation;
    this.#ready = ready;
    this.#retireChannel = retireChannel;
  }

  start(sink: PushSink<RowData>): void {
    this.#sink = sink;
    this.#startedAt = Date.now();
    const { signal } = this.#call;
    if (signal !== undefined) {
      if (signal.aborted) {
        this.#finish(abortError(signal, this.#operation));
        return;
      }
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    if (this.#ready === undefined) {
      this.#attempt(this.#plan);
      return;
    }
    this.#ready().then(
      () => {
        if (!this.#done) this.#attempt(this.#plan);
      },
      (error: unknown) => {
        if (!this.#done) this.#finish(error);
      },
    );
  }

  pause(): void {
    this.#paused = true;
    this.#stream?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#lastActivity = Date.now();
    this.#stream?.resume();
  }

  cancel(): void {
    if (this.#done) return;
    this.#settle();
    const stream = this.#stream;
    this.#stream = undefined;
    if (stream !== undefined) abortRead(stream);
  }

  #attempt(plan: ReadPlan): void {
    this.#timer = undefined;
    const { deadline } = this.#call;
    if (deadline !== undefined && Date.now() >= deadline) {
      this.#finish(this.#expired(undefined));
      return;
    }
    const merger = new ChunkMerger(this.#plan.reversed === true);
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
      this.#lastActivity = Date.now();
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
    this.#attemptStartedAt = this.#lastActivity = Date.now();
    this.#arm(this.#attemptStartedAt);
  }

  /** Sets the watch timer for the nearest bound of the running attempt; a paused read's idle bound is only looked at again later. */
  #arm(now: number): void {
    const { deadline, attemptTimeoutMs, idleTimeoutMs } = this.#call;
    let due = deadline ?? Infinity;
    if (attemptTimeoutMs !== undefined) due = Math.min(due, this.#attemptStartedAt + attemptTimeoutMs);
    if (idleTimeoutMs !== undefined) due = Math.min(due, (this.#paused ? now : this.#lastActivity) + idleTimeoutMs);
    if (due === Infinity) return;
    clearTimeout(this.#watch);
    this.#watch = setTimeout(this.#check, Math.min(Math.max(due - now, 0), MAX_TIMER_MS));
    this.#watch.unref?.();
  }

  /** Rows up to the key the server reports having scanned (down to it, reversed) need not be asked for again. */
  #scannedUpTo(merger: ChunkMerger, scanned: Buffer): void {
    const resumeAfter = this.#resumeAfter;
    if (resumeAfter !== undefined) {
      const order = Buffer.compare(scanned, resumeAfter);
      if (this.#plan.reversed === true ? order >= 0 : order <= 0) return;
    }
    this.#resumeAfter = scanned;
    this.#consecutiveErrors = 0;
    merger.lastKey = scanned;
  }

  /** Cancels the running attempt, silent or too long (its channel is retired), and treats `error` as its failure. */
  #cut(error: DeadlineExceededError): void {
    const stream = this.#stream;
    this.#stream = undefined;
    if (stream !== undefined) {
      try {
        this.#retireChannel?.(stream);
      } catch {
        // The next attempt then goes out on the same channel: slower to recover, still bounded.
      }
      abortRead(stream);
    }
    this.#failed(error);
  }

  #failed(error: unknown): void {
    clearTimeout(this.#watch);
    const retries = this.#consecutiveErrors + 1;
    if (retries > this.#retry.maxRetries || !this.#retry.isRetryable(error)) {
      this.#finish(error);
      return;
    }
    this.#consecutiveErrors = retries;
    const rest =
      this.#resumeAfter === undefined ? this.#plan : resumeReadPlan(this.#plan, this.#resumeAfter, this.#rowsRead);
    if (rest === undefined) {
      this.#finish(undefined);
      return;
    }
    this.#stream = undefined;
    const delayMs = this.#retry.delayMs(retries, error);
    const { deadline } = this.#call;
    if (deadline !== undefined && Date.now() + delayMs >= deadline) {
      this.#finish(this.#expired(error));
      return;
    }
    this.#timer = setTimeout(() => {
      if (!this.#done) this.#attempt(rest);
    }, delayMs);
  }

  /** The error of a read past its deadline: the signal's reason when the signal aborted (the caller's deadline or abort). */
  #expired(cause: unknown): BigtableMapperError {
    const { signal, deadline } = this.#call;
    if (signal?.aborted === true) return abortError(signal, this.#operation);
    return new DeadlineExceededError(this.#operation, Math.max((deadline ?? 0) - this.#startedAt, 0), 'total', cause);
  }

  /** Marks the read done and releases its timers and signal listener. */
  #settle(): void {
    this.#done = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#watch);
    this.#call.signal?.removeEventListener('abort', this.#onAbort);
  }

  #finish(error: unknown): void {
    const stream = this.#stream;
    this.#settle();
    this.#stream = undefined;
    if (error === undefined) {
      this.#sink?.end();
      return;
    }
    if (stream !== undefined) abortRead(stream);
    this.#sink?.fail(error);
  }
}
