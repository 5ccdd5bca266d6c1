/**
 * A normalised garbage-collection rule, independent of the client's shapes.
 *
 * @example
 * ```ts
 * const rule: GcRule = { kind: 'union', rules: [{ kind: 'maxVersions', count: 5 }, { kind: 'maxAge', seconds: 86400 }] };
 * ```
 */
export type GcRule =
  | { readonly kind: 'maxVersions'; readonly count: number }
  | { readonly kind: 'maxAge'; readonly seconds: number }
  | { readonly kind: 'union'; readonly rules: readonly GcRule[] }
  | { readonly kind: 'intersection'; readonly rules: readonly GcRule[] };
