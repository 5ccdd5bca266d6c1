import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { layoutOfKey, previousLayout } from '../key/previous-layout.js';
import { scanSaltSegments } from '../key/physical-key.js';
import { prefixEnd } from '../key/key-ranges.js';
import type { BigtableDriver, CallOptions, KeyRange, RowData } from '../model/driver.js';
import type { RowFilter } from '../model/row-filter.js';
import { RESALT_FAMILY } from '../metadata/resalt-mark.js';
import { COPY_CONCURRENCY, moveRow } from '../write/move-row.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { shardPart } from '../util/shard-part.js';

/** Rows copied, then deleted, per step; also the checkpoint interval. */
const DEFAULT_BATCH_SIZE = 500;
const MAX_BATCH_SIZE = 10_000;
const MAX_SHARDS = 10_000;

/**
 * Where a re-salt stands: per range of the previous layout (its salt segment, `''` when it was unsalted),
 * the base64 of the last old row key fully moved (copied, then deleted). Pass it back as `resumeFrom`.
 * @example
 * ```ts
 * const checkpoint: ResaltCheckpoint = { '00#': 'MDAjdTE3IzAwMDAwMDAwMDA0Mg' };
 * ```
 */
export type ResaltCheckpoint = Readonly<Record<string, string>>;

/**
 * Progress of `mapper.resalt()`, after each batch: the counts so far and the checkpoint to resume from.
 * @example
 * ```ts
 * onProgress: (p) => console.log(p.seen, JSON.stringify(p.checkpoint))
 * ```
 */
export interface ResaltProgress {
  /** Old rows read so far (this run). */
  readonly seen: number;
  /** Ranges of the previous layout (its buckets; 1 when it was unsalted). */
  readonly ranges: number;
  /** Ranges read to their end. */
  readonly rangesDone: number;
  /** Per old range: its counts. */
  readonly buckets: readonly {
    /** The old salt segment (`''` for the unsalted layout). */
    readonly segment: string;
    /** Old-layout rows read. */
    readonly seen: number;
    /** Rows written to the new layout by the copy. */
    readonly copied: number;
    /** Rows whose new-layout row already existed (a concurrent write, or an earlier run): left as they were. */
    readonly present: number;
    /** Old-layout rows this run deleted after their move (not those a concurrent delete or move removed first). */
    readonly deleted: number;
  }[];
  /** Resume point: pass it as `resumeFrom` after a crash or an abort. */
  readonly checkpoint: ResaltCheckpoint;
}

/**
 * What `mapper.resalt()` did: per old range, rows seen, copied, already present and deleted, and
 * `remaining`, the old-layout rows a final scan still found (0 when the move is complete).
 * @example
 * ```ts
 * const { remaining } = await mapper.resalt(Event); // 0: remove `previous` from @Salt
 * ```
 */
export interface ResaltResult extends ResaltProgress {
  /** Old-layout rows left after the move (verified by a final scan of the previous layout). */
  readonly remaining: number;
}

/**
 * Options of `mapper.resalt()` besides the operation's `timeoutMs` and `signal`.
 * @example
 * ```ts
 * const options: ResaltOptions = { batchSize: 1000, resumeFrom: saved, onProgress: (p) => save(p.checkpoint) };
 * ```
 */
export interface ResaltOptions {
  /** Rows per copy-then-delete step (1–10,000). Default 500. */
  batchSize?: number;
  /** A checkpoint from an earlier run's `onProgress`: ranges resume after its keys. */
  resumeFrom?: ResaltCheckpoint;
  /** Called after each batch with the counts and the checkpoint. */
  onProgress?: (progress: ResaltProgress) => void;
  /**
   * Moves only part `index` of `count` (0 ≤ index < count ≤ 10,000): the previous layout's ranges (its
   * buckets) cut into `count` contiguous groups, so `count` runs, one per part, move every range once and
   * can run at the same time (concurrent movers are safe, see docs/salting.md). Counts, checkpoint and
   * `remaining` then cover the part's ranges only; the move is complete when every part reports
   * `remaining: 0`. A previous layout that was unsalted is one range: part 0 moves it all. Default: every range.
   */
  shard?: {
    /** This run's part, from 0 to `count - 1`. */
    readonly index: number;
    /** The number of parts, the same in every run. */
    readonly count: number;
  };
}

/** @internal */
export const RESALT_OPTION_NAMES = ['batchSize', 'resumeFrom', 'onProgress', 'shard'] as const;

interface Counts {
  segment: string;
  seen: number;
  copied: number;
  present: number;
  deleted: number;
}

/**
 * Moves every row of a re-salted entity's previous layout to its declared one: reads each old range in key
 * order and moves each row ({@link moveRow}: a concurrent write to the new layout always wins, a concurrent
 * delete is never undone), then reports a checkpoint after each batch. The table must hold the mark
 * family (`mapper.sync()` creates it while a previous layout is declared).
 * Re-running, or resuming from a checkpoint, is safe: a copied row is not copied again.
 * @internal
 */
export async function resaltRows(
  driver: BigtableDriver,
  schema: EntitySchema,
  options: ResaltOptions,
  call: CallOptions,
): Promise<ResaltResult> {
  const previous = previousLayout(schema);
  if (previous === undefined) {
    throw new ValidationError(
      `${schema.name}: resalt needs the previous layout declared. Fix: write @Salt({ buckets: ${schema.key.salt?.buckets ?? 8}, previous: { buckets: 4 } }) with the layout the rows were written with (previous: null when unsalted)`,
      { entity: schema.name },
    );
  }
  const batchSize = checkBatchSize(schema, options.batchSize);
  await checkMarkFamily(driver, schema, call);
  const checkpoint: Record<string, string> = { ...checkResume(schema, options.resumeFrom) };
  const shard = checkShard(schema, options.shard);
  const ranges = shardPart(oldRanges(previous as EntitySchema), shard.index, shard.count);
  const counts: Counts[] = ranges.map(({ segment }) => ({ segment, seen: 0, copied: 0, present: 0, deleted: 0 }));
  let rangesDone = 0;
  const progress = (): ResaltProgress => ({
    seen: counts.reduce((n, c) => n + c.seen, 0),
    ranges: ranges.length,
    rangesDone,
    buckets: counts.map((c) => ({ ...c })),
    checkpoint: { ...checkpoint },
  });
  for (const [i, { segment, range }] of ranges.entries()) {
    const count = counts[i] as Counts;
    const start = resumePoint(schema, segment, range, checkpoint[segment]);
    let batch: RowData[] = [];
    const flush = async (): Promise<void> => {
      await moveBatch(driver, schema, batch, count, call);
      checkpoint[segment] = (batch[batch.length - 1] as RowData).key.toString('base64url');
      batch = [];
      options.onProgress?.(progress());
    };
    for await (const rows of driver.readRows({ table: schema.table, ranges: [{ ...range, start }] }, call))
      for (const row of rows) {
        if (layoutOfKey(schema, row.key.toString('utf8')) !== 'previous') continue;
        count.seen++;
        batch.push(row);
        if (batch.length >= batchSize) await flush();
      }
    if (batch.length > 0) await flush();
    rangesDone++;
    options.onProgress?.(progress());
  }
  const remaining = await countOld(driver, schema, ranges, call);
  return { ...progress(), remaining };
}

async function checkMarkFamily(driver: BigtableDriver, schema: EntitySchema, call: CallOptions): Promise<void> {
  const families = await driver.getFamilies({ table: schema.table }, call);
  if (families === undefined || families.some((f) => f.name === RESALT_FAMILY)) return;
  throw new ValidationError(
    `${schema.name}: table "${schema.table}" has no "${RESALT_FAMILY}" family, where writes mark the rows they touch while re-salting. Fix: run mapper.sync() (it creates the family while @Salt declares previous), then deploy the new layout, then resalt`,
    { entity: schema.name, table: schema.table },
  );
}

function oldRanges(previous: EntitySchema): { segment: string; range: KeyRange }[] {
  const all: KeyRange = { start: { key: Buffer.alloc(0), inclusive: true }, end: undefined };
  if (previous.key.salt === undefined) return [{ segment: '', range: all }];
  return scanSaltSegments(previous, {}).map(({ segment, prefix }) => {
    const end = prefixEnd(prefix);
    return {
      segment,
      range: {
        start: { key: prefix, inclusive: true },
        end: end === undefined ? undefined : { key: end, inclusive: false },
      },
    };
  });
}

async function moveBatch(
  driver: BigtableDriver,
  schema: EntitySchema,
  rows: readonly RowData[],
  count: Counts,
  call: CallOptions,
): Promise<void> {
  for (let i = 0; i < rows.length; i += COPY_CONCURRENCY) {
    const moves = rows.slice(i, i + COPY_CONCURRENCY).map(async (row) => {
      const { existed, removed } = await moveRow(driver, schema, row, call);
      if (existed) count.present++;
      else count.copied++;
      if (removed) count.deleted++;
    });
    await Promise.all(moves);
  }
}

async function countOld(
  driver: BigtableDriver,
  schema: EntitySchema,
  ranges: readonly { range: KeyRange }[],
  call: CallOptions,
): Promise<number> {
  let remaining = 0;
  const filter: RowFilter = { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] };
  for (const { range } of ranges)
    for await (const rows of driver.readRows({ table: schema.table, ranges: [range], filter }, call))
      for (const row of rows) if (layoutOfKey(schema, row.key.toString('utf8')) === 'previous') remaining++;
  return remaining;
}

/** Where a range resumes: just after its checkpoint key, which must lie inside the range (never skip rows). */
function resumePoint(
  schema: EntitySchema,
  segment: string,
  range: KeyRange,
  resume: string | undefined,
): KeyRange['start'] {
  if (resume === undefined) return range.start;
  const key = Buffer.from(resume, 'base64url');
  const inside =
    Buffer.compare(key, range.start.key) >= 0 && (range.end === undefined || Buffer.compare(key, range.end.key) < 0);
  if (!inside) {
    throw new ValidationError(
      `${schema.name}: resalt resumeFrom gives old bucket ${preview(segment)} a key outside it. Fix: pass the checkpoint this entity's resalt reported, or omit resumeFrom to start over (safe: copied rows are not copied twice)`,
      { entity: schema.name, argument: 'resumeFrom', segment },
    );
  }
  return { key, inclusive: false };
}

function checkShard(schema: EntitySchema, shard: unknown): { index: number; count: number } {
  if (shard === undefined) return { index: 0, count: 1 };
  const { index, count } = (shard ?? {}) as { index?: unknown; count?: unknown };
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
  if (whole(index) && whole(count) && count >= 1 && count <= MAX_SHARDS && index >= 0 && index < count)
    return { index, count };
  throw new ValidationError(
    `${schema.name}: resalt shard must be { index, count } with 0 <= index < count <= ${MAX_SHARDS}, got ${preview(shard)}. Fix: give each run its own index of the same count, or omit shard`,
    { entity: schema.name, argument: 'shard' },
  );
}

function checkBatchSize(schema: EntitySchema, batchSize: unknown): number {
  if (batchSize === undefined) return DEFAULT_BATCH_SIZE;
  if (typeof batchSize === 'number' && Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= MAX_BATCH_SIZE)
    return batchSize;
  throw new ValidationError(
    `${schema.name}: resalt batchSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${preview(batchSize)}. Fix: omit it for ${DEFAULT_BATCH_SIZE}`,
    { entity: schema.name, argument: 'batchSize' },
  );
}

function checkResume(schema: EntitySchema, resume: unknown): ResaltCheckpoint {
  if (resume === undefined) return {};
  const valid =
    resume !== null &&
    typeof resume === 'object' &&
    !Array.isArray(resume) &&
    Object.values(resume).every((v) => typeof v === 'string' && /^[A-Za-z0-9_-]*$/.test(v));
  if (!valid) {
    throw new ValidationError(
      `${schema.name}: resalt resumeFrom must be a checkpoint from onProgress, got ${preview(resume)}. Fix: pass progress.checkpoint as it was given, or omit resumeFrom to start over (safe: copied rows are not copied twice)`,
      { entity: schema.name, argument: 'resumeFrom' },
    );
  }
  return resume as ResaltCheckpoint;
}
