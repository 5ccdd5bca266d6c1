import { ValidationError } from '../errors/errors.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { decodeRowKey, encodeRowKey } from '../key/physical-key.js';
import { layoutOfKey, previousLayout } from '../key/previous-layout.js';
import { scanSaltSegments } from '../key/physical-key.js';
import { prefixEnd } from '../key/key-ranges.js';
import type { BigtableDriver, CallOptions, KeyRange, RowData } from '../model/driver.js';
import type { CellMutation } from '../model/mutation.js';
import type { RowFilter } from '../model/row-filter.js';
import type { EntitySchema } from '../metadata/entity-schema.js';

/** Rows copied, then deleted, per step; also the checkpoint interval. */
const DEFAULT_BATCH_SIZE = 500;
const MAX_BATCH_SIZE = 10_000;
/** Conditional copies in flight at once. */
const COPY_CONCURRENCY = 16;

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
 * Counts of one range of the previous layout.
 * @example
 * ```ts
 * const b: ResaltBucketCount = { segment: '02#', seen: 250, copied: 248, present: 2, deleted: 250 };
 * ```
 */
export interface ResaltBucketCount {
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
}

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
  /** Per old range. */
  readonly buckets: readonly ResaltBucketCount[];
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
}

/** @internal */
export const RESALT_OPTION_NAMES = ['batchSize', 'resumeFrom', 'onProgress'] as const;

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
 * delete is never undone), then reports a checkpoint after each batch.
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
  const checkpoint: Record<string, string> = { ...checkResume(schema, options.resumeFrom) };
  const ranges = oldRanges(previous as EntitySchema);
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
    for await (const row of driver.readRows({ table: schema.table, ranges: [{ ...range, start }] }, call)) {
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

/**
 * Moves one row of the previous layout to its new key: copies its cells where no new row is (or the
 * columns a partial new row lacks; a column written meanwhile is never overwritten), then deletes the old
 * row only if it is still there. When it is gone, a delete or another move came after the row was read, so
 * what the copy wrote is taken back: each copied column whose newest cell is still the copied one. The
 * write paths (`update`, `replace`, `increment`, `saveIf`) move a row this way before they change it.
 * @internal
 */
export async function moveRow(
  driver: BigtableDriver,
  schema: EntitySchema,
  row: RowData,
  call: CallOptions,
): Promise<{ existed: boolean; removed: boolean }> {
  const rowKey = encodeRowKey(schema, decodeRowKey(schema, row.key)).key;
  const cells = cellsOf(row);
  const existed = await driver.checkAndMutate(
    { table: schema.table, rowKey, predicate: undefined, onMatch: [], onNoMatch: cells },
    call,
  );
  const copied = existed ? await copyMissingColumns(driver, schema.table, rowKey, row, call) : cells;
  const removed = await driver.checkAndMutate(
    { table: schema.table, rowKey: row.key, predicate: undefined, onMatch: [{ kind: 'deleteFromRow' }], onNoMatch: [] },
    call,
  );
  if (!removed) await takeBack(driver, schema.table, rowKey, copied, call);
  return { existed, removed };
}

/**
 * A new-layout row exists already, written after the re-salt was declared: it may be partial (an `update`
 * or `increment` of a row not moved yet). Each column it lacks gets the old row's cells, each with its own
 * CheckAndMutate, so a column written meanwhile is never overwritten. Resolves to the cells written.
 */
async function copyMissingColumns(
  driver: BigtableDriver,
  table: string,
  rowKey: Buffer,
  row: RowData,
  call: CallOptions,
): Promise<CellMutation[]> {
  const written: CellMutation[] = [];
  for (const [family, columns] of Object.entries(row.cells))
    for (const [qualifier, versions] of Object.entries(columns)) {
      const predicate: RowFilter = {
        kind: 'chain',
        filters: [{ kind: 'family', name: family }, { kind: 'qualifiers', names: [qualifier] }, { kind: 'stripValue' }],
      };
      const onNoMatch = versions.map((v): CellMutation => ({
        kind: 'setCell',
        family,
        qualifier,
        timestampMicros: v.timestampMicros,
        value: v.value,
      }));
      const present = await driver.checkAndMutate({ table, rowKey, predicate, onMatch: [], onNoMatch }, call);
      if (!present) written.push(...onNoMatch);
    }
  return written;
}

/** Deletes each column the copy wrote whose newest cell is still the newest copied one (a later write stays). */
async function takeBack(
  driver: BigtableDriver,
  table: string,
  rowKey: Buffer,
  copied: readonly CellMutation[],
  call: CallOptions,
): Promise<void> {
  const newest = new Map<string, { family: string; qualifier: string; micros: number }>();
  for (const cell of copied) {
    if (cell.kind !== 'setCell') continue;
    const id = `${cell.family}\u0000${cell.qualifier}`;
    const seen = newest.get(id);
    if (seen === undefined || cell.timestampMicros > seen.micros)
      newest.set(id, { family: cell.family, qualifier: cell.qualifier, micros: cell.timestampMicros });
  }
  for (const { family, qualifier, micros } of newest.values()) {
    const predicate: RowFilter = {
      kind: 'chain',
      filters: [
        { kind: 'family', name: family },
        { kind: 'qualifiers', names: [qualifier] },
        { kind: 'cellsPerColumn', limit: 1 },
        { kind: 'timestampRange', startMicros: micros, endMicros: micros + 1000 },
        { kind: 'stripValue' },
      ],
    };
    await driver.checkAndMutate(
      { table, rowKey, predicate, onMatch: [{ kind: 'deleteFromColumn', family, qualifier }], onNoMatch: [] },
      call,
    );
  }
}

function cellsOf(row: RowData): CellMutation[] {
  const cells: CellMutation[] = [];
  for (const [family, columns] of Object.entries(row.cells))
    for (const [qualifier, versions] of Object.entries(columns))
      for (const v of versions)
        cells.push({ kind: 'setCell', family, qualifier, timestampMicros: v.timestampMicros, value: v.value });
  return cells;
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
    for await (const row of driver.readRows({ table: schema.table, ranges: [range], filter }, call))
      if (layoutOfKey(schema, row.key.toString('utf8')) === 'previous') remaining++;
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
