import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import type { KeyRange, RowKeySample } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { ScanSource } from './scan-plan.js';

/** The `kind` of every shard object, so a stray object is never read as one. @internal */
const SHARD_KIND: ScanShard['kind'] = 'bigtable-mapper.shard';

/** The shard format this build writes and reads. @internal */
const SHARD_VERSION: ScanShard['v'] = 1;

/** Most shards one plan may cut. @internal */
const MAX_SHARDS = 10_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * One contiguous piece of one key range of a query: physical keys from
 * `start` (inclusive) to `end` (exclusive), inside the query's range number
 * `source` (a salt bucket, or the whole key space of an unsalted entity).
 * Keys are base64; `null` stands for that range's own start or end.
 *
 * @example
 * ```ts
 * const part: ShardRange = { source: 0, start: 'czEwMA==', end: null }; // from key 's100' to the end of the range
 * ```
 */
export interface ShardRange {
  /** Index of the query's key range (`planScan().sources[i].id`) this piece lies in. */
  readonly source: number;
  /** First key (inclusive), base64; `null`: the start of the query's range. */
  readonly start: string | null;
  /** Key the piece stops before (exclusive), base64; `null`: the end of the query's range. */
  readonly end: string | null;
}

/**
 * One of the `n` shards of a query, made by `mapper.planShards()`: a plain
 * JSON object to hand to a worker (a job task, a queue message), which reads
 * it back with `repo.iterate({ where, shard })` (or `scan`, `page`) and the
 * same `where`. The `n` shards of a plan are disjoint and together cover the
 * query's key range: every row is read by exactly one of them. A shard is
 * checked when it is read: one edited, of another entity, table or `where`, or
 * reaching outside the query's range is a `ValidationError`, never a read of
 * other rows.
 *
 * @example
 * ```ts
 * const shards = await mapper.planShards(Reading, { shards: 8 });
 * const body = JSON.stringify(shards[3]); // to the worker
 * for await (const reading of readings.iterate({ shard: JSON.parse(body) })) handle(reading);
 * ```
 */
export interface ScanShard {
  /** Always `'bigtable-mapper.shard'`. */
  readonly kind: 'bigtable-mapper.shard';
  /** The format version (1). */
  readonly v: 1;
  /** The entity's name. */
  readonly entity: string;
  /** The table id the plan was made for. */
  readonly table: string;
  /** Fingerprint of the query's key ranges (its `where`): a shard is read only with the query it was cut from. */
  readonly scope: string;
  /** This shard's position, from 0. */
  readonly index: number;
  /** How many shards the plan has. */
  readonly count: number;
  /** The pieces of the query's ranges this shard reads, in key order; empty for a shard left without rows. */
  readonly ranges: readonly ShardRange[];
  /** Checksum of the fields above: detects edits and corruption (it is not a signature). */
  readonly check: string;
}

/**
 * Options of `mapper.planShards()`.
 *
 * @example
 * ```ts
 * const options: PlanShardsOptions<Reading> = { shards: 8, where: { sensorId: range({ gte: 's1', lt: 's5' }) } };
 * ```
 */
export interface PlanShardsOptions<W = unknown> {
  /** How many shards to cut, from 1 to 10,000. */
  shards: number;
  /** The query's key conditions, as for `scan`; each worker reads its shard with the same `where`. */
  where?: W;
}

/** A piece of one source's range, as cut at the samples. */
interface Piece {
  readonly source: number;
  readonly start: Buffer | undefined;
  readonly end: Buffer | undefined;
}

/**
 * Fingerprint of a query's key ranges before any shard or cursor: what a
 * shard is bound to.
 * @internal
 */
function shardScope(table: string, sources: readonly ScanSource[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ table }));
  for (const s of sources) {
    hash.update(`|${s.id}|${s.layout}|${s.range.start.key.toString('hex')}|${String(s.range.start.inclusive)}`);
    hash.update(
      s.range.end === undefined ? '|open' : `|${s.range.end.key.toString('hex')}|${String(s.range.end.inclusive)}`,
    );
  }
  return hash.digest('base64url').slice(0, 16);
}

/**
 * Checks the `shards` count of `planShards`: an integer from 1 to {@link MAX_SHARDS}.
 * @internal
 */
export function checkShardCount(schema: EntitySchema, shards: unknown): number {
  if (typeof shards === 'number' && Number.isInteger(shards) && shards >= 1 && shards <= MAX_SHARDS) return shards;
  throw new ValidationError(
    `${schema.name}.planShards: shards must be an integer from 1 to ${MAX_SHARDS}, got ${preview(shards)}. Fix: pass how many workers will read the table, e.g. { shards: 8 }`,
    { entity: schema.name, argument: 'shards' },
  );
}

/**
 * Cuts a query's key ranges into `count` contiguous shards at the sample
 * keys: each range is cut at every sample strictly inside it, the pieces are
 * laid end to end in the ranges' order (salt buckets in bucket order), and
 * shard `i` takes pieces `⌊i·P/n⌋` to `⌊(i+1)·P/n⌋` of the `P`. Samples may
 * come in any order, repeat, or be empty (the end of the table); with fewer
 * pieces than shards some shards are empty. Pure: the samples are the
 * driver's answer.
 * @internal
 */
export function cutShards(
  schema: EntitySchema,
  table: string,
  sources: readonly ScanSource[],
  samples: readonly RowKeySample[],
  count: number,
): ScanShard[] {
  const keys = distinctSorted(samples.map((s) => s.key).filter((k) => k.length > 0));
  const pieces = sources.flatMap((source) => piecesOf(source, keys));
  const scope = shardScope(table, sources);
  const shards: ScanShard[] = [];
  for (let index = 0; index < count; index++) {
    const from = Math.floor((index * pieces.length) / count);
    const to = Math.floor(((index + 1) * pieces.length) / count);
    const ranges: ShardRange[] = [];
    for (const piece of pieces.slice(from, to)) {
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last.source === piece.source) {
        ranges[ranges.length - 1] = { ...last, end: keyText(piece.end) };
      } else {
        ranges.push({ source: piece.source, start: keyText(piece.start), end: keyText(piece.end) });
      }
    }
    shards.push(seal({ kind: SHARD_KIND, v: SHARD_VERSION, entity: schema.name, table, scope, index, count, ranges }));
  }
  return shards;
}

/** The pieces of one source's range, cut at every key strictly inside it. */
function piecesOf(source: ScanSource, keys: readonly Buffer[]): Piece[] {
  const { start, end } = source.range;
  const cuts = keys.filter(
    (k) => Buffer.compare(k, start.key) > 0 && (end === undefined || Buffer.compare(k, end.key) < 0),
  );
  const bounds = [undefined, ...cuts, undefined];
  const pieces: Piece[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) pieces.push({ source: source.id, start: bounds[i], end: bounds[i + 1] });
  return pieces;
}

function distinctSorted(keys: readonly Buffer[]): Buffer[] {
  const sorted = [...keys].sort(Buffer.compare);
  return sorted.filter((k, i) => i === 0 || !k.equals(sorted[i - 1] as Buffer));
}

function keyText(key: Buffer | undefined): string | null {
  return key === undefined ? null : key.toString('base64');
}

type Unsealed = Omit<ScanShard, 'check'>;

function seal(shard: Unsealed): ScanShard {
  return Object.freeze({
    ...shard,
    ranges: Object.freeze(shard.ranges.map((r) => Object.freeze(r))),
    check: checksum(shard),
  });
}

/** A shard's checksum over its fields (what `readShard` checks an edited shard against). @internal */
export function checksum(shard: Omit<ScanShard, 'check'>): string {
  const { kind, v, entity, table, scope, index, count, ranges } = shard;
  const canonical = JSON.stringify([
    kind,
    v,
    entity,
    table,
    scope,
    index,
    count,
    ranges.map((r) => [r.source, r.start, r.end]),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * The error for a shard that cannot be read with this query.
 * @internal
 */
function invalidShard(schema: EntitySchema, reason: string): ValidationError {
  return new ValidationError(
    `${schema.name}: invalid shard: ${reason}. Fix: pass one of the objects mapper.planShards() returned, unchanged, with the same where it was planned with (plan the shards again after changing the query)`,
    { entity: schema.name, argument: 'shard', reason },
  );
}

/**
 * Narrows a query's key ranges to one shard's pieces, after checking the
 * shard object: its shape, version and checksum, its entity, table and
 * scope (the same `where`), and that every piece lies inside its range, in
 * key order. Ranges the shard does not touch are dropped, and the rest are
 * numbered again from 0 (the shard's scan is a query of its own: its cursors
 * name its ranges). Anything else is a `ValidationError`: a shard can never
 * widen a read.
 * @internal
 */
export function applyShard(
  schema: EntitySchema,
  table: string,
  sources: readonly ScanSource[],
  shard: unknown,
): ScanSource[] {
  const checked = checkShape(schema, shard);
  if (checked.check !== checksum(checked))
    throw invalidShard(schema, 'it was modified or corrupted (checksum mismatch)');
  if (checked.entity !== schema.name || checked.table !== table)
    throw invalidShard(
      schema,
      `it was planned for ${checked.entity} on table ${JSON.stringify(checked.table)}, not ${schema.name} on ${JSON.stringify(table)}`,
    );
  if (checked.scope !== shardScope(table, sources))
    throw invalidShard(schema, 'it was planned for another where (or the entity’s key layout changed since)');
  const narrowed: ScanSource[] = [];
  let previous = -1;
  for (const part of checked.ranges) {
    const source = sources.find((s) => s.id === part.source);
    if (source === undefined || part.source <= previous)
      throw invalidShard(schema, `its range of source ${part.source} is not one of the query's ranges, in order`);
    previous = part.source;
    narrowed.push({ ...source, range: narrowRange(schema, source.range, part) });
  }
  return narrowed.map((s, id) => ({ ...s, id }));
}

/** A source's range narrowed to a piece whose bounds must lie strictly inside it. */
function narrowRange(schema: EntitySchema, range: KeyRange, part: ShardRange): KeyRange {
  const start = part.start === null ? undefined : decodeKey(schema, part.start);
  const end = part.end === null ? undefined : decodeKey(schema, part.end);
  const inside = (key: Buffer): boolean =>
    Buffer.compare(key, range.start.key) > 0 && (range.end === undefined || Buffer.compare(key, range.end.key) < 0);
  if ((start !== undefined && !inside(start)) || (end !== undefined && !inside(end)))
    throw invalidShard(schema, `a range of source ${part.source} reaches outside the query's key range`);
  if (start !== undefined && end !== undefined && Buffer.compare(start, end) >= 0)
    throw invalidShard(schema, `a range of source ${part.source} ends before it starts`);
  return {
    start: start === undefined ? range.start : { key: start, inclusive: true },
    end: end === undefined ? range.end : { key: end, inclusive: false },
  };
}

function decodeKey(schema: EntitySchema, text: string): Buffer {
  if (!BASE64.test(text)) throw invalidShard(schema, 'a key is not base64');
  const key = Buffer.from(text, 'base64');
  if (key.toString('base64') !== text || key.length === 0) throw invalidShard(schema, 'a key is not canonical base64');
  return key;
}

const SHARD_FIELDS = ['kind', 'v', 'entity', 'table', 'scope', 'index', 'count', 'ranges', 'check'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The shard's shape: exactly its fields, each of its type. */
function checkShape(schema: EntitySchema, value: unknown): ScanShard {
  if (!isRecord(value)) throw invalidShard(schema, `expected a shard object, got ${preview(value)}`);
  const keys = Object.keys(value);
  if (value['kind'] !== SHARD_KIND)
    throw invalidShard(schema, 'it is not a shard (its kind is not bigtable-mapper.shard)');
  if (value['v'] !== SHARD_VERSION)
    throw invalidShard(
      schema,
      `it has format version ${preview(value['v'])}, and this version of bigtable-mapper reads version ${SHARD_VERSION}`,
    );
  if (keys.length !== SHARD_FIELDS.length || !keys.every((k) => SHARD_FIELDS.includes(k)))
    throw invalidShard(schema, `it must have exactly the fields ${SHARD_FIELDS.join(', ')}`);
  const { entity, table, scope, index, count, ranges, check } = value;
  if (typeof entity !== 'string' || typeof table !== 'string' || typeof scope !== 'string' || typeof check !== 'string')
    throw invalidShard(schema, 'entity, table, scope and check must be strings');
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SHARDS)
    throw invalidShard(schema, `its count must be an integer from 1 to ${MAX_SHARDS}`);
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
    throw invalidShard(schema, 'its index must be an integer from 0 to count - 1');
  if (!Array.isArray(ranges)) throw invalidShard(schema, 'its ranges must be an array');
  const parts = ranges.map((part: unknown): ShardRange => {
    if (
      !isRecord(part) ||
      Object.keys(part).length !== 3 ||
      typeof part['source'] !== 'number' ||
      !Number.isInteger(part['source']) ||
      part['source'] < 0 ||
      (part['start'] !== null && typeof part['start'] !== 'string') ||
      (part['end'] !== null && typeof part['end'] !== 'string')
    )
      throw invalidShard(schema, 'each range must be { source: integer, start: base64 | null, end: base64 | null }');
    return { source: part['source'], start: part['start'], end: part['end'] };
  });
  return { kind: SHARD_KIND, v: SHARD_VERSION, entity, table, scope, index, count, ranges: parts, check };
}
