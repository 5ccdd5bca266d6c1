import type { BigtableDriver, CallOptions, RowMutationFailure } from '../model/driver.js';
import { DriverError, extractGrpcCode, TableNotFoundError } from '../errors/errors.js';
import { DeadlineExceededError } from '../errors/operation-errors.js';
import type { WriteFailure } from '../errors/operation-errors.js';
import { abortError, deadlineError, deadlineOf } from '../util/operation-signal.js';
import { takeMutations, type WriteBatchReader } from './write-batches.js';
import { DEAD_BACKEND_BATCHES, DeadBackendBreaker } from './dead-backend-breaker.js';

/**
 * Sends a reader's batches with `concurrency` MutateRows calls in flight,
 * reading the input only as fast as the writes go. Each row the server
 * rejects, and every row of a call that fails as a whole, goes to
 * `onFailure` with its input index, entity, row key and gRPC code;
 * `onWritten(n)` follows every call with the rows it persisted.
 *
 * Every call gets `call` (the driver cancels it when `call.signal` aborts
 * and bounds it by the deadline). The write stops early when the input
 * throws, the signal aborts or the deadline passes: no further batch is read
 * or sent, the calls in flight settle (a cancelled call's rows go to
 * `onFailure`), and then it rejects with the input's error, the signal's
 * typed error or a `DeadlineExceededError`. A call that finds the table
 * missing stops it the same way, with that `TableNotFoundError`. So does a
 * dead backend: once {@link DEAD_BACKEND_BATCHES} calls in a row, in the
 * order they settle, failed as a whole with UNAVAILABLE or on an endpoint
 * that accepts no connection ({@link DeadBackendBreaker}), no further batch
 * is sent and it rejects with the last of those errors; a call the server
 * answered, or that failed any other way, ends the run. The rows read but
 * never sent are then in `reader.dropped`. An abort, deadline or dead
 * backend that left nothing unsent or cancelled is no stop.
 * @internal
 */
export async function sendBatches<T>(
  driver: BigtableDriver,
  table: string,
  reader: WriteBatchReader<T>,
  concurrency: number,
  onFailure: (failure: WriteFailure<T>) => void,
  onWritten: (count: number) => void,
  call?: CallOptions,
): Promise<void> {
  const signal = call?.signal;
  const deadline = deadlineOf(signal);
  const aborted = (): boolean => signal?.aborted === true;
  // The deadline is checked as well as the signal: a call cut at the deadline can settle before the signal's timer fires.
  const cut = (): boolean => aborted() || (deadline !== undefined && Date.now() >= deadline);
  let inputError: { error: unknown } | undefined;
  // A missing table fails every batch the same way: the first one stops the write.
  let tableMissing: TableNotFoundError | undefined;
  // A dead backend fails every batch after its full retries: a few in a row stop the write.
  const breaker = new DeadBackendBreaker(DEAD_BACKEND_BATCHES);
  const stopped = (): boolean => tableMissing !== undefined || breaker.open || cut();
  let cancelled = false;
  async function worker(): Promise<void> {
    for (;;) {
      if (stopped()) {
        reader.stop();
        return;
      }
      let batch;
      try {
        batch = await reader.next();
      } catch (error) {
        inputError ??= { error };
        return;
      }
      if (batch === undefined) return;
      if (stopped()) {
        reader.drop(batch);
        reader.stop();
        return;
      }
      const { indices, entities, rowKeys } = batch;
      try {
        const failed: readonly (RowMutationFailure & { readonly cause?: unknown })[] = await driver.mutateRows(
          { table, mutations: takeMutations(batch) },
          call,
        );
        breaker.answered();
        if (failed.length > 0 && cut()) cancelled = true;
        for (const f of failed)
          onFailure({
            index: indices[f.index] as number,
            entity: entities[f.index] as T,
            rowKey: rowKeys[f.index] as string,
            grpcCode: f.grpcCode,
            message: f.message,
            ...(f.cause === undefined ? {} : { cause: f.cause }),
          });
        onWritten(indices.length - failed.length);
      } catch (err) {
        if (err instanceof TableNotFoundError) tableMissing ??= err;
        else if (cut()) cancelled = true;
        else {
          breaker.failed(err);
          // Stop reading at once: a worker waiting for the input sends nothing once it returns.
          if (breaker.open) reader.stop();
        }
        const grpcCode = err instanceof DriverError ? err.grpcCode : extractGrpcCode(err);
        const message = err instanceof Error ? err.message : String(err);
        for (const [i, index] of indices.entries())
          onFailure({ index, entity: entities[i] as T, rowKey: rowKeys[i] as string, grpcCode, message, cause: err });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (inputError !== undefined) throw inputError.error;
  if (tableMissing !== undefined) throw tableMissing;
  const unsent = reader.dropped.length > 0 || !reader.exhausted;
  if (cut() && (cancelled || unsent)) {
    const operation = `bulk write to "${table}"`;
    throw signal !== undefined && aborted()
      ? abortError(signal, operation)
      : (deadlineError(signal) ?? new DeadlineExceededError(operation, 0, 'total'));
  }
  if (breaker.open && unsent) throw breaker.cause;
}
