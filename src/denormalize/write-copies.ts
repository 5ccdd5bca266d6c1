import type { BigtableDriver } from '../driver/driver.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import type { WriteFailure } from '../errors/partial-write-error.js';
import { batchMutations } from '../mutation/batch.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';

/** One row's copy rewrite. @internal @example `{ index: 0, key: { sensorId: 's1', ts }, mutation }` */
export interface CopyUpdate {
  readonly index: number;
  /** The row's decoded key, reported when the write fails. */
  readonly key: Record<string, unknown>;
  readonly mutation: CompiledMutation;
}

/**
 * Writes copy updates in MutateRows batches of `batchSize` rows with
 * `concurrency` calls in flight, pulling updates lazily (the scan runs only
 * as fast as the writes). `onWritten(n)` follows every batch; the rows that
 * failed are returned, the others are persisted.
 * @internal
 * @example
 * ```ts
 * const failures = await writeCopies(driver, 'readings', updates, { batchSize: 500, concurrency: 2 }, (n) => (updated += n));
 * ```
 */
export async function writeCopies(
  driver: BigtableDriver,
  table: string,
  updates: AsyncIterable<CopyUpdate>,
  options: { batchSize: number; concurrency: number },
  onWritten: (count: number) => void,
): Promise<WriteFailure<Record<string, unknown>>[]> {
  const failures: WriteFailure<Record<string, unknown>>[] = [];
  const batches = batchMutations(updates, { maxEntries: options.batchSize });
  async function worker(): Promise<void> {
    for (let next = await batches.next(); next.done !== true; next = await batches.next()) {
      const batch = next.value;
      try {
        const failed = await driver.mutateRows(table, batch.map((b) => b.mutation));
        for (const f of failed) {
          const item = batch[f.index] as CopyUpdate;
          failures.push({ index: item.index, entity: item.key, rowKey: item.mutation.rowKeyText, grpcCode: f.grpcCode, message: f.message });
        }
        onWritten(batch.length - failed.length);
      } catch (err) {
        for (const item of batch) {
          failures.push({ index: item.index, entity: item.key, rowKey: item.mutation.rowKeyText, grpcCode: err instanceof DriverError ? err.grpcCode : extractGrpcCode(err), message: err instanceof Error ? err.message : String(err), cause: err });
        }
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return failures;
}
