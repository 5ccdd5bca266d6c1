import type { KeyRange } from '../driver/driver.js';
import type { RowFilter } from '../driver/row-filter.js';

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
  /** Salt segment that prefixes every key of this range (`''` when unsalted). */
  readonly segment: string;
  readonly layout: 'salted' | 'unsalted';
  readonly range: KeyRange;
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
  readonly table: string;
  readonly sources: readonly ScanSource[];
  readonly filter: RowFilter;
  readonly limit: number | undefined;
  readonly order: 'key' | 'none';
  readonly concurrency: number;
  /** Fingerprint of the query, stored in cursors so a cursor is only used with its own query. */
  readonly scope: string;
}
