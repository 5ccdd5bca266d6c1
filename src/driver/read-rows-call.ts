import type { CallOptions, RowData } from '../model/driver.js';
import {
  RetryingCall,
  type AttemptEnd,
  type AttemptEvents,
  type AttemptListener,
  type CallOutcome,
  type CallVolume,
  type GaxCallOptions,
  type NextStep,
  type ResumptionRule,
  type RetryPolicy,
  type RunningAttempt,
} from './retry-engine.js';
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
export interface ReadRetryPolicy extends RetryPolicy {
  isRetryable(error: unknown): boolean;
}

/**
 * One logical ReadRows read over as many RPC attempts as the retry engine
 * ({@link RetryingCall}) makes: merges each attempt's chunks into rows
 * ({@link ChunkMerger}), and after a retryable error sends the rest of the
 * read ({@link resumeReadPlan}: after the last row delivered or the last key
 * the server reported scanning, with the remaining row limit), as
 * `table.createReadStream()` does. A reversed plan resumes the same way in
 * its own direction: the rest lies below the last key. The run of retries
 * starts again only when the resume point advances (a row completed, or a
 * scanned key past it): an attempt that fails after part of a split row
 * spends the budget. A protocol violation or a non-retryable error fails the
 * read.
 *
 * The engine bounds time ({@link CallOptions}): an attempt silent for
 * `idleTimeoutMs` while the read is not paused, or running past
 * `attemptTimeoutMs`, is retired, cancelled and retried (a
 * `DeadlineExceededError` of kind `idle` or `attempt` when no retry is
 * left); the signal's abort or deadline cancels the running attempt and
 * fails the read with the signal's typed error.
 * @internal
 */
export class ReadRowsCall implements PushFeed<RowData>, ResumptionRule {
  readonly method = 'ReadRows';
  readonly sendsDeadline = false;
  readonly operation: string;
  readonly table: string | undefined;
  readonly retry: ReadRetryPolicy;
  readonly #plan: ReadPlan;
  readonly #open: (plan: ReadPlan, attempt: number) => ReadAttemptStream;
  readonly #retireChannel: ((stream: ReadAttemptStream) => void) | undefined;
  readonly #engine: RetryingCall;
  #sink: PushSink<RowData> | undefined;
  #rest: ReadPlan;
  #resumeAfter: Buffer | undefined;
  #rowsRead = 0;
  #bytesRead = 0;
  #progress: (() => void) | undefined;
  /** The running attempt's stream; a settled attempt's later events are ignored. */
  #current: ReadAttemptStream | undefined;
  readonly #onRow = (row: RowData, bytes: number): void => {
    this.#resumeAfter = row.key;
    this.#rowsRead += 1;
    this.#bytesRead += bytes;
    this.#progress?.();
    this.#sink?.push(row, bytes);
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
    listener?: AttemptListener,
    table?: string,
  ) {
    this.table = table;
    this.#plan = this.#rest = plan;
    this.#open = open;
    this.retry = retry;
    this.operation = operation;
    this.#retireChannel = retireChannel;
    this.#engine = new RetryingCall(this, call, listener, ready);
  }

  /** @internal The first key the read asks for: its first row key, else its first range's start. */
  get rowKey(): Buffer | undefined {
    return this.#plan.keys[0] ?? this.#plan.ranges[0]?.start?.value;
  }

  /** @internal Rows delivered so far and the bytes of their keys and values. */
  volume(): CallVolume {
    return { rows: this.#rowsRead, bytes: this.#bytesRead };
  }

  start(sink: PushSink<RowData>): void {
    this.#sink = sink;
    this.#engine.start();
  }

  pause(): void {
    this.#engine.pause();
  }

  resume(): void {
    this.#engine.resume();
  }

  cancel(): void {
    this.#engine.cancel();
  }

  /** @internal One attempt: the rest of the read, its chunks merged into rows. */
  open(attempt: number, _gax: GaxCallOptions, events: AttemptEvents): RunningAttempt {
    const merger = new ChunkMerger(this.#plan.reversed === true);
    merger.lastKey = this.#resumeAfter;
    const stream = this.#open(this.#rest, attempt);
    this.#progress = events.progress;
    this.#current = stream;
    const current = (): boolean => this.#current === stream;
    stream.on('data', (response) => {
      if (!current()) return;
      events.response();
      try {
        merger.push(response.chunks ?? [], this.#onRow);
        const scanned = response.lastScannedRowKey;
        if (scanned != null && scanned.length > 0 && !merger.inRow)
          this.#scannedUpTo(merger, responseBytes(scanned), events);
      } catch (error) {
        events.failed(error);
      }
    });
    stream.on('end', () => {
      if (!current()) return;
      try {
        merger.finish();
      } catch (error) {
        events.failed(error);
        return;
      }
      events.ended();
    });
    stream.on('error', (error) => {
      if (current()) events.failed(error);
    });
    stream.on('close', () => {
      if (current()) events.failed(new Error('the read stream closed before its end'));
    });
    return {
      cancel: () => {
        if (current()) this.#current = undefined;
        abortRead(stream);
      },
      retire: () => this.#retireChannel?.(stream),
      pause: () => stream.pause(),
      resume: () => stream.resume(),
    };
  }

  /** @internal After a failed attempt: the rest of the read, if the error is worth another attempt and rows are left. */
  next(end: AttemptEnd): NextStep {
    this.#current = undefined;
    if (end.kind === 'ended') return { kind: 'done' };
    if (!this.retry.isRetryable(end.error)) return { kind: 'fail', error: end.error };
    const rest =
      this.#resumeAfter === undefined ? this.#plan : resumeReadPlan(this.#plan, this.#resumeAfter, this.#rowsRead);
    if (rest === undefined) return { kind: 'done' };
    this.#rest = rest;
    return { kind: 'retry' };
  }

  /** @internal */
  finish(outcome: CallOutcome): void {
    this.#current = undefined;
    if (outcome.kind === 'done') this.#sink?.end();
    else this.#sink?.fail(outcome.kind === 'exhausted' ? (outcome.deadline ?? outcome.error) : outcome.error);
  }

  /** Rows up to the key the server reports having scanned (down to it, reversed) need not be asked for again. */
  #scannedUpTo(merger: ChunkMerger, scanned: Buffer, events: AttemptEvents): void {
    const resumeAfter = this.#resumeAfter;
    if (resumeAfter !== undefined) {
      const order = Buffer.compare(scanned, resumeAfter);
      if (this.#plan.reversed === true ? order >= 0 : order <= 0) return;
    }
    this.#resumeAfter = scanned;
    events.progress();
    merger.lastKey = scanned;
  }
}
