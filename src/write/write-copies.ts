import type { BigtableDriver, CallOptions, CheckAndMutateRequest } from '../model/driver.js';
import { DriverError, extractGrpcCode } from '../errors/errors.js';
import { DeadlineExceededError, OperationAbortedError } from '../errors/operation-errors.js';
import type { WriteFailure } from '../errors/operation-errors.js';
import { abortError, throwIfAborted } from '../util/operation-signal.js';

/** One row's conditional copy rewrite. @internal */
export interface CopyUpdate {
  readonly index: number;
  /** The row's decoded key, reported when the write fails. */
  readonly key: Record<string, unknown>;
  /** The physical key as text, for failure reports. */
  readonly rowKeyText: string;
  /** The CheckAndMutateRow: `rowExists` and, on match, the copy rewrite. */
  readonly request: CheckAndMutateRequest;
}

/** What happened to the rows of a {@link writeCopies}. @internal */
export interface CopyWriteResult {
  /** Rows whose write failed; every other row was written or skipped. */
  readonly failures: WriteFailure<Record<string, unknown>>[];
  /** Rows left alone because they no longer existed. */
  readonly skipped: number;
}

/**
 * Sends copy updates as CheckAndMutateRow calls, `concurrency` in flight,
 * pulling updates lazily (the scan runs only as fast as the writes).
 * `onWritten()` follows every row whose predicate matched (its copies were
 * rewritten). A row the server rejects becomes a failure and the others go
 * on; an abort or a deadline (`call`) stops every worker, closes the updates
 * and rejects with the signal's typed error, after the calls in flight
 * settled. Nothing is retried: a conditional write whose reply was lost may
 * have been applied, which only a re-run (safe: it skips rows already
 * holding the value) can tell.
 * @internal
 */
export async function writeCopies(
  driver: BigtableDriver,
  updates: AsyncIterable<CopyUpdate>,
  concurrency: number,
  call: CallOptions | undefined,
  operation: string,
  onWritten: () => void,
): Promise<CopyWriteResult> {
  const failures: WriteFailure<Record<string, unknown>>[] = [];
  const iterator = updates[Symbol.asyncIterator]();
  let skipped = 0;
  let fatal: { error: unknown } | undefined;

  async function worker(): Promise<void> {
    while (fatal === undefined) {
      throwIfAborted(call?.signal, operation);
      const next = await iterator.next();
      if (next.done === true || fatal !== undefined) return;
      const update = next.value;
      try {
        if (await driver.checkAndMutate(update.request, call)) onWritten();
        else skipped += 1;
      } catch (err) {
        if (stopsEverything(err, call)) throw call?.signal?.aborted === true ? abortError(call.signal, operation) : err;
        const grpcCode = err instanceof DriverError ? err.grpcCode : extractGrpcCode(err);
        failures.push({
          index: update.index,
          entity: update.key,
          rowKey: update.rowKeyText,
          grpcCode,
          message: err instanceof Error ? err.message : String(err),
          cause: err,
        });
      }
    }
  }

  const workers = Array.from({ length: concurrency }, () =>
    worker().catch((error: unknown) => {
      fatal ??= { error };
    }),
  );
  await Promise.all(workers);
  if (fatal !== undefined) {
    await iterator.return?.().catch(() => undefined);
    throw fatal.error;
  }
  return { failures, skipped };
}

/** An abort or the total deadline ends the propagation; an attempt timeout is one row's failure. */
function stopsEverything(err: unknown, call: CallOptions | undefined): boolean {
  if (call?.signal?.aborted === true || err instanceof OperationAbortedError) return true;
  return err instanceof DeadlineExceededError && err.kind === 'total';
}
