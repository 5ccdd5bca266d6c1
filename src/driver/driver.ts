import type { CompiledMutation, CellMutation } from '../mutation/compiled-mutation.js';
import type { RowSource } from '../scan/row-source.js';
import type { GcRule } from '../schema/gc-rule-types.js';
import type { KeyBound, LogicalKeyRange } from '../codec/row-key-range.js';
import type { RowFilter } from './row-filter.js';

/** A column family as the instance reports it. @example `{ name: 'm', gc: { kind: 'maxVersions', count: 5 } }` */
export interface ActualFamily {
  /** Family name. */
  readonly name: string;
  /** The family's garbage-collection rule; `undefined` when it has none (cells are kept until deleted). */
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
  /** Creates the table with these families and their GC rules; rejects (gRPC 6, ALREADY_EXISTS) when it exists. */
  createTable(table: string, families: readonly ActualFamily[]): Promise<void>;
  /** Adds a family, with its GC rule, to an existing table; rejects (gRPC 6, ALREADY_EXISTS) when the family exists. */
  createFamily(table: string, family: ActualFamily): Promise<void>;
  /** Replaces the family's GC rule (`undefined` removes it). */
  setFamilyGc(table: string, family: string, gc: GcRule | undefined): Promise<void>;
  /** Deletes a family and every cell in it. */
  deleteFamily(table: string, family: string): Promise<void>;
  /** Deletes a table and all its data. */
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
  /** The cell's bytes, as stored. */
  readonly value: Buffer;
  /** Cell timestamp in microseconds since the Unix epoch (Bigtable keeps millisecond granularity). */
  readonly timestampMicros: number;
}

/** A row as read: `cells[family][qualifier]` lists versions newest first. @example `row.cells.m?.temp?.[0]?.value` */
export interface RowData {
  /** Physical row key bytes (salt segment included). */
  readonly key: Buffer;
  /** Cell versions by family, then qualifier; newest first. */
  readonly cells: Readonly<Record<string, Readonly<Record<string, readonly CellData[]>>>>;
}

/** A contiguous range of physical row keys (salt segment included); a missing end means "to the end of the table". @example `{ start: { key, inclusive: true }, end: undefined }` */
export type KeyRange = LogicalKeyRange;
export type { KeyBound };

/** A ReadRows request. @example `{ table: 't', keys: [Buffer.from('k')], filter: { kind: 'cellsPerColumn', limit: 1 } }` */
export interface ReadRowsRequest {
  /** Table id. */
  readonly table: string;
  /** Physical key ranges to read. Without `ranges` and `keys` the whole table is read; given but empty, nothing is. */
  readonly ranges?: readonly KeyRange[];
  /** Exact physical row keys to read, in addition to `ranges`. */
  readonly keys?: readonly Buffer[];
  /** Maximum number of rows returned; default: no limit. */
  readonly limit?: number;
  /** Server-side filter applied to every row; default: every cell. */
  readonly filter?: RowFilter;
}

/** A failed entry of a MutateRows call. @example `{ index: 2, grpcCode: 13, message: 'unknown family "x"' }` */
export interface RowMutationFailure {
  /** Index in the `mutations` array passed to `mutateRows`. */
  readonly index: number;
  /** The entry's gRPC status code (e.g. 13, INTERNAL), when the server gave one. */
  readonly grpcCode: number | undefined;
  /** The server's error message for the entry. */
  readonly message: string;
}

/** A CheckAndMutateRow request. @example `{ table, rowKey, predicate, onMatch: [...], onNoMatch: [] }` */
export interface CheckAndMutateRequest {
  /** Table id. */
  readonly table: string;
  /** Physical key of the row checked and mutated. */
  readonly rowKey: Buffer;
  /** Filter tested on the row: it matches when the filter yields any cell; `undefined` matches when the row has any cell. */
  readonly predicate: RowFilter | undefined;
  /** Mutations applied atomically when the predicate matched. */
  readonly onMatch: readonly CellMutation[];
  /** Mutations applied atomically when it did not. */
  readonly onNoMatch: readonly CellMutation[];
}

/** An int64 increment of one cell. @example `{ family: 'c', qualifier: 'hits', amount: 1n }` */
export interface IncrementRule {
  /** Family of the cell. */
  readonly family: string;
  /** Qualifier of the cell; a missing cell counts as 0. */
  readonly qualifier: string;
  /** Amount added (negative to subtract); must fit in int64. */
  readonly amount: bigint;
}
