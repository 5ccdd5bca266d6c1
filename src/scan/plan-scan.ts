import { createHash } from 'node:crypto';
import { encodeKeyComponents, logicalKeyRange, prefixEnd, type LogicalKeyRange } from '../codec/row-key.js';
import { scanSegments } from '../codec/salt.js';
import type { KeyRange } from '../driver/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { checkConcurrency, checkLimit } from './merge-options.js';
import { splitWhere } from './plan-where.js';
import { resolveRead } from './read-options.js';
import { planReadFilter } from './read-filter.js';
import { applyCursor } from './resume-plan.js';
import type { ScanPlan, ScanSource } from './scan-plan.js';
import type { ScanQuery } from './scan-query.js';
import { pruneLayouts } from './since-layouts.js';

/** Default bucket reads in flight for unordered scans. @internal */
export const DEFAULT_SCAN_CONCURRENCY = 8;

/**
 * Plans a scan without reading anything: one physical range per salt bucket
 * that can hold matching rows (one bucket when the salted key parts are
 * fixed), plus the unsalted layout of a forward-only salt; the read filter;
 * and, with a cursor, every range moved past the last delivered row.
 *
 * @example
 * ```ts
 * planScan(compileEntity(PageView), { where: { userId: 'u1', site: 'web' } }).sources.length; // 1
 * ```
 */
export function planScan<T>(schema: EntitySchema<T>, query: ScanQuery<T> = {}, nowMicros = Date.now() * 1000): ScanPlan {
  const { fixed, range } = splitWhere(schema, query.where as Record<string, unknown> | undefined);
  const logical = logicalKeyRange(schema, fixed, range);
  const read = resolveRead(schema, query);
  const limit = query.limit === undefined ? undefined : checkLimit(query.limit);
  const order = query.order ?? 'key';
  if (order !== 'key' && order !== 'none') throw new TypeError(`order must be 'key' or 'none', got ${String(order)}`);
  const concurrency = checkConcurrency(query.concurrency ?? DEFAULT_SCAN_CONCURRENCY);
  let sources = physicalSources(schema, fixed, logical);
  sources = pruneLayouts(schema, sources, fixed, range).map((s, id) => ({ ...s, id }));
  const scope = fingerprint(schema.table, sources, order, read.columns.map((c) => c.property), read.versions);
  if (query.cursor !== undefined) sources = applyCursor(schema, sources, query.cursor, scope, order);
  return deepFreeze({ table: schema.table, sources, filter: planReadFilter(schema, read, nowMicros), limit, order, concurrency, scope });
}

function physicalSources(schema: EntitySchema, fixed: Readonly<Record<string, unknown>>, logical: LogicalKeyRange): ScanSource[] {
  const salt = schema.key.salt;
  if (salt === undefined) return [{ id: 0, segment: '', layout: 'unsalted', range: logical }];
  const encoded = encodeKeyComponents(schema, fixed, 'prefix');
  const salted: ScanSource[] = scanSegments(salt, encoded, schema.key.separator).map((segment) => ({
    id: 0,
    segment,
    layout: 'salted',
    range: prefixed(Buffer.from(segment, 'utf8'), logical),
  }));
  return salt.since === undefined ? salted : [{ id: 0, segment: '', layout: 'unsalted', range: logical }, ...salted];
}

function prefixed(segment: Buffer, logical: LogicalKeyRange): KeyRange {
  const start = { key: Buffer.concat([segment, logical.start.key]), inclusive: logical.start.inclusive };
  if (logical.end !== undefined) return { start, end: { key: Buffer.concat([segment, logical.end.key]), inclusive: logical.end.inclusive } };
  const end = prefixEnd(segment);
  return { start, end: end === undefined ? undefined : { key: end, inclusive: false } };
}

function fingerprint(table: string, sources: readonly ScanSource[], order: string, columns: readonly string[], versions: Readonly<Record<string, number>>): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ table, order, columns, versions }));
  for (const s of sources) {
    hash.update(`|${s.segment}|${s.range.start.key.toString('hex')}|${String(s.range.start.inclusive)}`);
    hash.update(s.range.end === undefined ? '|open' : `|${s.range.end.key.toString('hex')}|${String(s.range.end.inclusive)}`);
  }
  return hash.digest('base64url').slice(0, 16);
}
