import type { BigtableDriver } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { encodeCursor, decodeCursor, type SourceCursorState } from './cursor.js';
import { executeScan, logicalKey, type ScannedRow, type SourceProgress } from './execute-scan.js';
import type { MappedBatches } from '../stream/batch-stream.js';
import { hydrate } from '../read/hydrate.js';
import { planKeySources, planScanRead } from './plan-scan.js';
import { checkShardCount, cutShards, type PlanShardsOptions, type ScanShard } from './shards.js';
import type { CallOptions } from '../model/driver.js';
import { SCAN_QUERY_OPTION_NAMES, type ScanQuery } from './scan-query.js';
import { checkOptionNames } from '../util/option-names.js';
import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { abortableBatches } from '../operation/abortable-batches.js';
import {
  OPERATION_OPTION_NAMES,
  startOperation,
  type OperationContext,
  type OperationOptions,
} from '../operation/operation.js';

/** What a scan call accepts: its query, read and operation options. @internal */
export const SCAN_CALL_OPTION_NAMES: readonly string[] = [...SCAN_QUERY_OPTION_NAMES, ...OPERATION_OPTION_NAMES];

/** What `planShards` accepts: its own options and the operation options. @internal */
export const PLAN_SHARDS_OPTION_NAMES: readonly string[] = [
  ...Object.keys({ shards: true, where: true } satisfies Record<keyof PlanShardsOptions, true>),
  ...OPERATION_OPTION_NAMES,
];

/**
 * Plans the shards of a query: checks the count and the `where` (before any
 * call), asks the driver for the table's sample row keys, and cuts the
 * query's key ranges at them ({@link cutShards}).
 * @internal
 */
export async function planShardsOf(
  driver: BigtableDriver,
  schema: EntitySchema,
  options: PlanShardsOptions,
  call: CallOptions,
): Promise<ScanShard[]> {
  const count = checkShardCount(schema, options.shards);
  if (schema.key.salt?.previous !== undefined) {
    // A row not yet moved is in both layouts, whose ranges could fall in two shards: it would be read twice.
    throw new ValidationError(
      `${schema.name}.planShards: the entity is being re-salted (@Salt previous is set), and a row not yet moved could be read by two shards. Fix: finish mapper.resalt(${schema.name}) and remove previous from @Salt, then plan the shards`,
      { entity: schema.name, argument: 'shards' },
    );
  }
  const sources = planKeySources(schema, options.where);
  const samples = await driver.sampleRowKeys({ table: schema.table }, call);
  return cutShards(schema, schema.table, sources, samples, count);
}

/**
 * One page of a scan.
 * @example
 * ```ts
 * const { items, cursor } = await repo.page({ where: { sensorId: 's1' }, limit: 100 });
 * ```
 */
export interface Page<T> {
  /** The entities of this page, in scan order; at most `limit` of them. */
  readonly items: T[];
  /** Pass back as `cursor` to read the next page; `undefined` when there is none. */
  readonly cursor: string | undefined;
}

/**
 * Opens a scan: the batch stream of its rows, and how each row becomes an
 * entity, hydrated as the reader takes it. `iterate()` reads it item by item,
 * `scan()` as an Observable. Pull-based: each range reads ahead of the
 * reader by at most one bounded batch (the driver's buffer). Cancelling the
 * stream cancels every read; so do the scan's deadline, its `signal` and
 * `mapper.close()`, which also make a pending `next()` reject with the typed
 * error.
 * @internal
 */
export function openScan<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  query: ScanQuery<T> & OperationOptions,
  context: OperationContext,
): MappedBatches<ScannedRow, T> {
  checkOptionNames(`${schema.name}.scan`, query, SCAN_CALL_OPTION_NAMES);
  const now = context.clock() * 1000;
  const { plan, read } = planScanRead(schema, query, now);
  const name = `${schema.name}.scan`;
  const operation = startOperation(context, 'scan', name, query);
  const { batches, settled } = abortableBatches(
    executeScan(driver, schema as EntitySchema, plan, undefined, operation.call),
    operation,
    name,
  );
  void context.track(settled);
  return { stream: batches, map: ({ row }) => hydrate(schema, row, read, now) };
}

/**
 * Reads one page of `limit` rows and a cursor that resumes exactly after it,
 * for ordered and unordered scans, salted or not. It reads one row more than
 * the page (over every bucket, bounded like any scan's limit) and returns a
 * cursor only when that row exists, so the last page has none, even a full one.
 * @internal
 */
export async function readPage<T>(
  driver: BigtableDriver,
  schema: EntitySchema<T>,
  query: ScanQuery<T> & OperationOptions,
  context: OperationContext,
): Promise<Page<T>> {
  checkOptionNames(`${schema.name}.page`, query, SCAN_CALL_OPTION_NAMES);
  const now = context.clock() * 1000;
  const limit: unknown = query !== null && typeof query === 'object' ? query.limit : undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new ValidationError(
      `${schema.name}: page() needs a positive integer limit (the page size), got ${preview(limit)}. Fix: pass { limit: 100 }`,
      { entity: schema.name },
    );
  }
  const { plan, read } = planScanRead(
    schema,
    { ...query, limit: limit < Number.MAX_SAFE_INTEGER ? limit + 1 : limit },
    now,
  );
  const progress = new Map<number, SourceProgress>();
  const delivered = new Map<number, Buffer>();
  const items: T[] = [];
  let last: ScannedRow | undefined;
  let more = false;
  const name = `${schema.name}.page`;
  const operation = startOperation(context, 'scan', name, query);
  const { batches, settled } = abortableBatches(
    executeScan(driver, schema as EntitySchema, plan, progress, operation.call),
    operation,
    name,
  );
  void context.track(settled);
  for await (const rows of batches) {
    for (const scanned of rows) {
      if (items.length === limit) {
        more = true;
        continue;
      }
      items.push(hydrate(schema, scanned.row, read, now));
      delivered.set(scanned.source, scanned.row.key);
      last = scanned;
    }
  }
  if (!more || last === undefined) return { items, cursor: undefined };
  if (plan.order !== 'none')
    return { items, cursor: encodeCursor({ kind: 'ordered', lastKey: logicalKey(last), scope: plan.scope }) };
  const previous = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const count = previous?.kind === 'unordered' ? previous.sources.length : plan.sources.length;
  const sources: SourceCursorState[] = Array.from({ length: count }, (_, id) => {
    const inPlan = plan.sources.some((s) => s.id === id);
    if (!inPlan) return { lastKey: undefined, finished: true };
    const before = previous?.kind === 'unordered' ? previous.sources[id]?.lastKey : undefined;
    const lastKey = delivered.get(id) ?? before;
    const state = progress.get(id);
    const finished =
      state !== undefined &&
      state.done &&
      (state.lastYielded === undefined || state.lastYielded.equals(lastKey ?? Buffer.alloc(0)));
    return { lastKey, finished };
  });
  return { items, cursor: encodeCursor({ kind: 'unordered', sources, scope: plan.scope }) };
}
