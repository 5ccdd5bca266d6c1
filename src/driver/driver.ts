import type { CompiledMutation, CellMutation } from '../mutation/compiled-mutation.js';
import type { RowSource } from '../scan/row-source.js';
import type { GcRule } from '../schema/gc-rule-types.js';
import type { KeyBound, LogicalKeyRange } from '../codec/row-key-range.js';
import type { RowFilter } from './row-filter.js';

/** A column family as the instance reports it. @example `{ name: 'm', gc: { kind: 'maxVersions', count: 5 } }` */
export interface ActualFamily {
  readonly name: string;
  readonly gc: GcRule | undefined;
}

/**
 * The seam between the mapper and Bigtable: the only calls the mapper makes.
 * `createGoogleCloudDriver()` implements it with `@google-cloud/bigtable`;
 * unit tests can implement it in memory.
 *
 * @example
 * ```ts
 * const families = await driver.getFamilies('readings'); // undefined when the table is missing
 * ```
 */
export interface BigtableDriver {
  /** Table ids of the instance. */
  listTables(): Promise<string[]>;
  /** The table's families, or `undefined` when the table does not exist. */
  getFamilies(table: string): Promise<ActualFamily[] | undefined>;
  createTable(table: string, families: readonly ActualFamily[]): Promise<void>;
  createFamily(table: string, family: ActualFamily): Promise<void>;
  /** Replaces the family's GC rule (`undefined` removes it). */
  setFamilyGc(table: string, family: string, gc: GcRule | undefined): Promise<void>;
  deleteFamily(table: string, family: string): Promise<void>;
  deleteTable(table: string): Promise<void>;
  /** Releases the client if this driver created it. */
  close(): Promise<void>;

  /** One atomic MutateRow (retried on transient errors only when `idempotent`). */
  mutateRow(mutation: CompiledMutation): Promise<void>;
  /** One MutateRows call; resolves with the entries that failed (empty when all succeeded). */
  mutateRows(table: string, mutations: readonly CompiledMutation[]): Promise<RowMutationFailure[]>;
  /** Streams rows in key order; pull-based; `cancel()` stops the server stream. */
  readRows(request: ReadRowsRequest): RowSource<RowData>;
  /** CheckAndMutateRow: resolves whether the predicate matched. */
  checkAndMutate(request: CheckAndMutateRequest): Promise<boolean>;
  /** ReadModifyWriteRow increments; resolves with the new cells. Never retried. */
  increment(table: string, rowKey: Buffer, rules: readonly IncrementRule[]): Promise<RowData>;
}

/** A cell as read, newest version first within a column. @example `{ value: Buffer.from('x'), timestampMicros: 1700000000000000 }` */
export interface CellData {
  readonly value: Buffer;
  readonly timestampMicros: number;
}

/** A row as read: `cells[family][qualifier]` lists versions newest first. @example `row.cells.m?.temp?.[0]?.value` */
export interface RowData {
  readonly key: Buffer;
  readonly cells: Readonly<Record<string, Readonly<Record<string, readonly CellData[]>>>>;
}

/** A contiguous key range; a missing end means "to the end of the table". @example `{ start: { key, inclusive: true }, end: undefined }` */
export type KeyRange = LogicalKeyRange;
export type { KeyBound };

/** A ReadRows request. @example `{ table: 't', keys: [Buffer.from('k')], filter: { kind: 'cellsPerColumn', limit: 1 } }` */
export interface ReadRowsRequest {
  readonly table: string;
  readonly ranges?: readonly KeyRange[];
  readonly keys?: readonly Buffer[];
  readonly limit?: number;
  readonly filter?: RowFilter;
}

/** A failed entry of a MutateRows call. @example `{ index: 2, grpcCode: 13, message: 'unknown family "x"' }` */
export interface RowMutationFailure {
  /** Index in the `mutations` array passed to `mutateRows`. */
  readonly index: number;
  readonly grpcCode: number | undefined;
  readonly message: string;
}

/** A CheckAndMutateRow request. @example `{ table, rowKey, predicate, onMatch: [...], onNoMatch: [] }` */
export interface CheckAndMutateRequest {
  readonly table: string;
  readonly rowKey: Buffer;
  readonly predicate: RowFilter | undefined;
  readonly onMatch: readonly CellMutation[];
  readonly onNoMatch: readonly CellMutation[];
}

/** An int64 increment of one cell. @example `{ family: 'c', qualifier: 'hits', amount: 1n }` */
export interface IncrementRule {
  readonly family: string;
  readonly qualifier: string;
  readonly amount: bigint;
}
