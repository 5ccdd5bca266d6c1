import { createHash } from 'node:crypto';
import type { LogicalKeyRange } from '../model/key-range.js';
import { planKeyRange, prefixEnd, type KeyRangeCondition } from '../key/key-ranges.js';
import { ValidationError } from '../errors/errors.js';
import { scanSaltSegments } from '../key/physical-key.js';
import { previousLayout } from '../key/previous-layout.js';
import type { KeySchema } from '../key/logical-key.js';
import type { KeyRange } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { splitWhere } from './plan-where.js';
import { resolveRead, type ReadTimeRange, type ResolvedRead } from '../read/read-options.js';
import { planReadFilter } from '../read/read-filter.js';
import { applyCursor } from './cursor.js';
import { PlannedScan, PlannedSource, type KeyCheck, type ScanPlan, type ScanSource } from './scan-plan.js';
import type { ScanQuery } from './scan-query.js';
import { pruneLayouts } from './since-layouts.js';
import { applyShard } from './shards.js';
import { DEFAULT_PARALLELISM, MAX_PARALLELISM } from './parallel-scan.js';

/** Default bucket reads in flight for unordered scans. @internal */
const DEFAULT_SCAN_CONCURRENCY = 8;

/** Most bucket reads an unordered scan may keep in flight. @internal */
const MAX_SCAN_CONCURRENCY = 256;

/**
 * Plans a scan without reading anything: one physical range per salt bucket
 * that can hold matching rows (one bucket when the salted key parts are
 * fixed), plus the unsalted layout of a forward-only salt; the read filter;
 * and, with a cursor, every range moved past the last delivered row (its start
 * moved up, or for `order: 'key-desc'` its end moved down). With a `shard`,
 * only the shard's pieces of those ranges, numbered from 0.
 *
 */
export function planScan<T>(
  schema: EntitySchema<T>,
  query: ScanQuery<T> = {},
  nowMicros = Date.now() * 1000,
): ScanPlan {
  return planScanRead(schema, query, nowMicros).plan;
}

/**
 * {@link planScan}, and the read it resolved (`select`, `versions`): what the
 * scan hydrates its rows with, so a scan resolves its read once.
 * @internal
 */
export function planScanRead<T>(
  schema: EntitySchema<T>,
  query: ScanQuery<T>,
  nowMicros: number,
): { readonly plan: ScanPlan; readonly read: ResolvedRead } {
  checkQuery(schema, query);
  const { fixed, range } = splitWhere(schema, query.where as Record<string, unknown> | undefined);
  const { range: logical, exact } = planKeyRange(schema, fixed, range);
  const read = resolveRead(schema, query);
  const limit = checkScanLimit(schema, query.limit);
  const requested = query.order ?? 'key';
  if (requested !== 'key' && requested !== 'key-desc' && requested !== 'none') {
    throw new ValidationError(
      `${schema.name}: order must be 'key', 'key-desc' or 'none', got ${preview(requested)}. Fix: pass order: 'key' (logical key order), 'key-desc' (descending) or 'none' (fastest)`,
      { entity: schema.name, argument: 'order' },
    );
  }
  // While re-salting, a row can be in both layouts: only a merge in key order can return it once.
  const order = requested === 'none' && schema.key.salt?.previous !== undefined ? 'key' : requested;
  const concurrency = checkScanConcurrency(schema, query.concurrency);
  const parallelism = checkParallelism(schema, query.parallelism);
  const keyCheck = exact || range === undefined ? undefined : keyCheckOf(range);
  let sources = physicalSources(schema, fixed, logical);
  sources = pruneLayouts(schema, sources, fixed, range).map((s, id) => ({ ...s, id }));
  if (query.shard !== undefined) sources = applyShard(schema, schema.table, sources, query.shard);
  const scope = fingerprint(
    schema.table,
    sources,
    order,
    read.columns.map((c) => c.property),
    read.versions,
    keyCheck,
    read.timeRange,
  );
  if (query.cursor !== undefined) sources = applyCursor(schema, sources, query.cursor, scope, order);
  const plan = deepFreeze(
    new PlannedScan({
      table: schema.table,
      sources: sources.map((source) => new PlannedSource(source)),
      filter: planReadFilter(schema, read, nowMicros),
      limit,
      order,
      concurrency,
      parallelism,
      scope,
      keyCheck,
    }),
  );
  return { plan, read };
}

/** The query itself is an object of known fields: anything else is a caller's mistake, not a scan of everything. */
function checkQuery(schema: EntitySchema, query: unknown): void {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw new ValidationError(
      `${schema.name}: a scan query must be an object, got ${preview(query)}. Fix: pass e.g. { where: { ${schema.key.properties[0] ?? 'key'}: ... }, limit: 100 }`,
      { entity: schema.name },
    );
  }
}

/** A scan's `limit`: `undefined` (no limit) or a non-negative safe integer. */
function checkScanLimit(schema: EntitySchema, limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0) return limit;
  throw new ValidationError(
    `${schema.name}: limit must be a non-negative integer, got ${preview(limit)}. Fix: pass a whole number of rows, or omit it`,
    { entity: schema.name, argument: 'limit' },
  );
}

/** An unordered scan's `concurrency`: an integer from 1 to {@link MAX_SCAN_CONCURRENCY}, default {@link DEFAULT_SCAN_CONCURRENCY}. */
function checkScanConcurrency(schema: EntitySchema, concurrency: unknown): number {
  if (concurrency === undefined) return DEFAULT_SCAN_CONCURRENCY;
  if (
    typeof concurrency === 'number' &&
    Number.isInteger(concurrency) &&
    concurrency >= 1 &&
    concurrency <= MAX_SCAN_CONCURRENCY
  )
    return concurrency;
  throw new ValidationError(
    `${schema.name}: concurrency must be an integer from 1 to ${MAX_SCAN_CONCURRENCY}, got ${preview(concurrency)}. Fix: pass how many bucket reads may run at once (default ${DEFAULT_SCAN_CONCURRENCY})`,
    { entity: schema.name, argument: 'concurrency' },
  );
}

/** A scan's `parallelism`: an integer from 1 to {@link MAX_PARALLELISM}, default {@link DEFAULT_PARALLELISM}. */
function checkParallelism(schema: EntitySchema, parallelism: unknown): number {
  if (parallelism === undefined) return DEFAULT_PARALLELISM;
  if (
    typeof parallelism === 'number' &&
    Number.isInteger(parallelism) &&
    parallelism >= 1 &&
    parallelism <= MAX_PARALLELISM
  )
    return parallelism;
  throw new ValidationError(
    `${schema.name}: parallelism must be an integer from 1 to ${MAX_PARALLELISM}, got ${preview(parallelism)}. Fix: pass how many reads the scan may run at once, e.g. 8 (default ${DEFAULT_PARALLELISM})`,
    { entity: schema.name, argument: 'parallelism' },
  );
}

/** The string range each row's key part is checked against when the physical range is wider than it. */
function keyCheckOf(range: KeyRangeCondition): KeyCheck {
  const bounds: { -readonly [B in keyof KeyCheck]: KeyCheck[B] } = { property: range.property };
  for (const bound of ['gt', 'gte', 'lt', 'lte'] as const)
    if (range[bound] !== undefined) bounds[bound] = range[bound] as string;
  return bounds;
}

function physicalSources(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
  logical: LogicalKeyRange,
): ScanSource[] {
  const previous = previousLayout(schema);
  if (previous === undefined) return layoutSources(schema, fixed, logical);
  const old = layoutSources(previous, fixed, logical).map((s): ScanSource => ({ ...s, layout: 'previous' }));
  return [...layoutSources(schema, fixed, logical), ...old];
}

function layoutSources(
  schema: KeySchema,
  fixed: Readonly<Record<string, unknown>>,
  logical: LogicalKeyRange,
): ScanSource[] {
  const salt = schema.key.salt;
  const unsalted: ScanSource = { id: 0, segment: '', prefix: Buffer.alloc(0), layout: 'unsalted', range: logical };
  if (salt === undefined) return [unsalted];
  const salted: ScanSource[] = scanSaltSegments(schema, fixed).map(({ segment, prefix }) => ({
    id: 0,
    segment,
    prefix,
    layout: 'salted',
    range: prefixed(prefix, logical),
  }));
  return salt.since === undefined ? salted : [unsalted, ...salted];
}

function prefixed(segment: Buffer, logical: LogicalKeyRange): KeyRange {
  const start = { key: Buffer.concat([segment, logical.start.key]), inclusive: logical.start.inclusive };
  if (logical.end !== undefined)
    return { start, end: { key: Buffer.concat([segment, logical.end.key]), inclusive: logical.end.inclusive } };
  const end = prefixEnd(segment);
  return { start, end: end === undefined ? undefined : { key: end, inclusive: false } };
}

function fingerprint(
  table: string,
  sources: readonly ScanSource[],
  order: string,
  columns: readonly string[],
  versions: Readonly<Record<string, number>>,
  keyCheck: KeyCheck | undefined,
  timeRange: ReadTimeRange | undefined,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ table, order, columns, versions, keyCheck, timeRange }));
  for (const s of sources) {
    hash.update(`|${s.segment}|${s.range.start.key.toString('hex')}|${String(s.range.start.inclusive)}`);
    hash.update(
      s.range.end === undefined ? '|open' : `|${s.range.end.key.toString('hex')}|${String(s.range.end.inclusive)}`,
    );
  }
  return hash.digest('base64url').slice(0, 16);
}

/**
 * The key ranges of a query's `where` before any shard or cursor: what
 * `planShards` cuts, and what a shard is checked against.
 * @internal
 */
export function planKeySources<T>(schema: EntitySchema<T>, where: unknown): ScanSource[] {
  const { fixed, range } = splitWhere(schema, where as Record<string, unknown> | undefined);
  const { range: logical } = planKeyRange(schema, fixed, range);
  const sources = physicalSources(schema, fixed, logical);
  return pruneLayouts(schema, sources, fixed, range).map((s, id) => ({ ...s, id }));
}
