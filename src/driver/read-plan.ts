import type { GetRowsOptions } from '@google-cloud/bigtable';
import type { KeyRange, ReadRowsRequest } from './driver.js';
import { ValidationError } from '../errors/validation-error.js';
import { toClientFilter } from './client-filter.js';

/**
 * A range bound in the client's form (`Filter.createRange`: `inclusive` defaults to true).
 * @internal
 * @example
 * ```ts
 * const bound: ClientBound = { value: Buffer.from('a#'), inclusive: true };
 * ```
 */
export interface ClientBound {
  readonly value: Buffer;
  readonly inclusive: boolean;
}

/**
 * A row range in the client's form; a missing bound is open.
 * @internal
 * @example
 * ```ts
 * const range: ClientRange = { start: { value: Buffer.from('a'), inclusive: true } };
 * ```
 */
export interface ClientRange {
  start?: ClientBound;
  end?: ClientBound;
}

/**
 * Converts a {@link KeyRange} to the client's range, or `undefined` when it
 * cannot contain any row (start after end, or an empty end). An empty start
 * key means "from the first row" and is left open, since the client would send
 * an empty closed start.
 * @internal
 * @example
 * ```ts
 * toClientRange({ start: { key: Buffer.from('a'), inclusive: true }, end: undefined }); // { start: { value: <61>, inclusive: true } }
 * ```
 */
export function toClientRange(range: KeyRange): ClientRange | undefined {
  const { start, end } = range;
  if (end !== undefined) {
    if (end.key.length === 0) return undefined;
    const order = Buffer.compare(start.key, end.key);
    if (order > 0 || (order === 0 && !(start.inclusive && end.inclusive))) return undefined;
  }
  const out: ClientRange = {};
  if (start.key.length > 0) out.start = { value: start.key, inclusive: start.inclusive };
  if (end !== undefined) out.end = { value: end.key, inclusive: end.inclusive };
  return out;
}

/**
 * Builds fresh `createReadStream` options (`decode: false`) for a request, or
 * `undefined` when the request provably reads nothing: `limit: 0`, or `ranges`
 * and/or `keys` given but all empty. Without `ranges` and `keys` the whole
 * table is read. Throws `ValidationError` for a negative or fractional limit.
 * @internal
 * @example
 * ```ts
 * const options = toReadOptions({ table: 't', keys: [Buffer.from('k')], limit: 1 });
 * if (options) table.createReadStream(options);
 * ```
 */
export function toReadOptions(request: ReadRowsRequest): GetRowsOptions | undefined {
  const { limit } = request;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new ValidationError(`readRows ${JSON.stringify(request.table)}: limit ${String(limit)} is not a non-negative integer. Fix: pass a row count.`, { limit });
  }
  if (limit === 0) return undefined;
  const options: GetRowsOptions = { decode: false };
  if (request.ranges !== undefined || request.keys !== undefined) {
    const ranges = (request.ranges ?? []).map(toClientRange).filter((r): r is ClientRange => r !== undefined);
    const keys = (request.keys ?? []).filter((key) => key.length > 0);
    if (ranges.length === 0 && keys.length === 0) return undefined;
    if (ranges.length > 0) options.ranges = ranges;
    if (keys.length > 0) options.keys = keys as unknown as string[];
  }
  if (limit !== undefined) options.limit = limit;
  if (request.filter !== undefined) options.filter = toClientFilter(request.filter);
  return options;
}
