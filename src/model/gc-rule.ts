/**
 * A normalised garbage-collection rule, independent of the client's shapes.
 *
 * @example
 * ```ts
 * const rule: GcRule = { kind: 'union', rules: [{ kind: 'maxVersions', count: 5 }, { kind: 'maxAge', seconds: 86400 }] };
 * ```
 */
export type GcRule =
  | {
      /** Keeps the newest `count` versions of each column. */
      readonly kind: 'maxVersions';
      /** Versions kept per column (at least 1). */
      readonly count: number;
    }
  | {
      /** Collects cells whose timestamp is older than `seconds`. */
      readonly kind: 'maxAge';
      /** Maximum cell age in whole seconds. */
      readonly seconds: number;
    }
  | {
      /** Collects a cell when any of `rules` would. */
      readonly kind: 'union';
      /** The combined rules. */
      readonly rules: readonly GcRule[];
    }
  | {
      /** Collects a cell only when every one of `rules` would. */
      readonly kind: 'intersection';
      /** The combined rules. */
      readonly rules: readonly GcRule[];
    };
