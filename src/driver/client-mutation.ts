import type { CellMutation, SendableSetCell } from '../model/mutation.js';

/**
 * A `google.bigtable.v2.Mutation` as the client sends it with `rawMutation: true`
 * (protobufjs object form: `Buffer` bytes, `number` int64 timestamps).
 * @internal
 */
export type RawMutation =
  | {
      readonly setCell: {
        readonly familyName: string;
        readonly columnQualifier: Buffer;
        readonly timestampMicros: number;
        readonly value: Buffer;
      };
    }
  | { readonly deleteFromColumn: { readonly familyName: string; readonly columnQualifier: Buffer } }
  | { readonly deleteFromFamily: { readonly familyName: string } }
  | { readonly deleteFromRow: Record<string, never> }
  | { readonly addToCell: RawAggregateInput<{ readonly intValue: string }> }
  | { readonly mergeToCell: RawAggregateInput<{ readonly rawValue: Buffer }> };

/**
 * The fields of `AddToCell` and `MergeToCell`: the qualifier and timestamp as
 * raw `Value`s, and the input (`intValue` as a decimal string, which protobufjs
 * reads into an int64 without losing digits; `rawValue` bytes for a state).
 * @internal
 */
export interface RawAggregateInput<I> {
  readonly familyName: string;
  readonly columnQualifier: { readonly rawValue: Buffer };
  readonly timestamp: { readonly rawTimestampMicros: number };
  readonly input: I;
}

/**
 * One MutateRows entry (`google.bigtable.v2.MutateRowsRequest.Entry`).
 * @internal
 */
export interface RawEntry {
  readonly rowKey: Buffer;
  readonly mutations: readonly RawMutation[];
}

/**
 * Converts one {@link CellMutation} to its raw proto; qualifiers become UTF-8
 * bytes (those the compiled schema holds, when the mutation carries them).
 * @internal
 */
export function toRawMutation(mutation: CellMutation): RawMutation {
  switch (mutation.kind) {
    case 'setCell':
      if (isSendable(mutation)) return mutation;
      return {
        setCell: {
          familyName: mutation.family,
          columnQualifier: mutation.qualifierBytes ?? Buffer.from(mutation.qualifier, 'utf8'),
          timestampMicros: mutation.timestampMicros,
          value: mutation.value,
        },
      };
    case 'deleteFromColumn':
      return {
        deleteFromColumn: {
          familyName: mutation.family,
          columnQualifier: mutation.qualifierBytes ?? Buffer.from(mutation.qualifier, 'utf8'),
        },
      };
    case 'deleteFromFamily':
      return { deleteFromFamily: { familyName: mutation.family } };
    case 'deleteFromRow':
      return { deleteFromRow: {} };
    case 'addToCell':
      return {
        addToCell: {
          familyName: mutation.family,
          columnQualifier: { rawValue: mutation.qualifierBytes ?? Buffer.from(mutation.qualifier, 'utf8') },
          timestamp: { rawTimestampMicros: mutation.timestampMicros },
          input: { intValue: mutation.input.toString() },
        },
      };
    case 'mergeToCell':
      return {
        mergeToCell: {
          familyName: mutation.family,
          columnQualifier: { rawValue: mutation.qualifierBytes ?? Buffer.from(mutation.qualifier, 'utf8') },
          timestamp: { rawTimestampMicros: mutation.timestampMicros },
          input: { rawValue: mutation.state },
        },
      };
  }
}

/** Whether a cell is its own wire `Mutation` ({@link SendableSetCell}), to be sent without a copy. */
function isSendable(mutation: CellMutation): mutation is CellMutation & SendableSetCell {
  return (mutation as Partial<SendableSetCell>).setCell === (mutation as unknown);
}
