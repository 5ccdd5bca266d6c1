import type { Bigtable } from '@google-cloud/bigtable';
import type { CallOptions, CheckAndMutateRequest, IncrementRule, RowData } from '../model/driver.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DriverError } from '../errors/driver-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { toClientFilter } from './client-filter.js';
import type { ClientFilter } from './client-filter.js';
import { toRawMutation } from './client-mutation.js';
import { fromProtoRow } from './client-row.js';
import type { ProtoRow } from './client-row.js';
import { boundedCall, type GaxCallOptions } from './bounded-call.js';

/**
 * The client's own filter compiler (`Filter.parse`): client filter objects →
 * `google.bigtable.v2.RowFilter` proto.
 * @internal
 * @example
 * ```ts
 * const parse: ParseFilter = (filter) => Filter.parse(filter);
 * ```
 */
export type ParseFilter = (filter: ClientFilter) => unknown;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * One unary gapic call through the client (`bigtable.request`) with the
 * method's default call settings (CheckAndMutateRow and ReadModifyWriteRow
 * are configured without retries) plus `gax`: the attempt's gRPC deadline and
 * the signal that cancels it.
 * @internal
 * @example
 * ```ts
 * const resp = await unaryCall<{ predicateMatched: boolean }>(bigtable, 'checkAndMutateRow', reqOpts, { timeout: 20_000, signal });
 * ```
 */
export function unaryCall<T>(
  bigtable: Bigtable,
  method: string,
  reqOpts: Record<string, unknown>,
  gax: GaxCallOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    bigtable.request<T>({ client: 'BigtableClient', method, reqOpts, gaxOpts: gax }, (err, resp) =>
      err ? reject(err) : resolve(resp as T),
    );
  });
}

/**
 * Sends a never-retried unary call once within `call` (an attempt timeout
 * fails it with `DeadlineExceededError` of kind `'attempt'`); client failures
 * become `DriverError`.
 */
async function sendOnce<T>(
  bigtable: Bigtable,
  method: string,
  reqOpts: Record<string, unknown>,
  operation: string,
  call: CallOptions | undefined,
): Promise<T> {
  try {
    return await boundedCall(operation, call, (gax) => unaryCall<T>(bigtable, method, reqOpts, gax), {
      retryAttemptTimeouts: false,
    });
  } catch (err) {
    if (err instanceof BigtableMapperError) throw err;
    throw new DriverError(operation, err);
  }
}

/**
 * CheckAndMutateRow with raw true/false mutations (the client's `row.filter()`
 * cannot send raw mutations) and our predicate compiled by the client's
 * `Filter.parse`. No predicate means "the row has any cell". Never retried;
 * bounded and cancelled by `call` (a cut call may or may not have been applied).
 * @internal
 * @example
 * ```ts
 * const matched = await checkAndMutateRow(bigtable, table.name, request, (f) => Filter.parse(f));
 * ```
 */
export async function checkAndMutateRow(
  bigtable: Bigtable,
  tableName: string,
  request: CheckAndMutateRequest,
  parse: ParseFilter,
  call?: CallOptions,
): Promise<boolean> {
  const operation = `checkAndMutate ${JSON.stringify(request.table)} row ${JSON.stringify(request.rowKey.toString('utf8'))}`;
  const reqOpts = {
    tableName,
    appProfileId: bigtable.appProfileId,
    rowKey: request.rowKey,
    predicateFilter: request.predicate === undefined ? null : parse(toClientFilter(request.predicate)),
    trueMutations: request.onMatch.map(toRawMutation),
    falseMutations: request.onNoMatch.map(toRawMutation),
  };
  const response = await sendOnce<{ predicateMatched?: boolean | null }>(
    bigtable,
    'checkAndMutateRow',
    reqOpts,
    operation,
    call,
  );
  return response.predicateMatched === true;
}

/**
 * ReadModifyWriteRow with exact int64 amounts (sent as decimal strings, so
 * amounts beyond 2^53 are exact) and resolves with the new cells as bytes.
 * Never retried; bounded and cancelled by `call` (a cut call may or may not
 * have been applied). Throws `ValidationError` for no rules or an amount outside int64.
 * @internal
 * @example
 * ```ts
 * const row = await incrementCells(bigtable, table.name, 'counters', key, [{ family: 'c', qualifier: 'a.b', amount: 1n }]);
 * row.cells.c?.['a.b']?.[0]?.value.readBigInt64BE(); // 1n
 * ```
 */
export async function incrementCells(
  bigtable: Bigtable,
  tableName: string,
  table: string,
  rowKey: Buffer,
  rules: readonly IncrementRule[],
  call?: CallOptions,
): Promise<RowData> {
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
  const reqOpts = {
    tableName,
    appProfileId: bigtable.appProfileId,
    rowKey,
    rules: rules.map((rule) => ({
      familyName: rule.family,
      columnQualifier: Buffer.from(rule.qualifier, 'utf8'),
      incrementAmount: rule.amount.toString(),
    })),
  };
  const response = await sendOnce<{ row?: ProtoRow | null }>(bigtable, 'readModifyWriteRow', reqOpts, operation, call);
  try {
    return fromProtoRow(response.row, rowKey);
  } catch (err) {
    throw new DriverError(operation, err);
  }
}
