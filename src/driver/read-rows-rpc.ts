import type { Bigtable } from '@google-cloud/bigtable';
import { Filter } from '@google-cloud/bigtable/build/src/filter.js';
import type { ReadPlan } from './read-plan.js';
import type { ReadAttemptStream } from './read-rows-call.js';
import { READ_FEATURE_FLAGS } from './feature-flags.js';

/**
 * A `google.bigtable.v2.ReadRowsRequest` as the generated client takes it.
 * @internal
 * @example
 * ```ts
 * const message: ReadRowsMessage = { tableName: table.name, rows: { rowKeys: [], rowRanges: [{}] } };
 * ```
 */
export interface ReadRowsMessage {
  readonly tableName: string;
  readonly appProfileId?: string;
  readonly rows: { readonly rowKeys: readonly Buffer[]; readonly rowRanges: readonly object[] };
  readonly filter?: object;
  readonly rowsLimit?: number;
}

/**
 * Builds the ReadRows request for a plan, with the client's own range and
 * filter compilers (`Filter.createRange`, `Filter.parse`), as
 * `table.createReadStream()` would.
 * @internal
 * @example
 * ```ts
 * toReadRowsMessage(plan, table.name, bigtable.appProfileId); // { tableName, rows: { rowKeys, rowRanges }, filter?, rowsLimit? }
 * ```
 */
export function toReadRowsMessage(
  plan: ReadPlan,
  tableName: string,
  appProfileId: string | undefined,
): ReadRowsMessage {
  const rowRanges = plan.ranges.map(
    (range) => Filter.createRange(range.start ?? null, range.end ?? null, 'Key') as object,
  );
  const message: { -readonly [K in keyof ReadRowsMessage]: ReadRowsMessage[K] } = {
    tableName,
    rows: { rowKeys: plan.keys, rowRanges },
  };
  if (appProfileId !== undefined) message.appProfileId = appProfileId;
  if (plan.filter !== undefined) message.filter = Filter.parse(plan.filter as never) as object;
  if (plan.limit !== undefined) message.rowsLimit = plan.limit;
  return message;
}

/**
 * Starts one ReadRows RPC attempt through the client's `request()` (its
 * channel, credentials and project id), with the client's own retries off:
 * {@link ReadRowsCall} retries. `attempt` goes out in the `bigtable-attempt`
 * header, as the client sends it, and {@link READ_FEATURE_FLAGS} in
 * `bigtable-features` (the server then reports the last key it scanned).
 * @internal
 * @example
 * ```ts
 * const stream = requestReadRows(bigtable, toReadRowsMessage(plan, table.name, bigtable.appProfileId), 0);
 * ```
 */
export function requestReadRows(bigtable: Bigtable, message: ReadRowsMessage, attempt: number): ReadAttemptStream {
  return bigtable.request({
    client: 'BigtableClient',
    method: 'readRows',
    reqOpts: message,
    gaxOpts: { otherArgs: { headers: { 'bigtable-attempt': attempt, 'bigtable-features': READ_FEATURE_FLAGS } } },
    retryOpts: { currentRetryAttempt: 0, noResponseRetries: 0, shouldRetryFn: () => false },
  }) as unknown as ReadAttemptStream;
}
