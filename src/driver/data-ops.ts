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
  const entries: RawEntry[] = [];
  const positions: number[] = [];
  let idempotent = true;
  for (let index = 0; index < mutations.length; index++) {
    const mutation = mutations[index] as CompiledMutation;
    if (mutation.table !== table.id) {
      throw new ValidationError(
        `mutateRows ${JSON.stringify(table.id)}: mutation #${index} targets table ${JSON.stringify(mutation.table)}. Fix: send one table's mutations per call.`,
        { table: table.id, index, mutationTable: mutation.table },
      );
    }
    if (mutation.mutations.length === 0) continue;
    entries.push(toRawEntry(mutation));
    positions.push(index);
    idempotent &&= mutation.idempotent;
  }
  return sendEntries(table, entries, positions, idempotent);
}

/**
 * Sends the raw entries; `positions[i]` is the input index of `entries[i]`.
 * A separate function so that the compiled mutations are not kept alive
 * while the RPC runs.
 */
async function sendEntries(table: Table, entries: RawEntry[], positions: readonly number[], idempotent: boolean): Promise<RowMutationFailure[]> {
  if (entries.length === 0) return [];
  if (!idempotent) table.maxRetries = 0;
  try {
    await table.mutate(asOneNestedList(entries), { rawMutation: true });
    return [];
  } catch (err) {
    const operation = `mutateRows ${JSON.stringify(table.id)} (${entries.length} rows)`;
    const partial = asPartialFailure(err);
    if (partial === undefined || partial.rpcFailed) throw new DriverError(operation, err, partial?.rpcCode);
    const indexOf = new Map(entries.map((entry, i) => [entry, positions[i] as number]));
    return partial.errors.map((failure) => {
      const index = indexOf.get(failure.entry as RawEntry);
      if (index === undefined) throw new DriverError(`${operation}: a failed entry could not be matched to its input`, err);
      return { index, grpcCode: failure.code, message: failure.message };
    }).sort((a, b) => a.index - b.index);
  }
}

/**
 * The entries wrapped in one more list. The client flattens its `entries`
 * argument with `reduce((a, b) => a.concat(b), [])`: for a flat list of n
 * entries that copies O(n²) elements (125,000 for a batch of 500), for a
 * list holding one list it copies n. The entries sent are the same objects.
 */
function asOneNestedList(entries: RawEntry[]): RawEntry[] {
  return [entries] as unknown as RawEntry[];
}
