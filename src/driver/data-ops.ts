import type { Table } from '@google-cloud/bigtable';
import type { CompiledMutation } from '../mutation/compiled-mutation.js';
import type { RowMutationFailure } from './driver.js';
import { DriverError, extractGrpcCode } from '../errors/driver-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { toRawEntry } from './client-mutation.js';
import type { RawEntry } from './client-mutation.js';
import { asPartialFailure } from './partial-failure.js';

/**
 * Applies one row's mutations atomically and in order: a MutateRows call with
 * a single raw entry. Non-idempotent mutations are sent once (`maxRetries = 0`);
 * idempotent ones keep the client's retries on gRPC 4, 8, 10 and 14. A row
 * without mutations is a no-op (the server would reject it).
 *
 * `table` must be a fresh handle (`instance.table(id)`): its `maxRetries` is set.
 * @internal
 * @example
 * ```ts
 * await mutateOneRow(instance.table('readings'), repo.compileSave(reading));
 * ```
 */
export async function mutateOneRow(table: Table, mutation: CompiledMutation): Promise<void> {
  if (mutation.mutations.length === 0) return;
  if (!mutation.idempotent) table.maxRetries = 0;
  const operation = `mutateRow ${JSON.stringify(table.id)} row ${JSON.stringify(mutation.rowKeyText)}`;
  try {
    await table.mutate([toRawEntry(mutation)], { rawMutation: true });
  } catch (err) {
    const partial = asPartialFailure(err);
    throw new DriverError(operation, err, partial ? partial.errors[0]?.code : extractGrpcCode(err));
  }
}

/**
 * Sends the mutations in one MutateRows call and resolves with the entries that
 * failed, by index into `mutations` (the others were persisted). Retried only
 * when every mutation is idempotent. Rows without mutations are not sent (no-ops);
 * an empty batch resolves `[]` without any RPC. A whole-RPC failure (e.g. gRPC 5,
 * table missing) rejects with `DriverError`.
 *
 * `table` must be a fresh handle (`instance.table(id)`): its `maxRetries` may be set.
 * @internal
 * @example
 * ```ts
 * const failures = await mutateManyRows(instance.table('readings'), batch); // [{ index: 3, grpcCode: 13, message }]
 * ```
 */
export async function mutateManyRows(table: Table, mutations: readonly CompiledMutation[]): Promise<RowMutationFailure[]> {
  const indexOf = new Map<RawEntry, number>();
  let idempotent = true;
  mutations.forEach((mutation, index) => {
    if (mutation.table !== table.id) {
      throw new ValidationError(
        `mutateRows ${JSON.stringify(table.id)}: mutation #${index} targets table ${JSON.stringify(mutation.table)}. Fix: send one table's mutations per call.`,
        { table: table.id, index, mutationTable: mutation.table },
      );
    }
    if (mutation.mutations.length === 0) return;
    indexOf.set(toRawEntry(mutation), index);
    idempotent &&= mutation.idempotent;
  });
  if (indexOf.size === 0) return [];
  if (!idempotent) table.maxRetries = 0;
  const operation = `mutateRows ${JSON.stringify(table.id)} (${indexOf.size} rows)`;
  try {
    await table.mutate([...indexOf.keys()], { rawMutation: true });
    return [];
  } catch (err) {
    const partial = asPartialFailure(err);
    if (partial === undefined || partial.rpcFailed) throw new DriverError(operation, err, partial?.rpcCode);
    return partial.errors.map((failure) => {
      const index = indexOf.get(failure.entry as RawEntry);
      if (index === undefined) throw new DriverError(`${operation}: a failed entry could not be matched to its input`, err);
      return { index, grpcCode: failure.code, message: failure.message };
    }).sort((a, b) => a.index - b.index);
  }
}
