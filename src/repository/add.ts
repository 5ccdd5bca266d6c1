import type { BigtableDriver, CallOptions } from '../model/driver.js';
import type { CompiledMutation } from '../model/mutation.js';
import { DriverError, extractGrpcCode, TableNotFoundError } from '../errors/errors.js';
import { DeadlineExceededError, OperationAbortedError, WriteOutcomeUnknownError } from '../errors/operation-errors.js';
import type { EntityChanges } from '../metadata/compile-key-plan.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { compileAdd } from '../mutation/compile-add.js';
import { checkChanges, checkKeyValues } from '../mutation/validate-values.js';

/**
 * Checks and compiles a writer's `addTo(key, inputs, { changes })` at `now`
 * (milliseconds): the key's (or the changes') validators first, then the one
 * atomic, not idempotent row write `repo.add()` sends (which checks before it
 * moves a re-salted row, so it compiles on its own).
 * @internal
 */
export function compileAggregateAdd<T>(
  schema: EntitySchema<T>,
  key: unknown,
  inputs: unknown,
  changes: Partial<T> | undefined,
  now: number,
): CompiledMutation {
  if (changes === undefined) checkKeyValues(schema, key);
  else checkChanges(schema, key, changes);
  return compileAdd(schema, key as Record<string, unknown>, inputs as Record<string, unknown>, {
    now,
    checked: true,
    changes,
  });
}

/**
 * Options of `repo.add()` and `repo.compileAdd()`.
 *
 * @example
 * ```ts
 * await stats.add({ page: '/' }, { views: 1 }, { changes: { title: 'Home' } });
 * ```
 * @inline
 */
export interface AddOptions<T> {
  /**
   * Sets and deletes of plain columns, written in the same atomic row write
   * before the aggregate inputs, as `update(key, changes)` writes them
   * (`null` deletes a cell; on an aggregate column it resets the total).
   */
  changes?: EntityChanges<T>;
}

/** gRPC codes of a call that may have reached the server: CANCELLED, DEADLINE_EXCEEDED, ABORTED, INTERNAL (a reset stream), UNAVAILABLE. */
const CUT_CODES: ReadonlySet<number> = new Set([1, 4, 10, 13, 14]);

/**
 * Sends a write that is not idempotent (`idempotent: false`: the driver never
 * sends it again after an unknown outcome) and turns a failure that may have
 * followed the server applying it into `WriteOutcomeUnknownError`: the
 * call's deadline or signal cutting it, the RPC failing with gRPC 1, 4, 10,
 * 13 (a reset stream) or 14, or the call ending without a status for the row.
 * A call whose signal was aborted before it started sent nothing and fails as
 * it is; so does a status the server gave the row (a missing family, an
 * invalid argument, ...), which says it was not applied.
 * @internal
 */
export async function sendNotIdempotent(
  driver: BigtableDriver,
  mutation: CompiledMutation,
  operation: string,
  call: CallOptions,
): Promise<void> {
  if (call.signal?.aborted === true) return driver.mutateRow(mutation, call);
  try {
    await driver.mutateRow(mutation, call);
  } catch (err) {
    if (mayHaveApplied(err)) throw new WriteOutcomeUnknownError(operation, mutation.rowKeyText, err);
    throw err;
  }
}

/**
 * Whether a failed write may have been applied. A status the server gave the
 * row itself (a MutateRows entry status: its cause carries no gRPC code of
 * its own) says it was not, whatever the code: a row's mutations apply
 * together or not at all. A failed RPC (its cause is the call's error) may
 * have been applied when its code is one of a cut call.
 */
function mayHaveApplied(err: unknown): boolean {
  if (err instanceof DeadlineExceededError || err instanceof OperationAbortedError) return true;
  if (err instanceof TableNotFoundError || !(err instanceof DriverError)) return false;
  if (err.grpcCode === undefined) return true;
  const callCode = extractGrpcCode(err.cause);
  return callCode !== undefined && CUT_CODES.has(callCode);
}
