import type { BigtableDriver } from '../driver/driver.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import type { WriteFailure } from '../errors/partial-write-error.js';
import { takeMutations, type WriteBatchReader } from './write-batches.js';

/**
 * Sends a reader's batches with `concurrency` MutateRows calls in flight,
 * reading the input only as fast as the writes go. Each row the server
 * rejects, and every row of a call that fails as a whole, goes to
 * `onFailure` with its input index, entity, row key and gRPC code;
 * `onWritten(n)` follows every call with the rows it persisted.
 * @internal
 * @example
 * ```ts
 * await sendBatches(driver, 'readings', reader, 2, (failure) => failures.push(failure), (n) => (written += n));
 * ```
 */
export async function sendBatches<T>(
  driver: BigtableDriver,
  table: string,
  reader: WriteBatchReader<T>,
  concurrency: number,
  onFailure: (failure: WriteFailure<T>) => void,
  onWritten: (count: number) => void,
): Promise<void> {
  async function worker(): Promise<void> {
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) {
      const { indices, entities, rowKeys } = batch;
      try {
        const failed = await driver.mutateRows(table, takeMutations(batch));
        for (const f of failed) onFailure({ index: indices[f.index] as number, entity: entities[f.index] as T, rowKey: rowKeys[f.index] as string, grpcCode: f.grpcCode, message: f.message });
        onWritten(indices.length - failed.length);
      } catch (err) {
        const grpcCode = err instanceof DriverError ? err.grpcCode : extractGrpcCode(err);
        const message = err instanceof Error ? err.message : String(err);
        for (const [i, index] of indices.entries()) onFailure({ index, entity: entities[i] as T, rowKey: rowKeys[i] as string, grpcCode, message, cause: err });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
}
