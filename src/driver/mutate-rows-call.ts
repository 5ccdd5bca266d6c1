import type { CallOptions } from '../model/driver.js';
import type { AbortableRead } from './abort-read.js';
import { abortRead } from './abort-read.js';
import { DEFAULT_WRITE_RETRY, type WriteRetryPolicy } from './write-retry.js';
import { isTransientStatus, retryDelayInDetails } from './retry-rules.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DriverError, extractGrpcCode } from '../errors/errors.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import {
  RetryingCall,
  type AttemptEnd,
  type CallVolume,
  type AttemptEvents,
  type AttemptListener,
  type CallOutcome,
  type GaxCallOptions,
  type NextStep,
  type ResumptionRule,
  type RetryPolicy,
  type RunningAttempt,
} from './retry-engine.js';
import { driverFailure } from './driver-failure.js';

/**
 * One `MutateRowsResponse` as the generated client decodes it: statuses by
 * index into the entries the attempt sent.
 * @internal
 * @example
 * ```ts
 * const response: MutateRowsResponse = { entries: [{ index: 0, status: { code: 0, message: '' } }] };
 * ```
 */
interface MutateRowsResponse {
  readonly entries?: readonly { readonly index?: unknown; readonly status?: EntryStatus | null }[] | null;
}

/**
 * A `google.rpc.Status` of one entry.
 * @internal
 * @example
 * ```ts
 * const status: EntryStatus = { code: 13, message: 'unknown family "x"' };
 * ```
 */
interface EntryStatus {
  readonly code?: number | null;
  readonly message?: string | null;
  readonly details?: readonly unknown[] | null;
}

/**
 * The response stream of one MutateRows RPC attempt (the generated client's `mutateRows`).
 * @internal
 */
export interface MutateAttemptStream extends AbortableRead {
  on(event: 'data', listener: (response: MutateRowsResponse) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * An entry that was not confirmed written, by its position in the entries
 * given to {@link mutateWithRetries}. `grpcCode` is the entry's last status,
 * or the failed RPC's code, 4 (DEADLINE_EXCEEDED) when the deadline cut it,
 * 1 (CANCELLED) when the signal aborted it, or `undefined` when the server
 * sent no status for it. `cause` is the error that ended it when there was
 * one (the RPC's error, or the typed deadline or abort error).
 * @internal
 */
export interface EntryFailure {
  readonly position: number;
  readonly grpcCode: number | undefined;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * What {@link mutateWithRetries} sends and how.
 * @internal
 */
export interface MutateRowsRequest<E> {
  /** Names the call in errors, e.g. `mutateRows "readings" (500 rows)`. */
  readonly operation: string;
  /** The table id, for the `TableNotFoundError` of a whole-RPC NOT_FOUND. */
  readonly table?: string;
  /** The entries, in the order of the first attempt. */
  readonly entries: readonly E[];
  /** Whether the entry at this position may be sent again. */
  readonly idempotent: (position: number) => boolean;
  /** Starts one RPC attempt with these entries; `attempt` counts from 0. */
  readonly open: (entries: readonly E[], attempt: number) => MutateAttemptStream;
  readonly call?: CallOptions | undefined;
  readonly retry?: WriteRetryPolicy | undefined;
  /** Hears every attempt start and end (measurements). */
  readonly listener?: AttemptListener | undefined;
  /** The request bytes of each entry, by position, for the listener's count of bytes written (given with a listener). */
  readonly entryBytes?: ArrayLike<number> | undefined;
  /** The first entry's row key, for a listener that shows a key prefix. */
  readonly rowKey?: Buffer | undefined;
  /**
   * Hears each attempt cut by `attemptTimeoutMs` (a silent or too long
   * attempt), before the next one is opened: the channel it went out on
   * should take no new call.
   */
  readonly retireChannel?: ((stream: MutateAttemptStream) => void) | undefined;
}

const PENDING = 0;
const WRITTEN = 1;
const FAILED = 2;
const CANCELLED = 1;
const DEADLINE_EXCEEDED = 4;
const NO_STATUS =
  'no status received for this entry: the MutateRows stream ended without one, so whether it was written is unknown';

/**
 * Sends MutateRows entries through the retry engine ({@link RetryingCall}),
 * retrying per entry, and resolves with the entries not confirmed written
 * (by position; the others were written).
 *
 * - An entry with a transient status (4, 8, 10, 14, or 13 `RST_STREAM`) is
 *   sent again only if it is idempotent; any other status is final.
 * - An RPC failure that is transient (an attempt cut by `attemptTimeoutMs`
 *   counts as DEADLINE_EXCEEDED) sends again the idempotent entries it left
 *   without a status; the others fail with the RPC's code. An entry confirmed
 *   written stays written whatever happens later.
 * - A stream that ends without a status for an entry (its answer was lost)
 *   sends it again when it is idempotent; otherwise it is a failure
 *   (`grpcCode` undefined, "no status received"), never sent again: it may
 *   or may not have been applied.
 * - At most `retry.maxAttempts` attempts (default 10), with exponential
 *   backoff and jitter, or the server's `RetryInfo` delay; no attempt starts
 *   when its wait would end past the signal's deadline: the entries still
 *   pending then fail with their last status.
 * - The signal (its abort or its deadline) cuts a running attempt (its
 *   stream is cancelled): the entries without a status fail with code 4 or
 *   1 and the typed error as `cause`.
 *
 * Rejects with the signal's typed error when it had aborted or its deadline
 * had passed before the first attempt (nothing sent), and with `DriverError`
 * when the RPC failed without the server sending a status for any entry (a
 * whole-RPC failure, or retries exhausted on UNAVAILABLE; a missing `table`
 * is a `TableNotFoundError`); the outcome is then the same for every entry.
 * @internal
 */
export function mutateWithRetries<E>(request: MutateRowsRequest<E>): Promise<EntryFailure[]> {
  return new Promise<EntryFailure[]>((resolve, reject) => {
    new RetryingCall(new MutateRowsRule(request, resolve, reject), request.call, request.listener).start();
  });
}

/** The MutateRows rule: which entries each attempt sends, and what every status and failure does to them. */
class MutateRowsRule<E> implements ResumptionRule {
  readonly method = 'MutateRows';
  readonly table: string | undefined;
  readonly sendsDeadline = false;
  readonly operation: string;
  readonly retry: RetryPolicy;
  readonly #request: MutateRowsRequest<E>;
  readonly #resolve: (failures: EntryFailure[]) => void;
  readonly #reject: (error: unknown) => void;
  readonly #state: Uint8Array;
  readonly #failures = new Map<number, EntryFailure>();
  readonly #lastTransient = new Map<number, EntryFailure>();
  #anyStatus = false;
  #batch: number[];
  #sent: number[] = [];
  #seen = new Uint8Array(0);
  #serverDelay = 0;
  #lastEnd: AttemptEnd | undefined;
  #current: MutateAttemptStream | undefined;

  constructor(
    request: MutateRowsRequest<E>,
    resolve: (failures: EntryFailure[]) => void,
    reject: (error: unknown) => void,
  ) {
    this.#request = request;
    this.#resolve = resolve;
    this.#reject = reject;
    this.operation = request.operation;
    this.table = request.table;
    const policy = request.retry ?? DEFAULT_WRITE_RETRY;
    this.retry = { maxRetries: policy.maxAttempts - 1, delayMs: (retry) => policy.delayMs(retry) };
    this.#state = new Uint8Array(request.entries.length);
    this.#batch = Array.from(request.entries.keys());
  }

  get rowKey(): Buffer | undefined {
    return this.#request.rowKey;
  }

  /** Entries confirmed written, and their request bytes. */
  volume(): CallVolume {
    const sizes = this.#request.entryBytes;
    let rows = 0;
    let bytes = 0;
    for (let position = 0; position < this.#state.length; position++) {
      if (this.#state[position] !== WRITTEN) continue;
      rows += 1;
      bytes += sizes?.[position] ?? 0;
    }
    return { rows, bytes };
  }

  open(attempt: number, _gax: GaxCallOptions, events: AttemptEvents): RunningAttempt {
    const sent = (this.#sent = this.#batch);
    this.#seen = new Uint8Array(sent.length);
    this.#serverDelay = 0;
    const stream = this.#request.open(
      sent.map((position) => this.#request.entries[position] as E),
      attempt,
    );
    this.#current = stream;
    const current = (): boolean => this.#current === stream;
    stream.on('data', (response) => {
      if (!current()) return;
      events.response();
      this.#onResponse(response);
    });
    stream.on('end', () => {
      if (current()) events.ended();
    });
    stream.on('error', (error) => {
      if (current()) events.failed(error);
    });
    stream.on('close', () => {
      if (current()) events.failed(new Error('the MutateRows stream closed before its end'));
    });
    return {
      cancel: () => {
        if (current()) this.#current = undefined;
        abortRead(stream);
      },
      retire: () => this.#request.retireChannel?.(stream),
    };
  }

  next(end: AttemptEnd): NextStep {
    this.#current = undefined;
    this.#lastEnd = end;
    const sent = this.#sent;
    const unseen = sent.filter((position, i) => this.#seen[i] === 0 && this.#state[position] === PENDING);
    if (end.kind === 'ended') {
      // The server's statuses for these were lost (an answer dropped on the way): an idempotent entry is sent again.
      for (const position of unseen) {
        const failure: EntryFailure = { position, grpcCode: undefined, message: NO_STATUS };
        if (this.#request.idempotent(position)) this.#lastTransient.set(position, failure);
        else this.#fail(failure);
      }
    } else {
      const error = end.error;
      const code = end.kind === 'cut' ? DEADLINE_EXCEEDED : extractGrpcCode(error);
      const message = error instanceof Error ? error.message : String(error);
      const transient = end.kind === 'cut' || isTransientStatus(code, message);
      if (end.kind === 'failed')
        this.#serverDelay = Math.max(
          this.#serverDelay,
          serverDelayMs((error as { statusDetails?: unknown } | null)?.statusDetails),
        );
      for (const position of unseen) {
        const failure: EntryFailure = { position, grpcCode: code, message, cause: error };
        if (transient && this.#request.idempotent(position)) this.#lastTransient.set(position, failure);
        else this.#fail(failure);
      }
    }
    this.#batch = this.#pending();
    if (this.#batch.length === 0) return { kind: 'done' };
    return { kind: 'retry', serverDelayMs: this.#serverDelay > 0 ? this.#serverDelay : undefined };
  }

  finish(outcome: CallOutcome): void {
    this.#current = undefined;
    if (outcome.kind === 'stopped') {
      if (outcome.attempts === 0) {
        this.#reject(outcome.error);
        return;
      }
      this.#failPending((position) => cutFailure(position, outcome.error));
    } else if (outcome.kind === 'exhausted') {
      this.#failPending((position) => this.#lastTransient.get(position) as EntryFailure);
    } else if (outcome.kind === 'failed') {
      this.#lastEnd = { kind: 'failed', error: outcome.error };
      const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      const grpcCode = extractGrpcCode(outcome.error);
      this.#failPending((position) => ({ position, grpcCode, message, cause: outcome.error }));
    }
    const last = this.#lastEnd;
    if (outcome.kind !== 'stopped' && last?.kind === 'failed' && !this.#anyStatus) {
      const { operation, table } = this.#request;
      this.#reject(
        table === undefined ? new DriverError(operation, last.error) : driverFailure(operation, table, last.error),
      );
      return;
    }
    this.#resolve([...this.#failures.values()].sort((a, b) => a.position - b.position));
  }

  #onResponse(response: MutateRowsResponse): void {
    const sent = this.#sent;
    for (const item of response.entries ?? []) {
      const i = Number(item.index ?? 0);
      if (!Number.isInteger(i) || i < 0 || i >= sent.length || this.#seen[i] === 1) continue;
      this.#seen[i] = 1;
      this.#anyStatus = true;
      const position = sent[i] as number;
      const code = item.status?.code ?? 0;
      if (code === 0) {
        this.#state[position] = WRITTEN;
        this.#lastTransient.delete(position);
        continue;
      }
      const failure: EntryFailure = { position, grpcCode: code, message: item.status?.message ?? '' };
      if (isTransientStatus(code, failure.message) && this.#request.idempotent(position)) {
        this.#lastTransient.set(position, failure);
        this.#serverDelay = Math.max(this.#serverDelay, serverDelayMs(item.status?.details));
      } else {
        this.#fail(failure);
      }
    }
  }

  #fail(failure: EntryFailure): void {
    this.#state[failure.position] = FAILED;
    this.#lastTransient.delete(failure.position);
    this.#failures.set(failure.position, failure);
  }

  #failPending(make: (position: number) => EntryFailure): void {
    for (const position of this.#pending()) this.#fail(make(position));
  }

  #pending(): number[] {
    const pending: number[] = [];
    for (let position = 0; position < this.#state.length; position++)
      if (this.#state[position] === PENDING) pending.push(position);
    return pending;
  }
}

/** The failure of an entry cut by the deadline (code 4) or by the signal (code 4 when its reason is a deadline, else 1). */
function cutFailure(position: number, error: BigtableMapperError): EntryFailure {
  return {
    position,
    grpcCode: error instanceof DeadlineExceededError ? DEADLINE_EXCEEDED : CANCELLED,
    message: error.message,
    cause: error,
  };
}

/** The server's RetryInfo delay among status details (0 when there is none). */
function serverDelayMs(details: unknown): number {
  return retryDelayInDetails(details) ?? 0;
}
