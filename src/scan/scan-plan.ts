import type { KeyRange } from '../model/driver.js';
import type { RowFilter } from '../model/row-filter.js';
import { printableBytes } from '../util/printable-bytes.js';

/**
 * One physical key range of a scan: one salt bucket, the unsalted layout of a
 * forward-only salt, or the whole key space of an unsalted entity.
 *
 * Logged (`util.inspect`) or serialised (`JSON.stringify`), its key bounds
 * read as text: printable ASCII as is, other bytes as `\xNN`.
 *
 * @example
 * ```ts
 * console.log(plan.sources[0]);
 * // { id: 0, segment: '00#', layout: 'salted', range: { start: { key: '00#s1#', inclusive: true }, end: { key: '00#s1$', inclusive: false } } }
 * ```
 */
export interface ScanSource {
  /** Position of this range in the query's plan before any cursor was applied. */
  readonly id: number;
  /** Salt segment that prefixes every key of this range (`''` when unsalted); for `ordered-code` keys, its bytes as readable text. */
  readonly segment: string;
  /** The salt segment's bytes (empty when unsalted). */
  readonly prefix: Buffer;
  /**
   * `salted`: one salt bucket; `unsalted`: an unsalted entity, or the rows a forward-only salt (`since`) left unsalted;
   * `previous`: a range of the previous layout of an entity being re-salted (`@Salt({ previous })`).
   */
  readonly layout: 'salted' | 'unsalted' | 'previous';
  /** Physical key range read (salt segment included). */
  readonly range: KeyRange;
}

/**
 * The string range every row's key part must fall in, when the physical
 * ranges can also hold rows outside it: values holding characters that sort
 * at or below the separator or `%` sort out of step with their escaped keys,
 * so such ranges are widened to cover them and rows outside are dropped after
 * reading (the row limit then applies on the client). Bounds compare by code point.
 *
 * @example
 * ```ts
 * repo.planScan({ where: { name: range({ gte: 'a', lte: 'a' }) } }).keyCheck; // { property: 'name', gte: 'a', lte: 'a' }
 * ```
 */
export interface KeyCheck {
  /** The key part checked. */
  readonly property: string;
  /** Exclusive lower bound. */
  readonly gt?: string;
  /** Inclusive lower bound. */
  readonly gte?: string;
  /** Exclusive upper bound. */
  readonly lt?: string;
  /** Inclusive upper bound. */
  readonly lte?: string;
}

/**
 * What a scan will read, without reading it: returned by `repo.planScan()`.
 * Logged (`util.inspect`, `console.log`) or serialised (`JSON.stringify`),
 * it shows its key bounds and filter values as text (printable ASCII as is,
 * other bytes as `\xNN`); the fields themselves hold the bytes.
 *
 * @example
 * ```ts
 * const plan = repo.planScan({ where: { userId: 'u1' } });
 * plan.sources.length; // 1 bucket when the salted key parts are fixed, else every bucket
 * ```
 */
export interface ScanPlan {
  /** Table id. */
  readonly table: string;
  /** The ranges read, one per salt bucket that can hold matching rows (plus the unsalted layout of a forward-only salt). */
  readonly sources: readonly ScanSource[];
  /** Server-side filter: the selected columns, their versions, and cells the GC policy has already condemned left out. */
  readonly filter: RowFilter;
  /** Maximum rows returned in total; `undefined` for no limit. */
  readonly limit: number | undefined;
  /** `key`: merged in logical key order; `key-desc`: every range read reversed, merged in descending logical key order; `none`: unordered. */
  readonly order: 'key' | 'key-desc' | 'none';
  /** Maximum range reads in flight for `order: 'none'`. */
  readonly concurrency: number;
  /** Sub-range reads the scan runs at once (the query's `parallelism`, default 1): above 1, its ranges are cut at the table's sample row keys when it runs. */
  readonly parallelism: number;
  /** Fingerprint of the query, stored in cursors so a cursor is only used with its own query. */
  readonly scope: string;
  /** Set when rows read must be checked against the range on a string key part (the server-side limit is then not used). */
  readonly keyCheck: KeyCheck | undefined;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Plan objects whose bytes print as text; the conversion runs only when they are printed or serialised. */
abstract class PrintsBytesAsText {
  toJSON(): unknown {
    return asText(this);
  }

  [INSPECT](): unknown {
    return asText(this);
  }
}

/** A copy of a plan value with every byte array as {@link printableBytes} text. */
function asText(value: unknown): unknown {
  if (value instanceof Uint8Array) return printableBytes(value);
  if (Array.isArray(value)) return value.map(asText);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = asText(child);
  return copy;
}

/**
 * The {@link ScanSource} of a plan.
 * @internal
 */
export class PlannedSource extends PrintsBytesAsText implements ScanSource {
  readonly id: number;
  readonly segment: string;
  readonly prefix: Buffer;
  readonly layout: 'salted' | 'unsalted' | 'previous';
  readonly range: KeyRange;

  constructor(source: ScanSource) {
    super();
    this.id = source.id;
    this.segment = source.segment;
    this.prefix = source.prefix;
    this.layout = source.layout;
    this.range = source.range;
  }
}

/**
 * The {@link ScanPlan} `planScan()` returns.
 * @internal
 */
export class PlannedScan extends PrintsBytesAsText implements ScanPlan {
  readonly table: string;
  readonly sources: readonly ScanSource[];
  readonly filter: RowFilter;
  readonly limit: number | undefined;
  readonly order: ScanPlan['order'];
  readonly concurrency: number;
  readonly parallelism: number;
  readonly scope: string;
  readonly keyCheck: KeyCheck | undefined;

  constructor(plan: ScanPlan) {
    super();
    this.table = plan.table;
    this.sources = plan.sources;
    this.filter = plan.filter;
    this.limit = plan.limit;
    this.order = plan.order;
    this.concurrency = plan.concurrency;
    this.parallelism = plan.parallelism;
    this.scope = plan.scope;
    this.keyCheck = plan.keyCheck;
  }
}
