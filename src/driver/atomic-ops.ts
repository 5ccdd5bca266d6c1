import type { CallOptions, CheckAndMutateRequest, IncrementRule, RowData } from '../model/driver.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DriverError, ValidationError } from '../errors/errors.js';
import { toRowFilterMessage } from './row-filter-message.js';
import { toRawMutation } from './client-mutation.js';
import { fromProtoRow } from './client-row.js';
import { callWithRetries, type GaxCallOptions } from './retry-engine.js';
import { driverFailure } from './driver-failure.js';
import type { DataRpc, DataTable } from './data-client.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Sends a never-retried unary call once within `call` (an attempt timeout
 * fails it with `DeadlineExceededError` of kind `'attempt'`), with the
 * method's call settings plus the attempt's gRPC deadline and cancelling
 * signal; client failures become `DriverError` (`TableNotFoundError` for a
 * missing table). An attempt past its attempt timeout retires the channel it
 * went out on, so the next call goes out on a new one.
 */
async function sendOnce<T>(
  rpc: DataRpc,
  method: string,
  operation: string,
  table: DataTable,
  call: CallOptions | undefined,
  send: (gax: GaxCallOptions) => Promise<T>,
): Promise<T> {
  try {
    return await callWithRetries(operation, call, send, {
      method,
      table: table.id,
      retryAttemptTimeouts: false,
      retireChannel: (gax) => rpc.retireChannel?.(gax),
      listener: table.listener,
    });
  } catch (err) {
    if (err instanceof BigtableMapperError) throw err;
    throw driverFailure(operation, table.id, err);
  }
}

/**
 * CheckAndMutateRow with raw true/false mutations and our predicate as a
 * `RowFilter` message. No predicate means "the row has any cell". Never
 * retried; bounded and cancelled by `call` (a cut call may or may not have
 * been applied).
 * @internal
 */
export async function checkAndMutateRow(
  rpc: DataRpc,
  table: DataTable,
  request: CheckAndMutateRequest,
  call?: CallOptions,
): Promise<boolean> {
  const operation = `checkAndMutate ${JSON.stringify(request.table)} row ${JSON.stringify(request.rowKey.toString('utf8'))}`;
  const message = {
    tableName: table.name,
    appProfileId: table.appProfileId,
    rowKey: request.rowKey,
    predicateFilter: request.predicate === undefined ? null : toRowFilterMessage(request.predicate),
    trueMutations: request.onMatch.map(toRawMutation),
    falseMutations: request.onNoMatch.map(toRawMutation),
  };
  const response = await sendOnce(rpc, 'CheckAndMutateRow', operation, table, call, (gax) =>
    rpc.checkAndMutateRow(message, gax),
  );
  return response.predicateMatched === true;
}

/**
 * ReadModifyWriteRow with exact int64 amounts (sent as decimal strings, so
 * amounts beyond 2^53 are exact) and resolves with the new cells as bytes.
 * Never retried; bounded and cancelled by `call` (a cut call may or may not
 * have been applied). Throws `ValidationError` for no rules or an amount outside int64.
 * @internal
 */
export async function incrementCells(
  rpc: DataRpc,
  target: DataTable,
  rowKey: Buffer,
  rules: readonly IncrementRule[],
  call?: CallOptions,
): Promise<RowData> {
  const table = target.id;
  const operation = `increment ${JSON.stringify(table)} row ${JSON.stringify(rowKey.toString('utf8'))}`;
  if (rules.length === 0)
    throw new ValidationError(`${operation}: no rules. Fix: pass at least one IncrementRule.`, { table });
  for (const rule of rules) {
    if (typeof rule.amount !== 'bigint' || rule.amount < INT64_MIN || rule.amount > INT64_MAX) {
      throw new ValidationError(
        `${operation}: amount of ${rule.family}:${rule.qualifier} is not an int64 bigint. Fix: pass a bigint in [-2^63, 2^63-1].`,
        {
          table,
          family: rule.family,
          qualifier: rule.qualifier,
        },
      );
    }
  }
  const message = {
    tableName: target.name,
    appProfileId: target.appProfileId,
    rowKey,
    rules: rules.map((rule) => ({
      familyName: rule.family,
      columnQualifier: Buffer.from(rule.qualifier, 'utf8'),
      incrementAmount: rule.amount.toString(),
    })),
  };
  const response = await sendOnce(rpc, 'ReadModifyWriteRow', operation, target, call, (gax) =>
    rpc.readModifyWriteRow(message, gax),
  );
  try {
    return fromProtoRow(response.row, rowKey);
  } catch (err) {
    throw new DriverError(operation, err);
  }
}
