import type { Constructor } from '../model/declarations.js';

/**
 * How `propagate` finds the rows holding copies of one source row: `prefix`
 * reads one key prefix (per salt bucket when the salt hashes more than the
 * mapped key parts); `full-scan` must read the whole table. `reason` says why,
 * in words.
 *
 * @example
 * ```ts
 * schema.denormalized[0].strategy;
 * // { kind: 'full-scan', reason: "Reading's key starts with ts, not sensorId: ..." }
 * ```
 */
export type PropagationStrategy =
  | {
      /** The dependent rows are found by reading one key prefix (per salt bucket when needed). */
      readonly kind: 'prefix';
      /** The dependent's leading key parts fixed by the source key, in key order. */
      readonly keyParts: readonly string[];
      /** Salt buckets one propagation reads (1 when unsalted or the salt hashes only fixed parts). */
      readonly buckets: number;
      /** Why this strategy applies, in words. */
      readonly reason: string;
    }
  | {
      /** The dependent rows cannot be found by key prefix: the whole table is read (needs `allowFullScan`). */
      readonly kind: 'full-scan';
      /** Always empty: no leading key part is fixed. */
      readonly keyParts: readonly string[];
      /** Salt buckets the scan reads: all of them (1 when unsalted). */
      readonly buckets: number;
      /** Why a prefix read is impossible and how to fix the key layout, in words. */
      readonly reason: string;
    };

/**
 * A compiled `@Denormalized` column: a copy of `source.field`, for the source
 * row whose key parts equal the mapped properties.
 *
 * @example
 * ```ts
 * const d = compileEntity(Reading).denormalized[0];
 * d.sourceName; // 'Sensor'
 * d.key;        // [{ source: 'id', dependent: 'sensorId' }]
 * ```
 */
export interface DenormalizedSchema {
  /** The column holding the copy. */
  readonly property: string;
  /** The source entity class. */
  readonly source: Constructor;
  /** Name of the source class, for messages. */
  readonly sourceName: string;
  /** The source column copied. */
  readonly field: string;
  /** Source key part → dependent property, in the source's key order. */
  readonly key: readonly {
    /** Key part of the source entity. */
    readonly source: string;
    /** Property of this (dependent) entity holding its value. */
    readonly dependent: string;
  }[];
  /** What a save does when the source row is missing: `error` (the default) or `skip`. */
  readonly onMissingSource: 'error' | 'skip';
  /** How `propagate` finds the rows holding this copy. */
  readonly strategy: PropagationStrategy;
}
