import type { Constructor } from './declarations.js';

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
      readonly kind: 'prefix';
      /** The dependent's leading key parts fixed by the source key, in key order. */
      readonly keyParts: readonly string[];
      /** Salt buckets one propagation reads (1 when unsalted or the salt hashes only fixed parts). */
      readonly buckets: number;
      readonly reason: string;
    }
  | { readonly kind: 'full-scan'; readonly keyParts: readonly string[]; readonly buckets: number; readonly reason: string };

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
  readonly sourceName: string;
  /** The source column copied. */
  readonly field: string;
  /** Source key part → dependent property, in the source's key order. */
  readonly key: readonly { readonly source: string; readonly dependent: string }[];
  readonly onMissingSource: 'error' | 'skip';
  readonly strategy: PropagationStrategy;
}
