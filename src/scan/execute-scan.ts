import { decodeRowKey, isSaltedKey } from '../key/physical-key.js';
import { layoutOfKey } from '../key/previous-layout.js';
import { compareKeyValues } from '../key/key-ranges.js';
import { compareByteRanges, compareBytesFrom } from '../util/compare-bytes.js';
import type { BigtableDriver, CallOptions, ReadRowsRequest, RowData, RowKeySample } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { batchStream, mapBatches, takeItems, type BatchStream } from '../stream/batch-stream.js';
import { concatReadAhead } from '../stream/concat-read-ahead.js';
import { pieceTarget, splitAtSamples, SUB_RANGE_READ_AHEAD } from './parallel-scan.js';
import { mergeOrdered, mergeUnordered, type OpenStream } from '../stream/merge.js';
import type { KeyCheck, ScanPlan, ScanSource } from './scan-plan.js';
import { RowPacker, type PackedRow } from '../read/packed-row.js';
import { isMarkOnly } from '../metadata/resalt-mark.js';
import type { ScanMeasures } from '../model/telemetry.js';

/** A row read by a scan, with where it came from. @internal */
export interface ScannedRow {
  readonly row: RowData;
  /** `ScanSource.id` of the range it was read from. */
  readonly source: number;
  /** Bytes of the salt segment at the start of `row.key`; the rest is the logical key, the merge order. */
  readonly segmentBytes: number;
}

/** Per-source progress, for cursors of unordered scans. @internal */
export interface SourceProgress {
  /** Key of the last row this source yielded. */
  lastYielded: Buffer | undefined;
  /** The source was read to its end. */
  done: boolean;
}

/**
 * Runs a scan plan: one pull-based read per source, merged by logical key
 * (k-way; for `key-desc` every source is read reversed and the merge takes the
 * largest key first) or unordered with bounded concurrency, limited globally;
 * a single source is read directly. Rows come in batches (whatever the reads had
 * ready), so the plumbing costs one promise per batch, not per row; iterate
 * them with `eachItem`. Cancelling the stream cancels every read;
 * `call` bounds and cancels every read (passed to `driver.readRows`). With a
 * `plan.keyCheck`, rows outside the string range are dropped before the
 * merge and the limit is counted on the client only.
 * @internal
 */
export function executeScan(
  driver: BigtableDriver,
  schema: EntitySchema,
  plan: ScanPlan,
  progress?: Map<number, SourceProgress>,
  call?: CallOptions,
): BatchStream<ScannedRow> {
  const measures = call?.telemetry?.scan;
  measures?.started(plan.table, plan.sources.length);
  if (plan.parallelism > 1 && plan.sources.length > 0) {
    return afterSamples(driver, plan, call, (samples) =>
      mergeSources(plan, parallelSources(driver, schema, plan, samples, progress, call), measures),
    );
  }
  const sources: OpenStream<ScannedRow>[] = plan.sources.map(
    (source) => () => openSource(driver, schema, plan, source, progress, call),
  );
  return mergeSources(plan, sources, measures);
}

/**
 * The streams of a parallel scan's ranges, cut at the table's samples
 * ({@link splitAtSamples}). In key order, and for a page of an unordered scan
 * (whose cursor records one position per range), each range reads its pieces
 * in order, a window of them at once ({@link concatReadAhead}); otherwise
 * every piece is a stream of its own, and the unordered merge runs
 * `parallelism` of them at once.
 */
function parallelSources(
  driver: BigtableDriver,
  schema: EntitySchema,
  plan: ScanPlan,
  samples: readonly RowKeySample[],
  progress: Map<number, SourceProgress> | undefined,
  call: CallOptions | undefined,
): OpenStream<ScannedRow>[] {
  const inOrder = plan.order !== 'none' || progress !== undefined;
  const window = inOrder ? Math.max(1, Math.ceil(plan.parallelism / plan.sources.length)) : plan.parallelism;
  const split = splitAtSamples(plan.sources, samples, pieceTarget(inOrder, window));
  const open = (piece: ScanSource) => () => openSource(driver, schema, plan, piece, undefined, call);
  if (!inOrder) return split.flat().map(open);
  return split.map((pieces) => () => {
    const state: SourceProgress = { lastYielded: undefined, done: false };
    const [first] = pieces;
    if (first !== undefined) progress?.set(first.id, state);
    const ordered = plan.order === 'key-desc' ? [...pieces].reverse() : pieces;
    const rows = concatReadAhead(ordered.map(open), { window, ...SUB_RANGE_READ_AHEAD, sizeOf: scannedSize });
    return mapBatches(
      rows,
      (scanned) => {
        state.lastYielded = scanned.row.key;
        return scanned;
      },
      () => {
        state.done = true;
      },
    );
  });
}

/** About the bytes a row holds: its key and cell values. */
function scannedSize(scanned: ScannedRow): number {
  let size = scanned.row.key.length;
  for (const columns of Object.values(scanned.row.cells))
    for (const cells of Object.values(columns)) for (const cell of cells) size += cell.value.length;
  return size;
}

/**
 * A stream that asks for the table's sample row keys on its first pull, then
 * reads what `open` makes of them. Cancelled while the samples are on their
 * way, it opens nothing.
 */
function afterSamples(
  driver: BigtableDriver,
  plan: ScanPlan,
  call: CallOptions | undefined,
  open: (samples: readonly RowKeySample[]) => BatchStream<ScannedRow>,
): BatchStream<ScannedRow> {
  let inner: BatchStream<ScannedRow> | undefined;
  let stopped = false;
  return batchStream({
    pull: async () => {
      if (inner === undefined) {
        const samples = await driver.sampleRowKeys({ table: plan.table }, call);
        if (stopped) return undefined;
        inner = open(samples);
      }
      const result = await inner.next();
      return result.done === true ? undefined : result.value;
    },
    stop: () => {
      stopped = true;
      inner?.cancel();
    },
  });
}

/** The sources of a plan merged as its order says, limited to its limit. */
function mergeSources(
  plan: ScanPlan,
  sources: readonly OpenStream<ScannedRow>[],
  measures: ScanMeasures | undefined,
): BatchStream<ScannedRow> {
  const [only] = sources;
  if (sources.length === 1 && only !== undefined) return takeItems(only(), plan.limit);
  if (plan.order === 'none')
    return mergeUnordered(sources, {
      concurrency: plan.parallelism > 1 ? plan.parallelism : plan.concurrency,
      limit: plan.limit,
    });
  const resalting = plan.sources.some((s) => s.layout === 'previous');
  const packer = new RowPacker();
  const packedSources = sources.map(
    (open) => () => mapBatches(open(), (scanned): WaitingRow => ({ ...scanned, row: packer.pack(scanned.row) })),
  );
  const byKey = plan.order === 'key-desc' ? comparePackedDescending : comparePacked;
  // While re-salting, a row not yet moved (or copied but not yet deleted) is in both layouts:
  // the merge puts the current layout's copy first, and the other is dropped.
  const previous = new Set(plan.sources.filter((s) => s.layout === 'previous').map((s) => s.id));
  const compare = resalting
    ? (a: WaitingRow, b: WaitingRow) => byKey(a, b) || Number(previous.has(a.source)) - Number(previous.has(b.source))
    : byKey;
  const merged = mapBatches(
    mergeOrdered(packedSources, compare, {
      limit: resalting ? undefined : plan.limit,
      readAhead: MERGE_READ_AHEAD,
      ...(measures === undefined ? {} : { observer: measures }),
    }),
    (waiting): ScannedRow => ({
      row: packer.unpack(waiting.row),
      source: waiting.source,
      segmentBytes: waiting.segmentBytes,
    }),
  );
  return resalting ? takeItems(dropSecondCopies(merged), plan.limit) : merged;
}

/**
 * Drops a row whose logical key equals the one before it (the merge delivers the current layout's first),
 * then the tombstones: a new row holding only the move mark hides the old row and is not an entity.
 */
function dropSecondCopies(rows: BatchStream<ScannedRow>): BatchStream<ScannedRow> {
  let last: ScannedRow | undefined;
  return mapBatches(rows, (scanned) => {
    if (last !== undefined && compareLogical(last, scanned) === 0) return undefined;
    last = scanned;
    return isMarkOnly(scanned.row) ? undefined : scanned;
  });
}

/**
 * How far each bucket of an ordered merge is read ahead of the merge: rows
 * are packed as soon as they arrive, instead of waiting as trees in the
 * driver's read buffer (the same bounds as that buffer).
 */
const MERGE_READ_AHEAD = {
  items: 1024,
  size: 1024 * 1024,
  sizeOf: (waiting: WaitingRow): number => waiting.row.size,
};

/** A scanned row while it waits in an ordered merge for the other buckets: packed (see {@link RowPacker}). */
interface WaitingRow {
  readonly row: PackedRow;
  readonly source: number;
  readonly segmentBytes: number;
}

function comparePacked(a: WaitingRow, b: WaitingRow): number {
  const x = a.row;
  const y = b.row;
  return compareByteRanges(
    x.bytes ?? (x.row as RowData).key,
    a.segmentBytes,
    x.keyLength,
    y.bytes ?? (y.row as RowData).key,
    b.segmentBytes,
    y.keyLength,
  );
}

function comparePackedDescending(a: WaitingRow, b: WaitingRow): number {
  return comparePacked(b, a);
}

function openSource(
  driver: BigtableDriver,
  schema: EntitySchema,
  plan: ScanPlan,
  source: ScanSource,
  progress: Map<number, SourceProgress> | undefined,
  call: CallOptions | undefined,
): BatchStream<ScannedRow> {
  // With a forward-only salt both layouts share the key space: an unsalted range
  // also holds salted keys, and a bucket's range can hold old unsalted keys that
  // start like its segment (e.g. '01#…' for a first key part '01'). Each source
  // keeps only its own layout. Rows dropped here (that, or a key check) would
  // count against a server-side limit, so none is sent then.
  const resalting = schema.key.salt?.previous !== undefined;
  const mixedLayouts = resalting || schema.key.salt?.since !== undefined;
  const wantSalted = source.layout === 'salted';
  const wantLayout = source.layout === 'previous' ? 'previous' : 'current';
  const { keyCheck } = plan;
  const limit = mixedLayouts || keyCheck !== undefined ? undefined : plan.limit;
  const request: ReadRowsRequest = { table: plan.table, ranges: [source.range], limit, filter: plan.filter };
  const rows = driver.readRows(plan.order === 'key-desc' ? { ...request, reversed: true } : request, call);
  const state: SourceProgress = { lastYielded: undefined, done: false };
  progress?.set(source.id, state);
  const segmentBytes = source.prefix.length;
  return mapBatches(
    rows,
    (row) => {
      if (resalting) {
        if (layoutOfKey(schema, row.key.toString('utf8')) !== wantLayout) return undefined;
      } else if (isMarkOnly(row))
        return undefined; // a tombstone a finished re-salt left
      else if (mixedLayouts && isSaltedKey(schema, row.key.toString('utf8')) !== wantSalted) return undefined;
      if (keyCheck !== undefined && !insideKeyCheck(keyCheck, decodeRowKey(schema, row.key)[keyCheck.property]))
        return undefined;
      state.lastYielded = row.key;
      return { row, source: source.id, segmentBytes };
    },
    () => {
      state.done = true;
    },
  );
}

/**
 * Whether a row's key part value lies inside the checked string range.
 * @internal
 * @example
 * ```ts
 * insideKeyCheck({ property: 'name', gte: 'a', lte: 'a' }, 'a!'); // false
 * ```
 */
function insideKeyCheck(check: KeyCheck, value: unknown): boolean {
  if (check.gte !== undefined && compareKeyValues(value, check.gte) < 0) return false;
  if (check.gt !== undefined && compareKeyValues(value, check.gt) <= 0) return false;
  if (check.lte !== undefined && compareKeyValues(value, check.lte) > 0) return false;
  if (check.lt !== undefined && compareKeyValues(value, check.lt) >= 0) return false;
  return true;
}

/**
 * Orders scanned rows by logical key (after each row's salt segment), in
 * place ({@link compareBytesFrom}: no subarray per row, short keys compared in
 * a JS loop). Same sign as `Buffer.compare` of the two logical keys.
 * @internal
 */
export function compareLogical(a: ScannedRow, b: ScannedRow): number {
  return compareBytesFrom(a.row.key, a.segmentBytes, b.row.key, b.segmentBytes);
}

/**
 * The logical key of a scanned row (its key without the salt segment).
 * @internal
 */
export function logicalKey(scanned: ScannedRow): Buffer {
  return scanned.row.key.subarray(scanned.segmentBytes);
}
