import type { KeyRange } from '../model/driver.js';
import type { RowFilter } from '../model/row-filter.js';

/**
 * One physical key range of a scan: one salt bucket, the unsalted layout of a
 * forward-only salt, or the whole key space of an unsalted entity.
 *
 * @example
 * ```ts
 * plan.sources[0]; // { segment: '00#', layout: 'salted', range: { start: { key: <00#s1#>, inclusive: true }, end: ... } }
 * ```
 */
export interface ScanSource {
  /** Position of this range in the query's plan before any cursor was applied. */
  readonly id: number;
  /** Salt segment that prefixes every key of this range (`''` when unsalted); for `ordered-code` keys, its bytes as readable text. */
  readonly segment: string;
  /** The salt segment's bytes (empty when unsalted). */
  readonly prefix: Buffer;
  /** `salted`: one salt bucket; `unsalted`: an unsalted entity, or the rows a forward-only salt (`since`) left unsalted. */
  readonly layout: 'salted' | 'unsalted';
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
  /** `key`: merged in logical key order; `none`: unordered. */
  readonly order: 'key' | 'none';
  /** Maximum range reads in flight for `order: 'none'`. */
  readonly concurrency: number;
  /** Fingerprint of the query, stored in cursors so a cursor is only used with its own query. */
  readonly scope: string;
  /** Set when rows read must be checked against the range on a string key part (the server-side limit is then not used). */
  readonly keyCheck: KeyCheck | undefined;
}
