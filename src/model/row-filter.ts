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
  | {
      /** Applies `filters` in order, each to the output of the previous one (an empty chain passes everything). */
      readonly kind: 'chain';
      /** The steps of the chain. */
      readonly filters: readonly RowFilter[];
    }
  | {
      /** Runs every filter on the row and merges their outputs (an empty interleave blocks everything). */
      readonly kind: 'interleave';
      /** The filters whose outputs are merged. */
      readonly filters: readonly RowFilter[];
    }
  | {
      /** Keeps cells of one column family. */
      readonly kind: 'family';
      /** Exact family name. */
      readonly name: string;
    }
  | {
      /** Keeps cells whose qualifier is one of `names` (none blocks everything). */
      readonly kind: 'qualifiers';
      /** Exact column qualifiers. */
      readonly names: readonly string[];
    }
  | {
      /** Keeps the newest `limit` versions of each column. */
      readonly kind: 'cellsPerColumn';
      /** Versions kept per column. */
      readonly limit: number;
    }
  | {
      /** Keeps cells whose timestamp is in `[startMicros, endMicros)`. */
      readonly kind: 'timestampRange';
      /** Inclusive lower bound in microseconds since the epoch; `undefined` for none. */
      readonly startMicros: number | undefined;
      /** Exclusive upper bound in microseconds since the epoch; `undefined` for none. */
      readonly endMicros: number | undefined;
    }
  | {
      /** Keeps cells whose value equals `value` exactly. */
      readonly kind: 'valueEquals';
      /** The bytes compared. */
      readonly value: Buffer;
    }
  | {
      /** Keeps every cell but replaces its value with empty bytes. */
      readonly kind: 'stripValue';
    }
  | {
      /**
       * Runs `test` on the row: when it yields any cell, the row's output is
       * `pass` applied to the whole row, otherwise `fail` applied to it. In a
       * CheckAndMutateRow predicate this tests one thing and decides on another
       * (e.g. "the row exists").
       */
      readonly kind: 'condition';
      /** The test; only whether it yields a cell matters. */
      readonly test: RowFilter;
      /** Applied to the row when `test` yielded a cell. */
      readonly pass: RowFilter;
      /** Applied to the row when `test` yielded none. */
      readonly fail: RowFilter;
    }
  | {
      /** Keeps every cell. */
      readonly kind: 'passAll';
    }
  | {
      /** Keeps no cell. */
      readonly kind: 'blockAll';
    };
