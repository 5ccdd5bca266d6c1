import type {
  ActualFamily,
  CheckAndMutateRequest,
  IncrementRule,
  ReadRowsRequest,
  RowKeySchema,
} from '../model/driver.js';
import type { CompiledMutation } from '../model/mutation.js';
import type { GcRule } from '../model/gc-rule.js';

/**
 * One call an {@link InMemoryBigtable} received (recorded with
 * `recordCalls: true`): its method and the fields of its request as passed;
 * `mutateRow`, `readRows` and `checkAndMutate` keep theirs whole, as
 * `mutation` and `request`.
 *
 * @example
 * ```ts
 * const call: RecordedCall = { method: 'mutateRows', table: 'readings', mutations: [m1, m2] };
 * ```
 */
export type RecordedCall =
  | {
      /** `listTables()`. */
      readonly method: 'listTables';
    }
  | {
      /** `getFamilies({ table })`. */
      readonly method: 'getFamilies';
      /** The table id. */
      readonly table: string;
    }
  | {
      /** `createTable({ table, families, rowKeySchema })`. */
      readonly method: 'createTable';
      /** The table id. */
      readonly table: string;
      /** The families and their GC rules. */
      readonly families: readonly ActualFamily[];
      /** The row key schema, when one was passed. */
      readonly rowKeySchema?: RowKeySchema;
    }
  | {
      /** `createFamily({ table, family })`. */
      readonly method: 'createFamily';
      /** The table id. */
      readonly table: string;
      /** The family and its GC rule. */
      readonly family: ActualFamily;
    }
  | {
      /** `setFamilyGc({ table, family, gc })`. */
      readonly method: 'setFamilyGc';
      /** The table id. */
      readonly table: string;
      /** The family name. */
      readonly family: string;
      /** The new GC rule; `undefined` removes it. */
      readonly gc: GcRule | undefined;
    }
  | {
      /** `deleteFamily({ table, family })`. */
      readonly method: 'deleteFamily';
      /** The table id. */
      readonly table: string;
      /** The family name. */
      readonly family: string;
    }
  | {
      /** `deleteTable({ table })`. */
      readonly method: 'deleteTable';
      /** The table id. */
      readonly table: string;
    }
  | {
      /** `close()`. */
      readonly method: 'close';
    }
  | {
      /** `mutateRow(mutation)`: one row's atomic write (`save`, `update`, `delete`, ...). */
      readonly method: 'mutateRow';
      /** The mutation, as `repo.compileSave()` shows it. */
      readonly mutation: CompiledMutation;
    }
  | {
      /** `mutateRows({ table, mutations })`: one batch of a bulk write (`saveMany`, `deleteMany`). */
      readonly method: 'mutateRows';
      /** The table id. */
      readonly table: string;
      /** The batch's mutations, one per row. */
      readonly mutations: readonly CompiledMutation[];
    }
  | {
      /** `readRows(request)`: one read of a scan, a page or a find (one per salt bucket). */
      readonly method: 'readRows';
      /** The request: table, keys, ranges, limit, filter, direction. */
      readonly request: ReadRowsRequest;
    }
  | {
      /** `checkAndMutate(request)`: a conditional write (`saveIf`, propagation). */
      readonly method: 'checkAndMutate';
      /** The request: row, predicate and both branches. */
      readonly request: CheckAndMutateRequest;
    }
  | {
      /** `increment({ table, rowKey, rules })`: `repo.increment()`. */
      readonly method: 'increment';
      /** The table id. */
      readonly table: string;
      /** The physical row key. */
      readonly rowKey: Buffer;
      /** The cells and amounts. */
      readonly rules: readonly IncrementRule[];
    }
  | {
      /** `sampleRowKeys({ table })`: `repo.planShards()` and parallel scans. */
      readonly method: 'sampleRowKeys';
      /** The table id. */
      readonly table: string;
    };

/**
 * The name of a `BigtableDriver` method, as {@link RecordedCall} and
 * `failNext` take it.
 *
 * @example
 * ```ts
 * const method: DriverMethod = 'mutateRows';
 * ```
 */
export type DriverMethod = RecordedCall['method'];

/**
 * The recorded calls of one method: what `callsOf(method)` returns.
 *
 * @example
 * ```ts
 * const writes: RecordedCallOf<'mutateRows'>[] = bigtable.callsOf('mutateRows');
 * ```
 */
export type RecordedCallOf<M extends DriverMethod> = Extract<
  RecordedCall,
  {
    /** The method. */
    readonly method: M;
  }
>;

/**
 * The progress of one `readRows` call (recorded with `recordCalls: true`):
 * how many rows the reader took, and whether it cancelled the read or read
 * it to its end. A scan the application stopped early shows `cancelled`.
 *
 * @example
 * ```ts
 * const read: RecordedRead = { request: { table: 'readings', limit: 10 }, yielded: 3, cancelled: true, ended: false };
 * ```
 */
export interface RecordedRead {
  /** The request as passed. */
  readonly request: ReadRowsRequest;
  /** Rows handed to the reader so far. */
  readonly yielded: number;
  /** The reader called `cancel()` (or left its loop early). */
  readonly cancelled: boolean;
  /** The read reached its natural end (every selected row, or the limit). */
  readonly ended: boolean;
}
