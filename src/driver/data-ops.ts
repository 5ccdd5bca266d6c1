import {
  isPreparedMutation,
  preparedElsewhere,
  type CompiledMutation,
  type PreparedMutation,
} from '../model/mutation.js';
import type { CallOptions, RowMutationFailure } from '../model/driver.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { extractGrpcCode, ValidationError } from '../errors/errors.js';
import { driverFailure } from './driver-failure.js';
import { EncodedEntry } from './encoded-entry.js';
import { encodeMutateEntry } from './data-wire-requests.js';
import { mutateWithRetries, type EntryFailure, type MutateAttemptStream } from './mutate-rows-call.js';
import type { DataRpc, DataTable } from './data-client.js';
import type { MutateRowsMessage } from './data-messages.js';
import type { RateLimitInfo } from './mutate-rows-limiter.js';

/**
 * A failed entry of {@link mutateManyRows}: a {@link RowMutationFailure} with
 * the error that ended it when there was one (the RPC's error, or the typed
 * `DeadlineExceededError` / `OperationAbortedError` for an entry cut by the
 * deadline or the signal).
 * @internal
 */
export interface WriteFailure extends RowMutationFailure {
  readonly cause?: unknown;
}

/**
 * Applies one row's mutations atomically and in order: a MutateRows call with
 * a single entry, retried on transient errors (RST_STREAM included) only
 * when the mutation is idempotent, within `call`'s deadline. A row without
 * mutations is a no-op (the server would reject it). Rejects with
 * `DriverError` carrying the gRPC code (`TableNotFoundError` for a missing
 * table), or with the typed deadline or abort error when `call` cut it.
 * @internal
 */
export async function mutateOneRow(
  rpc: DataRpc,
  table: DataTable,
  mutation: CompiledMutation,
  call?: CallOptions,
): Promise<void> {
  if (mutation.mutations.length === 0) return;
  const operation = `mutateRow ${JSON.stringify(table.id)} row ${JSON.stringify(mutation.rowKeyText)}`;
  const failure = (await sendWithRetries(rpc, table, operation, [encodeMutateEntry(mutation)], call))[0];
  if (failure === undefined) return;
  if (failure.cause instanceof BigtableMapperError) throw failure.cause;
  throw driverFailure(operation, table.id, failure.cause ?? new Error(failure.message), failure.grpcCode);
}

/**
 * Sends the mutations in one logical MutateRows call and resolves with the
 * entries not confirmed written, by index into `mutations` (every other row
 * was written). Entries are retried per entry on transient errors when they
 * are idempotent, also inside mixed batches, within `call`'s deadline and
 * attempt timeout (see {@link mutateWithRetries}). Entries cut by the
 * deadline or the signal are failures with code 4 or 1 and the typed error
 * as `cause`. Rows without mutations are not sent (no-ops); an empty batch
 * resolves `[]` without any RPC.
 *
 * Rejects with `DriverError` when the RPC failed before the server gave any
 * entry a status (`TableNotFoundError` for a missing table), and with the typed abort or
 * deadline error when nothing was sent because `call` had already ended.
 * @internal
 */
export async function mutateManyRows(
  rpc: DataRpc,
  table: DataTable,
  mutations: readonly (CompiledMutation | PreparedMutation)[],
  call?: CallOptions,
): Promise<WriteFailure[]> {
  const entries: EncodedEntry[] = [];
  const positions: number[] = [];
  for (let index = 0; index < mutations.length; index++) {
    const mutation = mutations[index] as CompiledMutation | PreparedMutation;
    if (mutation.table !== table.id) {
      throw new ValidationError(
        `mutateRows ${JSON.stringify(table.id)}: mutation #${index} targets table ${JSON.stringify(mutation.table)}. Fix: send one table's mutations per call.`,
        { table: table.id, index, mutationTable: mutation.table },
      );
    }
    let entry: EncodedEntry;
    if (!isPreparedMutation(mutation)) {
      if (mutation.mutations.length === 0) continue;
      entry = encodeMutateEntry(mutation);
    } else if (mutation instanceof EncodedEntry) {
      if (mutation.cellCount === 0) continue;
      entry = mutation;
    } else throw preparedElsewhere(table.id, index);
    entries.push(entry);
    positions.push(index);
  }
  return sendEntries(rpc, table, entries, positions, call);
}

/**
 * Sends the encoded entries; `positions[i]` is the input index of
 * `entries[i]`. A separate function so that the compiled mutations are not
 * kept alive while the RPC runs.
 */
async function sendEntries(
  rpc: DataRpc,
  table: DataTable,
  entries: EncodedEntry[],
  positions: readonly number[],
  call: CallOptions | undefined,
): Promise<WriteFailure[]> {
  if (entries.length === 0) return [];
  const operation = `mutateRows ${JSON.stringify(table.id)} (${entries.length} rows)`;
  // Server-driven flow control: once the server sent RateLimitInfo, each call waits for its turn.
  await table.mutateLimiter?.acquire(call?.signal, operation);
  const failures = await sendWithRetries(rpc, table, operation, entries, call);
  return failures.map((failure) => toWriteFailure(failure, positions[failure.position] as number));
}

/**
 * One logical MutateRows call of these entries through the retry engine,
 * each entry retried only when it is idempotent; with a listener, the bytes
 * written and the first row key are reported too.
 */
function sendWithRetries(
  rpc: DataRpc,
  table: DataTable,
  operation: string,
  entries: readonly EncodedEntry[],
  call: CallOptions | undefined,
): Promise<EntryFailure[]> {
  const listener = table.listener;
  return mutateWithRetries({
    operation,
    table: table.id,
    entries,
    idempotent: (position) => entries[position]?.idempotent === true,
    open: attemptOpener(rpc, table),
    retireChannel: (stream) => rpc.retireChannel?.(stream),
    listener,
    ...(listener === undefined
      ? {}
      : { entryBytes: entries.map((entry) => entry.dataBytes), rowKey: entries[0]?.rowKey }),
    call,
  });
}

function toWriteFailure(failure: EntryFailure, index: number): WriteFailure {
  const out: { -readonly [K in keyof WriteFailure]: WriteFailure[K] } = {
    index,
    grpcCode: failure.grpcCode,
    message: failure.message,
  };
  if (failure.cause !== undefined) out.cause = failure.cause;
  return out;
}

/** Starts one MutateRows attempt per call, the entries sent as they were encoded. */
function attemptOpener(
  rpc: DataRpc,
  table: DataTable,
): (entries: readonly EncodedEntry[], attempt: number) => MutateAttemptStream {
  const base: { tableName: string; appProfileId?: string } = { tableName: table.name };
  if (table.appProfileId !== undefined) base.appProfileId = table.appProfileId;
  const limiter = table.mutateLimiter;
  if (limiter === undefined)
    return (entries, attempt) => rpc.mutateRows({ ...base, entries } satisfies MutateRowsMessage, attempt);
  return (entries, attempt) => {
    const stream = rpc.mutateRows({ ...base, entries } satisfies MutateRowsMessage, attempt);
    stream.on('data', (response) =>
      limiter.observe((response as { rateLimitInfo?: RateLimitInfo | null }).rateLimitInfo),
    );
    stream.on('error', (error) => limiter.failed(extractGrpcCode(error)));
    return stream;
  };
}
