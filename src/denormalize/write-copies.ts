import type { BigtableDriver } from '../driver/driver.js';
import type { WriteFailure } from '../errors/partial-write-error.js';
import { resolveBatchLimits } from '../mutation/batch.js';
import { sendBatches } from '../repository/send-batches.js';
import { WriteBatchReader } from '../repository/write-batches.js';
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
 * failed are returned, the others are persisted. (Taking a prepared
 * mutation cannot fail, so there are no compile errors to report.)
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
  const reader = new WriteBatchReader(updates, (update) => update.mutation, resolveBatchLimits({ maxEntries: options.batchSize }), () => undefined);
  await sendBatches(driver, table, reader, options.concurrency, (failure) => failures.push({ ...failure, index: failure.entity.index, entity: failure.entity.key }), onWritten);
  return failures;
}
