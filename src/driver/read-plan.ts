import type { KeyRange, ReadRowsRequest } from '../model/driver.js';
import { ValidationError } from '../errors/errors.js';
import { toRowFilterMessage, type RowFilterMessage } from './row-filter-message.js';

/**
 * One bound of a planned row range.
 * @internal
 * @example
 * ```ts
 * const bound: PlanBound = { value: Buffer.from('a#'), inclusive: true };
 * ```
 */
interface PlanBound {
  readonly value: Buffer;
  readonly inclusive: boolean;
}

/**
 * A planned row range; a missing bound is open.
 * @internal
 */
export interface PlanRange {
  start?: PlanBound;
  end?: PlanBound;
}

/**
 * Converts a {@link KeyRange} to a planned range, or `undefined` when it
 * cannot contain any row (start after end, or an empty end). An empty start
 * key means "from the first row" and is left open rather than sent as an
 * empty closed start.
 * @internal
 * @example
 * ```ts
 * toPlanRange({ start: { key: Buffer.from('a'), inclusive: true }, end: undefined }); // { start: { value: <61>, inclusive: true } }
 * ```
 */
function toPlanRange(range: KeyRange): PlanRange | undefined {
  const { start, end } = range;
  if (end !== undefined) {
    if (end.key.length === 0) return undefined;
    const order = Buffer.compare(start.key, end.key);
    if (order > 0 || (order === 0 && !(start.inclusive && end.inclusive))) return undefined;
  }
  const out: PlanRange = {};
  if (start.key.length > 0) out.start = { value: start.key, inclusive: start.inclusive };
  if (end !== undefined) out.end = { value: end.key, inclusive: end.inclusive };
  return out;
}

/**
 * What one ReadRows call asks for: row ranges and keys (both empty: the whole
 * table), the row limit, the `RowFilter` message and the direction, compiled
 * once. Plans are immutable; {@link resumeReadPlan} derives the rest of a
 * read after a failed attempt.
 * @internal
 */
export interface ReadPlan {
  readonly ranges: readonly PlanRange[];
  readonly keys: readonly Buffer[];
  readonly limit: number | undefined;
  readonly filter: RowFilterMessage | undefined;
  /** Rows come in descending key order: a resumed read then trims the ends of its ranges, not their starts. */
  readonly reversed?: boolean;
}

/**
 * Plans a request, or returns `undefined` when it provably reads nothing:
 * `limit: 0`, or `ranges` and/or `keys` given but all empty. Without `ranges`
 * and `keys` the whole table is read. Throws `ValidationError` for a negative
 * or fractional limit.
 * @internal
 */
export function planRead(request: ReadRowsRequest): ReadPlan | undefined {
  const { limit } = request;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new ValidationError(
      `readRows ${JSON.stringify(request.table)}: limit ${String(limit)} is not a non-negative integer. Fix: pass a row count.`,
      { limit },
    );
  }
  if (limit === 0) return undefined;
  let ranges: PlanRange[] = [{}];
  let keys: Buffer[] = [];
  if (request.ranges !== undefined || request.keys !== undefined) {
    ranges = (request.ranges ?? []).map(toPlanRange).filter((r): r is PlanRange => r !== undefined);
    keys = (request.keys ?? []).filter((key) => key.length > 0);
    if (ranges.length === 0 && keys.length === 0) return undefined;
  }
  const filter = request.filter === undefined ? undefined : toRowFilterMessage(request.filter);
  return request.reversed === true ? { ranges, keys, limit, filter, reversed: true } : { ranges, keys, limit, filter };
}

/**
 * The rest of a read once every row up to `lastKey` has been delivered and
 * `rowsRead` rows counted against the limit. Forward, ranges start after
 * `lastKey` (or go, when they end at or before it) and keys up to `lastKey`
 * go. Reversed, rows came largest key first, so what is left lies below
 * `lastKey`: ranges end before it (or go, when they start at or after it) and
 * keys from `lastKey` up go. `undefined` when nothing is left to read.
 * @internal
 */
export function resumeReadPlan(plan: ReadPlan, lastKey: Buffer, rowsRead: number): ReadPlan | undefined {
  const limit = plan.limit === undefined ? undefined : plan.limit - rowsRead;
  if (limit !== undefined && limit <= 0) return undefined;
  const reversed = plan.reversed === true;
  const ranges = plan.ranges.flatMap((range) => (reversed ? endBefore(range, lastKey) : startAfter(range, lastKey)));
  const keys = plan.keys.filter((key) =>
    reversed ? Buffer.compare(key, lastKey) < 0 : Buffer.compare(key, lastKey) > 0,
  );
  if (ranges.length === 0 && keys.length === 0) return undefined;
  return { ...plan, ranges, keys, limit };
}

/** The part of `range` after `lastKey`: none when it ends at or before it. */
function startAfter(range: PlanRange, lastKey: Buffer): PlanRange[] {
  if (range.end !== undefined && Buffer.compare(range.end.value, lastKey) <= 0) return [];
  if (range.start !== undefined && Buffer.compare(range.start.value, lastKey) > 0) return [range];
  return [{ ...range, start: { value: lastKey, inclusive: false } }];
}

/** The part of `range` before `lastKey`: none when it starts at or after it. */
function endBefore(range: PlanRange, lastKey: Buffer): PlanRange[] {
  if (range.start !== undefined && Buffer.compare(range.start.value, lastKey) >= 0) return [];
  if (range.end !== undefined && Buffer.compare(range.end.value, lastKey) < 0) return [range];
  return [{ ...range, end: { value: lastKey, inclusive: false } }];
}
