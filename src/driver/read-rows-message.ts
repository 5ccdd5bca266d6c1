import type { protos } from '@google-cloud/bigtable';
import type { PlanRange, ReadPlan } from './read-plan.js';
import type { RowFilterMessage } from './row-filter-message.js';

/**
 * A `google.bigtable.v2.RowRange`: at most one start and one end key, each
 * closed (inclusive) or open; a missing bound leaves that side unbounded.
 * @internal
 */
export type RowRangeMessage = Readonly<
  Pick<protos.google.bigtable.v2.IRowRange, 'startKeyClosed' | 'startKeyOpen' | 'endKeyClosed' | 'endKeyOpen'>
>;

/**
 * A `google.bigtable.v2.ReadRowsRequest` as the generated client takes it.
 * @internal
 */
export interface ReadRowsMessage {
  readonly tableName: string;
  readonly appProfileId?: string;
  readonly rows: { readonly rowKeys: readonly Buffer[]; readonly rowRanges: readonly RowRangeMessage[] };
  readonly filter?: RowFilterMessage;
  readonly rowsLimit?: number;
  /** Rows in descending key order; the request must then announce `reverse_scans` (see `feature-flags.ts`). */
  readonly reversed?: boolean;
}

/**
 * Converts a planned range to its `RowRange` message.
 * @internal
 */
export function toRowRangeMessage(range: PlanRange): RowRangeMessage {
  const message: { -readonly [K in keyof RowRangeMessage]: RowRangeMessage[K] } = {};
  const { start, end } = range;
  if (start !== undefined) message[start.inclusive ? 'startKeyClosed' : 'startKeyOpen'] = start.value;
  if (end !== undefined) message[end.inclusive ? 'endKeyClosed' : 'endKeyOpen'] = end.value;
  return message;
}

/**
 * Builds the ReadRows request for a plan: its row keys, ranges, row limit,
 * filter message and, for a reversed plan, `reversed: true`, for the table `tableName` (full resource name).
 * @internal
 */
export function toReadRowsMessage(
  plan: ReadPlan,
  tableName: string,
  appProfileId: string | undefined,
): ReadRowsMessage {
  const message: { -readonly [K in keyof ReadRowsMessage]: ReadRowsMessage[K] } = {
    tableName,
    rows: { rowKeys: plan.keys, rowRanges: plan.ranges.map(toRowRangeMessage) },
  };
  if (appProfileId !== undefined) message.appProfileId = appProfileId;
  if (plan.filter !== undefined) message.filter = plan.filter;
  if (plan.limit !== undefined) message.rowsLimit = plan.limit;
  if (plan.reversed === true) message.reversed = true;
  return message;
}
