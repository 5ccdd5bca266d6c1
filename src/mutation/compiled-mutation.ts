/**
 * One change to one row, in Bigtable's terms. Plain data: unit tests assert on
 * it and `repo.compileSave()` returns it without sending anything.
 *
 * @example
 * ```ts
 * const m: CellMutation = { kind: 'setCell', family: 'm', qualifier: 'temp', timestampMicros: 1682942400000000, value: Buffer.from('...') };
 * ```
 */
export type CellMutation =
  | { readonly kind: 'setCell'; readonly family: string; readonly qualifier: string; readonly timestampMicros: number; readonly value: Buffer }
  | { readonly kind: 'deleteFromColumn'; readonly family: string; readonly qualifier: string }
  | { readonly kind: 'deleteFromFamily'; readonly family: string }
  | { readonly kind: 'deleteFromRow' };

/**
 * An atomic MutateRow: every mutation applies to `rowKey` together, in order.
 *
 * @example
 * ```ts
 * const m = repo.compileSave(reading);
 * m.rowKeyText; // 'sensor-1#2023-05-01T12:00:00.000Z'
 * m.mutations.length; // one per written cell
 * ```
 */
export interface CompiledMutation {
  readonly table: string;
  /** Physical row key bytes (salt segment included). */
  readonly rowKey: Buffer;
  /** The same key as text, for messages and logs. */
  readonly rowKeyText: string;
  readonly mutations: readonly CellMutation[];
  /** True when re-applying the mutation gives the same row (explicit timestamps, no server time): safe to retry. */
  readonly idempotent: boolean;
}
