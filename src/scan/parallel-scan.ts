import type { KeyRange, RowKeySample } from '../model/driver.js';
import type { ScanSource } from './scan-plan.js';

/** Default `parallelism`: one read per range of the plan. @internal */
export const DEFAULT_PARALLELISM = 1;

/** Most sub-range reads one scan may run at once. @internal */
export const MAX_PARALLELISM = 64;

/**
 * How far each sub-range of an ordered parallel scan is read ahead of the
 * reader: rows, and bytes of keys and values. An ordered scan also cuts its
 * ranges into pieces of about this size, so a piece read ahead is read whole.
 * @internal
 */
export const SUB_RANGE_READ_AHEAD = { items: 8_192, size: 2 * 1024 * 1024 } as const;

/** Pieces per read of an unordered parallel scan: a little more than one each, so a slow piece does not hold the end back. */
const PIECES_PER_READ = 4;

/**
 * Cuts each range of a plan into contiguous sub-ranges at the table's sample
 * row keys, for a scan with `parallelism` reads at once. Each range's bytes are
 * estimated from the samples' offsets; its cuts are the sample keys strictly
 * inside it, chosen so that each piece holds about `targetBytes(rangeBytes)`.
 * The pieces of a range keep its id, its prefix and layout, and cover it
 * exactly: every row of the range is in exactly one piece. A range without a
 * sample inside it stays whole.
 * @internal
 */
export function splitAtSamples(
  sources: readonly ScanSource[],
  samples: readonly RowKeySample[],
  targetBytes: (rangeBytes: number) => number,
): ScanSource[][] {
  const sorted = sortedSamples(samples);
  return sources.map((source) => {
    const { start, end } = source.range;
    const before = offsetAt(sorted, start.key);
    const inside = sorted.filter(
      (s) => Buffer.compare(s.key, start.key) > 0 && (end === undefined || Buffer.compare(s.key, end.key) < 0),
    );
    if (inside.length === 0) return [source];
    const after = end === undefined ? (sorted[sorted.length - 1]?.offsetBytes ?? 0) : offsetAt(sorted, end.key);
    const target = Math.max(1, targetBytes(Math.max(0, after - before)));
    const cuts: Buffer[] = [];
    let last = before;
    for (const sample of inside) {
      if (sample.offsetBytes - last < target) continue;
      cuts.push(sample.key);
      last = sample.offsetBytes;
    }
    const bounds = [undefined, ...cuts, undefined];
    const pieces: ScanSource[] = [];
    for (let i = 0; i + 1 < bounds.length; i++)
      pieces.push({ ...source, range: pieceRange(source.range, bounds[i], bounds[i + 1]) });
    return pieces;
  });
}

/**
 * The size each piece of a range aims at: an ordered scan's pieces are read
 * ahead whole, so at most {@link SUB_RANGE_READ_AHEAD} bytes, and fewer when
 * the range is small enough to give each of `window` reads one; an unordered
 * scan's a few per read.
 * @internal
 */
export function pieceTarget(ordered: boolean, window: number): (rangeBytes: number) => number {
  return ordered
    ? (bytes) => Math.min(SUB_RANGE_READ_AHEAD.size, Math.ceil(bytes / window))
    : (bytes) => Math.ceil(bytes / (window * PIECES_PER_READ));
}

function pieceRange(range: KeyRange, from: Buffer | undefined, to: Buffer | undefined): KeyRange {
  return {
    start: from === undefined ? range.start : { key: from, inclusive: true },
    end: to === undefined ? range.end : { key: to, inclusive: false },
  };
}

/** Samples by key, the end-of-table key dropped, each key once, offsets never decreasing. */
function sortedSamples(samples: readonly RowKeySample[]): RowKeySample[] {
  const byKey = samples.filter((s) => s.key.length > 0).sort((a, b) => Buffer.compare(a.key, b.key));
  const out: RowKeySample[] = [];
  let offset = 0;
  for (const sample of byKey) {
    offset = Math.max(offset, Number.isFinite(sample.offsetBytes) ? sample.offsetBytes : 0);
    const last = out[out.length - 1];
    if (last !== undefined && last.key.equals(sample.key)) continue;
    out.push({ key: sample.key, offsetBytes: offset });
  }
  const end = samples.find((s) => s.key.length === 0);
  if (end !== undefined) out.push({ key: Buffer.alloc(0), offsetBytes: Math.max(offset, end.offsetBytes) });
  return out;
}

/** About how many bytes sort before `key`: the offset of the last sample at or before it. */
function offsetAt(sorted: readonly RowKeySample[], key: Buffer): number {
  let offset = 0;
  for (const sample of sorted) {
    if (sample.key.length === 0 || Buffer.compare(sample.key, key) > 0) break;
    offset = sample.offsetBytes;
  }
  return offset;
}
