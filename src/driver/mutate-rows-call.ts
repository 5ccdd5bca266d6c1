import type { CallOptions } from '../model/driver.js';
import type { AbortableRead } from './abort-read.js';
import { abortRead } from './abort-read.js';
import { DEFAULT_WRITE_RETRY, type WriteRetryPolicy } from './write-retry.js';
import { isTransientStatus, retryDelayInDetails } from './retry-rules.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DriverError, extractGrpcCode } from '../errors/errors.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import { abortError, delay } from '../util/operation-signal.js';
import { attemptBound } from './bounded-call.js';
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

/** How one attempt ended. */
type AttemptEnd =
  | { readonly kind: 'ended' }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'cut'; readonly error: BigtableMapperError; readonly retryable: boolean };

/**
 * Sends MutateRows entries, retrying per entry, and resolves with the
 * entries not confirmed written (by position; the others were written).
 *
 * - An entry with a transient status (4, 8, 10, 14, or 13 `RST_STREAM`) is
 *   sent again only if it is idempotent; any other status is final.
 * - An RPC failure that is transient (an attempt cut by `attemptTimeoutMs`
 *   counts as DEADLINE_EXCEEDED) sends again the idempotent entries it left
 *   without a status; the others fail with the RPC's code. An entry confirmed
 *   written stays written whatever happens later.
 * - A stream that ends without a status for an entry makes it a failure
 *   (`grpcCode` undefined, "no status received"); it is not sent again.
 * - At most `retry.maxAttempts` attempts (default 10), with exponential
 *   backoff and jitter, at least the server's `RetryInfo` delay; no attempt
 *   starts when its wait would end past `call.deadline`: the entries still
 *   pending then fail with their last status.
 * - The deadline or the signal cuts a running attempt (its stream is
 *   cancelled): the entries without a status fail with code 4 or 1 and the
 *   typed error as `cause`.
 * - An attempt cut by `attemptTimeoutMs` is handed to `retireChannel` before
 *   it is cancelled, so that the next attempt goes out on another connection.
 *
 * Rejects with the typed abort or deadline error when the signal aborted or
 * the deadline passed before the first attempt (nothing sent), and with
 * `DriverError` when the RPC failed without the server sending a status for
 * any entry (a whole-RPC failure, or retries exhausted on UNAVAILABLE; a
 * missing `table` is a `TableNotFoundError`); the outcome is then the same
 * for every entry.
 * @internal
 */
export async function mutateWithRetries<E>(request: MutateRowsRequest<E>): Promise<EntryFailure[]> {
  const { operation, entries, call } = request;
  const retry = request.retry ?? DEFAULT_WRITE_RETRY;
  const startedAt = Date.now();
  const totalMs = call?.deadline === undefined ? 0 : Math.max(0, call.deadline - startedAt);
  if (call?.signal?.aborted === true) throw abortError(call.signal, operation);
  if (call?.deadline !== undefined && startedAt >= call.deadline)
    throw new DeadlineExceededError(operation, totalMs, 'total');

  const state = new Uint8Array(entries.length);
  const failures = new Map<number, EntryFailure>();
  const lastTransient = new Map<number, EntryFailure>();
  let anyStatus = false;

  const fail = (failure: EntryFailure): void => {
    state[failure.position] = FAILED;
    lastTransient.delete(failure.position);
    failures.set(failure.position, failure);
  };
  const failPending = (make: (position: number) => EntryFailure): void => {
    for (let position = 0; position < state.length; position++) if (state[position] === PENDING) fail(make(position));
  };
  const failPendingWithLastStatus = (): void => failPending((position) => lastTransient.get(position) as EntryFailure);
  const failPendingWith = (error: BigtableMapperError): void => failPending((position) => cutFailure(position, error));

  let batch: number[] = Array.from(entries.keys());
  let end: AttemptEnd;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0 && call?.deadline !== undefined && Date.now() >= call.deadline) {
      const error = new DeadlineExceededError(operation, totalMs, 'total');
      failPendingWith(error);
      end = { kind: 'cut', error, retryable: false };
      break;
    }
    let serverDelay = 0;
    const seen = new Uint8Array(batch.length);
    const sent = batch;
    const onResponse = (response: MutateRowsResponse): void => {
      for (const item of response.entries ?? []) {
        const i = Number(item.index ?? 0);
        if (!Number.isInteger(i) || i < 0 || i >= sent.length || seen[i] === 1) continue;
        seen[i] = 1;
        anyStatus = true;
        const position = sent[i] as number;
        const code = item.status?.code ?? 0;
        if (code === 0) {
          state[position] = WRITTEN;
          lastTransient.delete(position);
          continue;
        }
        const failure: EntryFailure = { position, grpcCode: code, message: item.status?.message ?? '' };
        if (isTransientStatus(code, failure.message) && request.idempotent(position)) {
          lastTransient.set(position, failure);
          serverDelay = Math.max(serverDelay, serverDelayMs(item.status?.details));
        } else {
          fail(failure);
        }
      }
    };
    end = await runAttempt(
      () =>
        request.open(
          sent.map((position) => entries[position] as E),
          attempt,
        ),
      onResponse,
      call,
      operation,
      totalMs,
      request.retireChannel,
    );

    const unseen = sent.filter((_, i) => seen[i] === 0 && state[sent[i] as number] === PENDING);
    if (end.kind === 'ended') {
      for (const position of unseen) fail({ position, grpcCode: undefined, message: NO_STATUS });
    } else if (end.kind === 'cut' && !end.retryable) {
      failPendingWith(end.error);
      break;
    } else {
      const error = end.error;
      const code = end.kind === 'cut' ? DEADLINE_EXCEEDED : extractGrpcCode(error);
      const message = error instanceof Error ? error.message : String(error);
      const transient = end.kind === 'cut' || isTransientStatus(code, message);
      if (end.kind === 'failed')
        serverDelay = Math.max(
          serverDelay,
          serverDelayMs((error as { statusDetails?: unknown } | null)?.statusDetails),
        );
      for (const position of unseen) {
        const failure: EntryFailure = { position, grpcCode: code, message, cause: error };
        if (transient && request.idempotent(position)) lastTransient.set(position, failure);
        else fail(failure);
      }
    }

    batch = [];
    for (let position = 0; position < state.length; position++) if (state[position] === PENDING) batch.push(position);
    if (batch.length === 0) break;
    if (attempt + 1 >= retry.maxAttempts) {
      failPendingWithLastStatus();
      break;
    }
    const wait = Math.max(retry.delayMs(attempt + 1), serverDelay);
    if (call?.deadline !== undefined && Date.now() + wait >= call.deadline) {
      failPendingWithLastStatus();
      break;
    }
    try {
      await delay(wait, call?.signal, operation);
    } catch (error) {
      failPendingWith(error as BigtableMapperError);
      end = { kind: 'cut', error: error as BigtableMapperError, retryable: false };
      break;
    }
  }

  if (end.kind === 'failed' && !anyStatus)
    throw request.table === undefined
      ? new DriverError(operation, end.error)
      : driverFailure(operation, request.table, end.error);
  return [...failures.values()].sort((a, b) => a.position - b.position);
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

/**
 * Runs one attempt to its end: the stream ends or fails, or the attempt is
 * cut by `attemptTimeoutMs` (retryable; the stream goes to `retireChannel`
 * first), the deadline or the signal (not retryable); a cut cancels the
 * stream. Responses go to `onResponse` as they arrive, so statuses received
 * before a failure count.
 */
function runAttempt(
  open: () => MutateAttemptStream,
  onResponse: (response: MutateRowsResponse) => void,
  call: CallOptions | undefined,
  operation: string,
  totalMs: number,
  retireChannel: ((stream: MutateAttemptStream) => void) | undefined,
): Promise<AttemptEnd> {
  return new Promise<AttemptEnd>((resolve) => {
    let settled = false;
    let stream: MutateAttemptStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const signal = call?.signal;
    const settle = (end: AttemptEnd): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (end.kind === 'cut' && stream !== undefined) {
        if (end.retryable) retireQuietly(retireChannel, stream);
        abortRead(stream);
      }
      resolve(end);
    };
    const onAbort = (): void =>
      settle({ kind: 'cut', error: abortError(signal as AbortSignal, operation), retryable: false });
    const bound = attemptBound(call, operation, totalMs);
    if (bound !== undefined)
      timer = setTimeout(() => settle({ kind: 'cut', error: bound.error, retryable: bound.byAttempt }), bound.ms);
    try {
      stream = open();
    } catch (error) {
      settle({ kind: 'failed', error });
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (response) => {
      if (!settled) onResponse(response);
    });
    stream.on('end', () => settle({ kind: 'ended' }));
    stream.on('error', (error) => settle({ kind: 'failed', error }));
    stream.on('close', () =>
      settle({ kind: 'failed', error: new Error('the MutateRows stream closed before its end') }),
    );
    if (signal?.aborted === true) onAbort();
  });
}

/** The server's RetryInfo delay among status details (0 when there is none). */
function serverDelayMs(details: unknown): number {
  return retryDelayInDetails(details) ?? 0;
}

/** Hands a silent attempt's stream to `retireChannel`; a failure there only leaves the channel in service. */
function retireQuietly(
  retireChannel: ((stream: MutateAttemptStream) => void) | undefined,
  stream: MutateAttemptStream,
): void {
  try {
    retireChannel?.(stream);
  } catch {
    // The next attempt then goes out on the same channel: slower to recover, still bounded.
  }
}
