import { Column, Entity, Family, KeyPart } from '../../src/index.js';

/**
 * Page views per site and day, kept as Bigtable `Sum` counters: each ingest
 * adds to them with `AddToCell` (`repo.add()`), without reading the row, so
 * any number of ingesting instances count into the same row. One row per
 * site and day (`site#2024-05-01`): a day's traffic of a site is one read.
 *
 * @example
 * ```ts
 * await traffic.add({ site: 'example.com', day: '2024-05-01' }, { views: 3, durationMs: 4_500 });
 * ```
 */
@Entity({ table: 'site_traffic' })
@Family('totals', { aggregate: 'sum' })
export class SiteTraffic {
  @KeyPart(0, { type: 'string', maxLength: 253 }) site!: string;
  /** The UTC day, `YYYY-MM-DD`. */
  @KeyPart(1, { type: 'string', maxLength: 10 }) day!: string;
  /** Views counted: a number while it is a safe integer, a bigint past 2^53. */
  @Column({ family: 'totals', type: 'int' }) views?: number | bigint;
  /** The views' `durationMs`, summed. */
  @Column({ family: 'totals', qualifier: 'duration_ms', type: 'int' }) durationMs?: number | bigint;
}
