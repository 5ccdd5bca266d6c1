import type { BigtableDriver } from '../driver/driver.js';
import { PartialWriteError, type WriteFailure } from '../errors/partial-write-error.js';
import { batchMutations, type BatchLimits } from '../mutation/batch.js';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import { ValidationError } from '../errors/validation-error.js';

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

interface Compiled<T> {
  index: number;
  entity: T;
  mutation: CompiledMutation;
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
  const limits: BatchLimits = { maxEntries: positiveInt('batchSize', options.batchSize ?? 500) };
  const failures: WriteFailure<T>[] = [];
  let written = 0;
  async function* compiled(): AsyncGenerator<Compiled<T>> {
    let index = 0;
    for await (const entity of input as AsyncIterable<T>) {
      const i = index++;
      try {
        yield { index: i, entity, mutation: compile(entity) };
      } catch (err) {
        failures.push({ index: i, entity, rowKey: '', grpcCode: undefined, message: err instanceof Error ? err.message : String(err), cause: err });
      }
    }
  }
  const batches = batchMutations(compiled(), limits);
  async function worker(): Promise<void> {
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      const batch = next.value;
      try {
        const failed = await driver.mutateRows(table, batch.map((b) => b.mutation));
        for (const f of failed) {
          const item = batch[f.index] as Compiled<T>;
          failures.push({ index: item.index, entity: item.entity, rowKey: item.mutation.rowKeyText, grpcCode: f.grpcCode, message: f.message });
        }
        written += batch.length - failed.length;
      } catch (err) {
        for (const item of batch) {
          failures.push({ index: item.index, entity: item.entity, rowKey: item.mutation.rowKeyText, grpcCode: err instanceof DriverError ? err.grpcCode : extractGrpcCode(err), message: err instanceof Error ? err.message : String(err), cause: err });
        }
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failures.length > 0) throw new PartialWriteError<T>(entityName, failures, written);
  return { written };
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ValidationError(`${name} must be a positive integer, got ${String(value)}. Fix: pass ${name}: 1 or more`, { option: name });
  return value;
}
