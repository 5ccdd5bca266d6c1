/**
 * A client-independent Bigtable row filter. Names are matched exactly (the
 * driver escapes them); `chain` applies filters in order, `interleave` unions.
 *
 * @example
 * ```ts
 * const f: RowFilter = { kind: 'chain', filters: [{ kind: 'family', name: 'm' }, { kind: 'cellsPerColumn', limit: 1 }] };
 * ```
 */
export type RowFilter =
  | { readonly kind: 'chain'; readonly filters: readonly RowFilter[] }
  | { readonly kind: 'interleave'; readonly filters: readonly RowFilter[] }
  | { readonly kind: 'family'; readonly name: string }
  | { readonly kind: 'qualifiers'; readonly names: readonly string[] }
  | { readonly kind: 'cellsPerColumn'; readonly limit: number }
  | { readonly kind: 'timestampRange'; readonly startMicros: number | undefined; readonly endMicros: number | undefined }
  | { readonly kind: 'valueEquals'; readonly value: Buffer }
  | { readonly kind: 'stripValue' }
  | { readonly kind: 'passAll' }
  | { readonly kind: 'blockAll' };
