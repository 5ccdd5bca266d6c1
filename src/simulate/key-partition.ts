import type { KeySchema } from '../key/logical-key.js';
import { parseSaltSegment } from '../key/salt.js';

/**
 * One row of a heatmap's key axis: the physical keys from `start` (inclusive)
 * to the next range's start. JSON-safe.
 *
 * @example
 * ```ts
 * const range: KeyRangeSpec = { label: '03#user-0042', start: '03#user-0042', bucket: 3 };
 * ```
 */
export interface KeyRangeSpec {
  /** Text shown on the key axis: the key prefix at the range's start. */
  readonly label: string;
  /** First physical key of the range, as text (`''` is the start of the table). */
  readonly start: string;
  /** The salt bucket the range lies in, for salted keys. */
  readonly bucket?: number;
}

/**
 * Key ranges and a lookup from a physical key to the range that holds it.
 * @internal
 */
export interface KeyPartition {
  readonly ranges: readonly KeyRangeSpec[];
  /** Index of the range holding `key`: the last range starting at or before it (keys before the first range count in it). */
  indexOf(key: Buffer): number;
}

/** Longest label shown on the key axis. */
const MAX_LABEL = 48;

/**
 * The prefix a key is grouped by: its salt segment and its key components up
 * to and including the first property (the entity the row belongs to, e.g.
 * `03#user-0042` of `03#user-0042#2026-…`). Without a schema, or when the key
 * does not follow the layout, the whole key.
 * @internal
 */
export function keyPrefix(schema: KeySchema | undefined, keyText: string): { prefix: string; bucket?: number } {
  if (schema === undefined) return { prefix: keyText };
  const { salt, components, separator } = schema.key;
  const parsed = salt === undefined ? undefined : parseSaltSegment(salt, keyText);
  const rest = parsed === undefined ? keyText : parsed.rest;
  const segment = keyText.slice(0, keyText.length - rest.length);
  const count = components.findIndex((c) => c.kind === 'property') + 1;
  const parts = rest.split(separator);
  const prefix = segment + parts.slice(0, Math.max(1, count)).join(separator);
  return parsed === undefined ? { prefix } : { prefix, bucket: parsed.bucket };
}

/**
 * Splits the key space seen in `keys` into at most `maxRanges` ranges holding
 * about the same number of distinct key prefixes (see {@link keyPrefix}), so
 * every entity's rows stay in one range and a popular entity shows as one hot
 * row of the heatmap rather than being spread over many. With salted keys
 * every salt bucket starts a range of its own (while there are fewer buckets
 * than ranges), so a range never straddles two buckets.
 * @internal
 */
export function partitionKeys(keys: Iterable<string>, schema: KeySchema | undefined, maxRanges: number): KeyPartition {
  const byPrefix = new Map<string, number | undefined>();
  for (const key of keys) {
    const { prefix, bucket } = keyPrefix(schema, key);
    if (!byPrefix.has(prefix)) byPrefix.set(prefix, bucket);
  }
  const sorted = [...byPrefix.keys()]
    .map((prefix) => ({ prefix, bytes: Buffer.from(prefix, 'utf8'), bucket: byPrefix.get(prefix) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  if (sorted.length === 0) return partition([{ label: '(all keys)', start: '' }], [Buffer.alloc(0)]);

  const bucketStarts: number[] = [];
  sorted.forEach((entry, i) => {
    if (entry.bucket !== undefined && (i === 0 || sorted[i - 1]?.bucket !== entry.bucket)) bucketStarts.push(i);
  });
  const forced = bucketStarts.length < maxRanges ? bucketStarts : [];
  const quota = Math.max(1, maxRanges - forced.length);
  const chosen = new Set<number>([0, ...forced]);
  for (let i = 0; i < quota && chosen.size < maxRanges; i++) chosen.add(Math.floor((i * sorted.length) / quota));
  const indices = [...chosen].sort((a, b) => a - b);

  const ranges = indices.map((i) => {
    const { prefix, bucket } = sorted[i] as (typeof sorted)[number];
    const label = prefix.length > MAX_LABEL ? `${prefix.slice(0, MAX_LABEL - 1)}…` : prefix;
    return bucket === undefined ? { label, start: prefix } : { label, start: prefix, bucket };
  });
  return partition(
    ranges,
    indices.map((i) => (sorted[i] as (typeof sorted)[number]).bytes),
  );
}

function partition(ranges: KeyRangeSpec[], starts: Buffer[]): KeyPartition {
  return {
    ranges,
    indexOf(key) {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (Buffer.compare(starts[mid] as Buffer, key) <= 0) low = mid;
        else high = mid - 1;
      }
      return low;
    },
  };
}
