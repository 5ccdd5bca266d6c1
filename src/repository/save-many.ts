import type { BigtableDriver } from '../driver/driver.js';
import { PartialWriteError, type WriteFailure } from '../errors/partial-write-error.js';
import { resolveBatchLimits } from '../mutation/batch.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';
import { ValidationError } from '../errors/validation-error.js';
import { sendBatches } from './send-batches.js';
import { WriteBatchReader } from './write-batches.js';

/** Options of bulk writes. @example `{ batchSize: 500, concurrency: 2 }` */
export interface BulkWriteOptions {
  /** Rows per MutateRows request. Default 500. */
  batchSize?: number;
  /** Requests in flight. Default 2. */
  concurrency?: number;
}

/** Result of a bulk write that fully succeeded. @example `{ written: 1000 }` */
export interface BulkWriteResult {
  /** Number of rows written. */
  readonly written: number;
}

/**
 * Compiles and writes entities in MutateRows batches with bounded
 * concurrency, reading the input lazily. Entities that fail to compile are
 * never sent; entities the server rejects are reported with their gRPC code;
 * all others are persisted. Throws one `PartialWriteError` listing every
 * failure.
 * @internal
 */
export async function writeMany<T>(
  driver: BigtableDriver,
  entityName: string,
  table: string,
  input: Iterable<T> | AsyncIterable<T>,
  compile: (entity: T) => CompiledMutation,
  options: BulkWriteOptions = {},
): Promise<BulkWriteResult> {
  const concurrency = positiveInt('concurrency', options.concurrency ?? 2);
  const limits = resolveBatchLimits({ maxEntries: positiveInt('batchSize', options.batchSize ?? 500) });
  const failures: WriteFailure<T>[] = [];
  let written = 0;
  const batches = new WriteBatchReader(input, compile, limits, (index, entity, err) => {
    failures.push({ index, entity, rowKey: '', grpcCode: undefined, message: err instanceof Error ? err.message : String(err), cause: err });
  });
  await sendBatches(driver, table, batches, concurrency, (failure) => failures.push(failure), (count) => (written += count));
  if (failures.length > 0) throw new PartialWriteError<T>(entityName, failures, written);
  return { written };
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ValidationError(`${name} must be a positive integer, got ${String(value)}. Fix: pass ${name}: 1 or more`, { option: name });
  return value;
}
