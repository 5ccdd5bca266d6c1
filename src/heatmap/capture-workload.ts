import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { KeySchema } from '../key/logical-key.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { Constructor } from '../model/declarations.js';
import type { BigtableDriver } from '../model/driver.js';
import { ForwardingDriver, type DriverCall } from '../model/forwarding-driver.js';
import { partitionKeys } from '../simulate/key-partition.js';
import type { HeatmapData } from './heatmap-data.js';

/**
 * One operation seen by a capturing driver: a write or point read of `key`,
 * or a read of the range from `key` to `end` (`end` undefined: to the end of
 * the table). Keys are kept to their first 256 bytes.
 *
 * @example
 * ```ts
 * const op: CapturedOperation = { atMs: 1767225600000, kind: 'write', table: 'readings', key: Buffer.from('s1#2026-…') };
 * ```
 */
export interface CapturedOperation {
  /** When the call was made (epoch milliseconds). */
  readonly atMs: number;
  /** `write` (mutate, check-and-mutate, increment), `read` (one row key) or `scan` (a key range). */
  readonly kind: 'write' | 'read' | 'scan';
  /** Table id. */
  readonly table: string;
  /** The row key, or the start of the scanned range (empty: the start of the table). */
  readonly key: Buffer;
  /** Scans: the end of the range (exclusive); `undefined` reads to the end of the table. */
  readonly end?: Buffer;
}

/**
 * How much a capture keeps.
 *
 * @example
 * ```ts
 * const { driver, capture } = captureWorkload(inner, { maxEntries: 10_000 });
 * ```
 */
export interface CaptureOptions {
  /** Operations kept: a ring buffer, the oldest dropped first (1 to 10,000,000). Default 50,000. */
  readonly maxEntries?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Options of {@link WorkloadCapture.toHeatmap}.
 *
 * @example
 * ```ts
 * capture.toHeatmap({ table: 'readings', entity: Reading, keyRanges: 64, timeColumns: 30 });
 * ```
 */
export interface CaptureHeatmapOptions {
  /** Only this table's operations. Default: every table. */
  readonly table?: string;
  /** The entity whose keys were captured: ranges are then grouped by key prefix and labelled by salt bucket. */
  readonly entity?: Constructor | KeySchema;
  /** Which operations count. Default `all`. */
  readonly kinds?: 'all' | 'writes' | 'reads';
  /** Rows of the key axis (1 to 1,024). Default 64. */
  readonly keyRanges?: number;
  /** Time columns (1 to 1,000), spanning the first to the last captured operation. Default 60. */
  readonly timeColumns?: number;
}

/**
 * What a capturing driver recorded.
 *
 * @example
 * ```ts
 * const data = capture.toHeatmap({ entity: Reading });
 * console.log(capture.size, capture.dropped);
 * ```
 */
export interface WorkloadCapture {
  /** Operations held now. */
  readonly size: number;
  /** Operations dropped because the buffer was full. */
  readonly dropped: number;
  /** The held operations, oldest first. */
  entries(): CapturedOperation[];
  /** Drops everything held (and resets `dropped`). */
  clear(): void;
  /** The held operations as a heatmap: operations per key range per time column. */
  toHeatmap(options?: CaptureHeatmapOptions): HeatmapData;
}

/**
 * Bytes of each captured key kept: enough to place it on the key axis, bounded whatever the key.
 *
 * @example
 * ```ts
 * capture.entries().every((op) => op.key.length <= CAPTURED_KEY_BYTES); // true
 * ```
 */
export const CAPTURED_KEY_BYTES = 256;

/**
 * Wraps a driver so that every data-plane call is recorded (which keys each
 * write mutated, which keys and ranges each read asked for, and when) before
 * it is passed on unchanged. Give the returned driver to a mapper:
 * `new BigtableMapper({ driver })`. Memory is bounded: at most `maxEntries`
 * operations of at most 256 key bytes each.
 *
 * @example
 * ```ts
 * const { driver, capture } = captureWorkload(createGoogleCloudDriver({ emulatorHost, instance: 'dev' }));
 * const mapper = new BigtableMapper({ driver, entities: [Reading] });
 * // ... run the workload ...
 * const png = await renderHeatmap(capture.toHeatmap({ entity: Reading }), { format: 'png', title: 'Readings' });
 * ```
 */
export function captureWorkload(
  driver: BigtableDriver,
  options: CaptureOptions = {},
): {
  /** The wrapped driver: give it to the mapper. */
  driver: BigtableDriver;
  /** What it records. */
  capture: WorkloadCapture;
} {
  if (driver === null || typeof driver !== 'object' || typeof driver.readRows !== 'function') {
    throw new ValidationError(
      `captureWorkload needs a BigtableDriver, got ${preview(driver)}. Fix: pass mapper.driver or a driver you created.`,
    );
  }
  const maxEntries = options.maxEntries ?? 50_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > 10_000_000) {
    throw new ValidationError(
      `captureWorkload maxEntries must be an integer from 1 to 10000000, got ${preview(maxEntries)}. Fix: give a bound, or omit it for 50000.`,
    );
  }
  const buffer = new CaptureBuffer(maxEntries, options.now ?? Date.now);
  return { driver: new CapturingDriver(driver, buffer), capture: buffer };
}

class CaptureBuffer implements WorkloadCapture {
  readonly #ring: (CapturedOperation | undefined)[];
  readonly #now: () => number;
  #next = 0;
  #size = 0;
  #dropped = 0;

  constructor(capacity: number, now: () => number) {
    this.#ring = new Array<CapturedOperation | undefined>(capacity);
    this.#now = now;
  }

  get size(): number {
    return this.#size;
  }

  get dropped(): number {
    return this.#dropped;
  }

  record(kind: CapturedOperation['kind'], table: string, key: Buffer, end?: Buffer): void {
    const op: CapturedOperation = {
      atMs: this.#now(),
      kind,
      table,
      key: Buffer.from(key.subarray(0, CAPTURED_KEY_BYTES)),
      ...(end === undefined ? {} : { end: Buffer.from(end.subarray(0, CAPTURED_KEY_BYTES)) }),
    };
    if (this.#size === this.#ring.length) this.#dropped++;
    else this.#size++;
    this.#ring[this.#next] = op;
    this.#next = (this.#next + 1) % this.#ring.length;
  }

  entries(): CapturedOperation[] {
    const capacity = this.#ring.length;
    const first = (this.#next - this.#size + capacity) % capacity;
    const out: CapturedOperation[] = [];
    for (let i = 0; i < this.#size; i++) out.push(this.#ring[(first + i) % capacity] as CapturedOperation);
    return out;
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
    this.#size = 0;
    this.#dropped = 0;
  }

  toHeatmap(options: CaptureHeatmapOptions = {}): HeatmapData {
    const keyRanges = bounded('keyRanges', options.keyRanges, 64, 1024);
    const timeColumns = bounded('timeColumns', options.timeColumns, 60, 1000);
    const schema =
      options.entity === undefined
        ? undefined
        : typeof options.entity === 'function'
          ? compileEntity(options.entity)
          : options.entity;
    const kinds = options.kinds ?? 'all';
    const ops = this.entries().filter(
      (op) =>
        (options.table === undefined || op.table === options.table) &&
        (kinds === 'all' || (kinds === 'writes') === (op.kind === 'write')),
    );
    const partition = partitionKeys(
      ops.filter((op) => op.kind !== 'scan' || op.key.length > 0).map((op) => op.key.toString('utf8')),
      schema,
      keyRanges,
    );
    const first = ops.reduce((min, op) => Math.min(min, op.atMs), Infinity);
    const last = ops.reduce((max, op) => Math.max(max, op.atMs), -Infinity);
    const span = ops.length === 0 ? 1 : Math.max(1, last - first + 1);
    const columns = ops.length === 0 ? 1 : Math.min(timeColumns, span);
    // Per column, +1 where an operation's ranges start and -1 after they end; summed below (a scan over
    // every range costs two updates, not one per range).
    const steps = Array.from({ length: columns }, () => new Array<number>(partition.ranges.length + 1).fill(0));
    for (const op of ops) {
      const row = steps[Math.min(columns - 1, Math.floor(((op.atMs - first) / span) * columns))] as number[];
      // A scan counts once in every range it overlaps; a write or point read in the one range holding its key.
      const from = partition.indexOf(op.key);
      const to =
        op.kind !== 'scan' ? from : op.end === undefined ? partition.ranges.length - 1 : partition.indexOf(op.end);
      row[from] = (row[from] as number) + 1;
      row[to + 1] = (row[to + 1] as number) - 1;
    }
    const counts = steps.map((row) => {
      let running = 0;
      return row.slice(0, -1).map((step) => (running += step));
    });
    const origin = Number.isFinite(first) ? first : 0;
    return {
      timeLabels: counts.map((_, c) => new Date(origin + (c * span) / columns).toISOString().slice(11, 19)),
      keyRanges: partition.ranges,
      counts,
      unit: kinds === 'all' ? 'operations' : kinds,
    };
  }
}

function bounded(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ValidationError(
      `WorkloadCapture.toHeatmap ${name} must be an integer from 1 to ${max}, got ${preview(value)}. Fix: give one in that range, or omit it for ${fallback}.`,
    );
  }
  return value;
}

/** The wrapped driver: records each data-plane call, then passes every call on unchanged. */
class CapturingDriver extends ForwardingDriver {
  readonly #capture: CaptureBuffer;

  constructor(inner: BigtableDriver, capture: CaptureBuffer) {
    super(inner);
    this.#capture = capture;
  }

  protected override beforeCall(call: DriverCall): void {
    const capture = this.#capture;
    switch (call.method) {
      case 'mutateRow':
      case 'checkAndMutate':
      case 'increment':
        capture.record('write', call.request.table, call.request.rowKey);
        return;
      case 'mutateRows':
        for (const mutation of call.request.mutations) capture.record('write', call.request.table, mutation.rowKey);
        return;
      case 'readRows': {
        const { table, keys, ranges } = call.request;
        for (const key of keys ?? []) capture.record('read', table, key);
        for (const range of ranges ?? []) capture.record('scan', table, range.start.key, range.end?.key);
        if (keys === undefined && ranges === undefined) capture.record('scan', table, Buffer.alloc(0));
        return;
      }
      default:
        // Admin calls touch no row.
        return;
    }
  }
}
