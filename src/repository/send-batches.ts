import type { BigtableDriver, CallOptions } from '../driver/driver.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import type { WriteFailure } from '../errors/partial-write-error.js';
import { abortError } from '../util/operation-signal.js';
import { takeMutations, type WriteBatchReader } from './write-batches.js';

/**
 * Sends a reader's batches with `concurrency` MutateRows calls in flight,
 * reading the input only as fast as the writes go. Each row the server
 * rejects, and every row of a call that fails as a whole, goes to
 * `onFailure` with its input index, entity, row key and gRPC code;
 * `onWritten(n)` follows every call with the rows it persisted.
 *
 * Every call gets `call` (the driver cancels it when `call.signal` aborts and
 * bounds it by the deadline). The write stops early when the input throws or
 * the signal aborts: no further batch is read or sent, the calls in flight
 * settle (a cancelled call's rows go to `onFailure`), and then it rejects
 * with the input's error or the signal's typed error. The rows read but
 * never sent are then in `reader.dropped`; an abort that left nothing unsent
 * or cancelled is no stop.
 * @internal
 * @example
 * ```ts
 * await sendBatches(driver, 'readings', reader, 2, (failure) => failures.push(failure), (n) => (written += n), call);
 * ```
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
  const aborted = (): boolean => signal?.aborted === true;
  let inputError: { error: unknown } | undefined;
  let cancelled = false;
  async function worker(): Promise<void> {
    for (;;) {
      let batch;
      try {
        batch = await reader.next();
      } catch (error) {
        inputError ??= { error };
        return;
      }
      if (batch === undefined) return;
      if (aborted()) {
        reader.drop(batch);
        return;
      }
      const { indices, entities, rowKeys } = batch;
      try {
        const failed = await driver.mutateRows(table, takeMutations(batch), call);
        for (const f of failed) onFailure({ index: indices[f.index] as number, entity: entities[f.index] as T, rowKey: rowKeys[f.index] as string, grpcCode: f.grpcCode, message: f.message });
        onWritten(indices.length - failed.length);
      } catch (err) {
        if (aborted()) cancelled = true;
        const grpcCode = err instanceof DriverError ? err.grpcCode : extractGrpcCode(err);
        const message = err instanceof Error ? err.message : String(err);
        for (const [i, index] of indices.entries()) onFailure({ index, entity: entities[i] as T, rowKey: rowKeys[i] as string, grpcCode, message, cause: err });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (inputError !== undefined) throw inputError.error;
  if (signal !== undefined && aborted() && (cancelled || reader.dropped.length > 0 || !reader.exhausted)) throw abortError(signal, `bulk write to "${table}"`);
}
