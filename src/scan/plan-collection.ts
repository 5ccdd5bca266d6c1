import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { CollectionLayout, CollectionMember } from '../key/collection-layout.js';
import { prefixEnd } from '../key/key-ranges.js';
import { encodeKeyComponents, joinLogicalKey } from '../key/logical-key.js';
import { orderedLogicalKey } from '../key/ordered-key.js';
import { scanSaltSegments } from '../key/physical-key.js';
import { collectionReadFilter } from '../read/collection-filter.js';
import { resolveRead, type ResolvedRead } from '../read/read-options.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { decodeCollectionCursor } from './collection-cursor.js';
import { moveSourcePast } from './cursor.js';
import { PlannedScan, PlannedSource, type ScanPlan, type ScanSource } from './scan-plan.js';

/**
 * What a collection read needs besides its {@link ScanPlan}: per member (in
 * layout order) the read that hydrates its rows, the rows it may still
 * return (`undefined`: no limit) and the rows a cursor says were taken
 * already; and where in every row key the member's marker starts.
 * @internal
 */
export interface CollectionScanPlan {
  readonly plan: ScanPlan;
  readonly reads: readonly ResolvedRead[];
  readonly remaining: readonly (number | undefined)[];
  readonly taken: readonly number[];
  /** Bytes of the salt segment at the start of every row key (0 when unsalted). */
  readonly segmentBytes: number;
  /** Bytes of the salt segment and the shared prefix: where each row's marker starts. */
  readonly markerAt: number;
}

/** The options a collection plan reads; the call's timing options are the operation's. */
interface CollectionPlanOptions {
  readonly select?: unknown;
  readonly limit?: unknown;
  readonly order?: unknown;
  readonly cursor?: unknown;
}

/**
 * Plans the scan of one aggregate: the range of the rows whose key starts
 * with the prefix (one range: the shared prefix decides the salt bucket), read
 * forward or reversed, moved past a cursor; the filter of every member's
 * selection; each member's limit. Throws `ValidationError` (or
 * `KeyEncodingError` for a prefix value that does not encode) before
 * anything is sent, naming `collection.operation`.
 * @internal
 */
export function planCollectionScan(
  layout: CollectionLayout,
  prefix: unknown,
  options: CollectionPlanOptions,
  nowMicros: number,
  operation: string,
): CollectionScanPlan {
  const where = `${layout.name}.${operation}`;
  const values = checkPrefix(layout, prefix, where);
  const encoded = encodeKeyComponents(layout.prefix, values, 'full');
  const logical =
    layout.prefix.key.format === 'ordered-code'
      ? orderedLogicalKey(layout.prefix, encoded, false)
      : Buffer.from(joinLogicalKey(layout.prefix.key.separator, encoded, false), 'utf8');
  const [segment] =
    layout.prefix.key.salt === undefined
      ? []
      : scanSaltSegments((layout.members[0] as CollectionMember).schema, values);
  const segmentBytes = segment?.prefix ?? Buffer.alloc(0);
  const start = Buffer.concat([segmentBytes, logical]);
  const end = prefixEnd(start);
  const whole: ScanSource = {
    id: 0,
    segment: segment?.segment ?? '',
    prefix: segmentBytes,
    layout: segment === undefined ? 'unsalted' : 'salted',
    range: {
      start: { key: start, inclusive: true },
      end: end === undefined ? undefined : { key: end, inclusive: false },
    },
  };
  const selects = perMember(layout, options.select, where, 'select');
  const reads = layout.members.map((m) =>
    resolveRead(m.schema, { select: selects.get(m.name) as string[] | undefined }),
  );
  const limitOf = perMember(layout, options.limit, where, 'limit');
  const limits = layout.members.map((m) => checkLimit(limitOf.get(m.name), `${where}: limit.${m.name}`));
  const order = checkOrder(options.order, where);
  const scope = fingerprint(layout, whole, order, reads, limits);
  let sources = [whole];
  let taken = layout.members.map(() => 0);
  if (options.cursor !== undefined) {
    const cursor = decodeCollectionCursor(options.cursor);
    if (cursor.scope !== scope)
      throw new ValidationError(
        `${where}: this cursor belongs to another read. Fix: resume with the same prefix, select, limit and order that produced the cursor`,
        { collection: layout.name, argument: 'cursor' },
      );
    sources = moveSourcePast(whole, cursor.lastKey, order);
    const counts = new Map(Object.entries(cursor.taken));
    taken = layout.members.map((m) => counts.get(m.name) ?? 0);
  }
  const filter = collectionReadFilter(
    layout.members.map((m, i) => ({ schema: m.schema, read: reads[i] as ResolvedRead })),
    nowMicros,
  );
  const plan = deepFreeze(
    new PlannedScan({
      table: layout.table,
      sources: sources.map((s) => new PlannedSource(s)),
      filter,
      limit: undefined,
      order,
      concurrency: 1,
      parallelism: 1,
      scope,
      keyCheck: undefined,
    }),
  );
  return {
    plan,
    reads,
    remaining: limits.map((limit, i) => (limit === undefined ? undefined : Math.max(0, limit - (taken[i] as number)))),
    taken,
    segmentBytes: segmentBytes.length,
    markerAt: start.length,
  };
}

/** The prefix: an object of exactly the shared key parts, each given. */
function checkPrefix(layout: CollectionLayout, prefix: unknown, where: string): Record<string, unknown> {
  const { properties } = layout.prefix.key;
  const fix = `pass { ${properties.map((p) => `${p}: ...`).join(', ')} }`;
  if (prefix === null || typeof prefix !== 'object' || Array.isArray(prefix))
    throw new ValidationError(
      `${where}: the prefix must be an object of the shared key parts, got ${preview(prefix)}. Fix: ${fix}`,
      {
        collection: layout.name,
        argument: 'prefix',
      },
    );
  const given = prefix as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !properties.includes(name));
  if (unknown !== undefined)
    throw new ValidationError(
      `${where}: "${unknown}" is not a key part the members share (${properties.join(', ')}). Fix: ${fix}`,
      { collection: layout.name, property: unknown },
    );
  const missing = properties.find((name) => !Object.hasOwn(given, name) || given[name] === undefined);
  if (missing !== undefined)
    throw new ValidationError(
      `${where}: the prefix is missing "${missing}": a collection reads one whole aggregate. Fix: ${fix}`,
      {
        collection: layout.name,
        property: missing,
      },
    );
  return Object.fromEntries(properties.map((name) => [name, given[name]]));
}

/** A per-member option (`select`, `limit`): an object whose keys are member names; its own entries by name. */
function perMember(
  layout: CollectionLayout,
  value: unknown,
  where: string,
  option: string,
): ReadonlyMap<string, unknown> {
  if (value === undefined) return new Map();
  const names = layout.members.map((m) => m.name);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError(
      `${where}: ${option} is per member, an object keyed by member name, got ${preview(value)}. Fix: pass e.g. ${option}: { ${names[0]}: ... }`,
      { collection: layout.name, argument: option },
    );
  const unknown = Object.keys(value).find((name) => !names.includes(name));
  if (unknown !== undefined)
    throw new ValidationError(
      `${where}: ${option} names "${unknown}", which is no member. Fix: use ${names.join(', ')}`,
      {
        collection: layout.name,
        argument: option,
        member: unknown,
      },
    );
  return new Map(Object.entries(value));
}

function checkLimit(limit: unknown, what: string): number | undefined {
  if (limit === undefined || (typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0))
    return limit as number | undefined;
  throw new ValidationError(
    `${what} must be a non-negative integer, got ${preview(limit)}. Fix: pass a whole number of rows, or omit it`,
    {
      argument: 'limit',
    },
  );
}

function checkOrder(order: unknown, where: string): 'key' | 'key-desc' {
  if (order === undefined || order === 'key' || order === 'key-desc') return order ?? 'key';
  throw new ValidationError(
    `${where}: order must be 'key' or 'key-desc', got ${preview(order)}. Fix: pass order: 'key' (ascending) or 'key-desc' (descending)`,
    { argument: 'order' },
  );
}

/** The read a cursor belongs to: its table, range, order, each member's columns and limit. */
function fingerprint(
  layout: CollectionLayout,
  source: ScanSource,
  order: string,
  reads: readonly ResolvedRead[],
  limits: readonly (number | undefined)[],
): string {
  const members = layout.members.map((m, i) => [m.name, reads[i]?.columns.map((c) => c.property), limits[i] ?? null]);
  return createHash('sha256')
    .update(JSON.stringify({ table: layout.table, start: source.range.start.key.toString('hex'), order, members }))
    .digest('base64url')
    .slice(0, 16);
}
