import { ValidationError } from '../errors/errors.js';

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
  | {
      /** Writes one cell version (replacing a version with the same timestamp). */
      readonly kind: 'setCell';
      /** Column family. */
      readonly family: string;
      /** Column qualifier. */
      readonly qualifier: string;
      /** The qualifier's UTF-8 bytes, when the mutation was compiled from a schema (the driver encodes `qualifier` otherwise). @internal */
      readonly qualifierBytes?: Buffer;
      /** Cell timestamp in microseconds since the Unix epoch. */
      readonly timestampMicros: number;
      /** The encoded cell value. */
      readonly value: Buffer;
    }
  | {
      /** Deletes every version of one column. */
      readonly kind: 'deleteFromColumn';
      /** Column family. */
      readonly family: string;
      /** Column qualifier. */
      readonly qualifier: string;
      /** The qualifier's UTF-8 bytes, when the mutation was compiled from a schema (the driver encodes `qualifier` otherwise). @internal */
      readonly qualifierBytes?: Buffer;
    }
  | {
      /** Deletes every cell of one family in the row. */
      readonly kind: 'deleteFromFamily';
      /** Column family. */
      readonly family: string;
    }
  | {
      /** Deletes the whole row. */
      readonly kind: 'deleteFromRow';
    }
  | {
      /**
       * Adds an int64 input to the cell of an aggregate family (`AddToCell`):
       * the server folds it into the cell's state (sum, min, max, or the
       * HyperLogLog++ sketch). Not idempotent: sent twice, it counts twice.
       */
      readonly kind: 'addToCell';
      /** Column family (an aggregate family). */
      readonly family: string;
      /** Column qualifier. */
      readonly qualifier: string;
      /** The qualifier's UTF-8 bytes, when the mutation was compiled from a schema (the driver encodes `qualifier` otherwise). @internal */
      readonly qualifierBytes?: Buffer;
      /** Timestamp of the aggregate cell, in microseconds (the mapper writes 0: one cell per column). */
      readonly timestampMicros: number;
      /** The int64 input. */
      readonly input: bigint;
    }
  | {
      /**
       * Merges an accumulated state into the cell of an aggregate family
       * (`MergeToCell`), e.g. a HyperLogLog++ sketch. Not idempotent.
       */
      readonly kind: 'mergeToCell';
      /** Column family (an aggregate family). */
      readonly family: string;
      /** Column qualifier. */
      readonly qualifier: string;
      /** The qualifier's UTF-8 bytes, when the mutation was compiled from a schema (the driver encodes `qualifier` otherwise). @internal */
      readonly qualifierBytes?: Buffer;
      /** Timestamp of the aggregate cell, in microseconds (the mapper writes 0: one cell per column). */
      readonly timestampMicros: number;
      /** The state merged, as bytes. */
      readonly state: Buffer;
    };

/**
 * A `setCell` that is also its own `google.bigtable.v2.Mutation` in protobufjs
 * object form: `setCell` is the cell itself, and the wire's field names are
 * getters beside {@link CellMutation}'s own. The mutation compiler builds its
 * cells this way so the driver sends them without copying each into request
 * objects (two objects fewer per cell on the bulk-write path); a plain
 * `CellMutation` is copied as before.
 * @internal
 */
export interface SendableSetCell {
  readonly setCell: {
    readonly familyName: string;
    readonly columnQualifier: Buffer;
    readonly timestampMicros: number;
    readonly value: Buffer;
  };
}

/**
 * A `setCell` of a string column compiled for a driver that encodes rows as a
 * bulk writer accepts them: it carries its value as the text and the UTF-8
 * length, and makes `value` only if something reads it.
 * @internal
 */
export interface TextValue {
  readonly valueText: string;
  readonly valueLength: number;
}

/**
 * The UTF-8 length of a `setCell`'s value: its {@link TextValue} length, or its bytes'.
 * @internal
 */
export function setCellValueLength(cell: { readonly value: Buffer }): number {
  const length = (cell as Partial<TextValue>).valueLength;
  return length === undefined ? cell.value.length : length;
}

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
  /** Table id. */
  readonly table: string;
  /** Physical row key bytes (salt segment included). */
  readonly rowKey: Buffer;
  /** The same key as text, for messages and logs. */
  readonly rowKeyText: string;
  /** The cell changes, applied in order. */
  readonly mutations: readonly CellMutation[];
  /**
   * True when re-applying the mutation gives the same row (explicit timestamps, no server time): safe to retry.
   * False for a write that adds to aggregate cells (`addToCell`, `mergeToCell`): the driver never sends it again.
   */
  readonly idempotent: boolean;
}

/**
 * A row write already in the form one driver sends it, made by that driver's
 * `prepareMutation()` (e.g. the request bytes of its MutateRows entry). A
 * bulk writer prepares each row as soon as it is compiled, so that what it
 * holds until the batch is confirmed is those bytes rather than the compiled
 * mutation's objects. Only the driver that made it (through any forwarding
 * drivers in front of it) can send it, in `mutateRows`; its cells are not
 * readable. Use `repo.compileSave()` to see what a write sends.
 *
 * @example
 * ```ts
 * const prepared = driver.prepareMutation?.(repo.compileSave(reading)) ?? repo.compileSave(reading);
 * await driver.mutateRows({ table: 'readings', mutations: [prepared] });
 * ```
 */
export interface PreparedMutation {
  /** Tells it from a {@link CompiledMutation}. */
  readonly kind: 'prepared';
  /** Table id, as the driver that made it got it. */
  readonly table: string;
  /** Physical row key bytes (salt segment included). */
  readonly rowKey: Buffer;
  /** The same key as text, for messages and logs. */
  readonly rowKeyText: string;
  /** Whether it may be sent again: as {@link CompiledMutation.idempotent}. */
  readonly idempotent: boolean;
  /** How many cell mutations it holds (0: a no-op, which is not sent). */
  readonly cellCount: number;
}

/**
 * Whether a row write is a {@link PreparedMutation} rather than a {@link CompiledMutation}.
 * @example
 * ```ts
 * const cells = isPreparedMutation(m) ? m.cellCount : m.mutations.length;
 * ```
 */
export function isPreparedMutation(mutation: CompiledMutation | PreparedMutation): mutation is PreparedMutation {
  return (mutation as Partial<PreparedMutation>).kind === 'prepared';
}

/**
 * The error of a driver given a {@link PreparedMutation} it did not make (mutation `#index` of a `mutateRows`).
 * @internal
 */
export function preparedElsewhere(table: string, index: number): ValidationError {
  return new ValidationError(
    `mutateRows ${JSON.stringify(table)}: mutation #${index} was prepared by another kind of driver, so this one cannot send it. Fix: prepare mutations with the prepareMutation() of the driver that sends them, or send the compiled mutation`,
    { table, index },
  );
}

/**
 * The input `repo.add()` and a writer's `addTo()` take for a property of type `V`: the int64 to add
 * (a safe integer `number` or a `bigint`); for an `hll` column (a `bytes`
 * property), also a sketch (`Uint8Array`) to merge.
 *
 * @example
 * ```ts
 * const views: AggregateInput<number | bigint> = 1;
 * ```
 * @inline
 */
export type AggregateInput<V> =
  NonNullable<V> extends number | bigint
    ? number | bigint
    : NonNullable<V> extends Uint8Array
      ? number | bigint | Uint8Array
      : never;
