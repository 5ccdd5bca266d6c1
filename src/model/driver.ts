import type { CompiledMutation, CellMutation, PreparedMutation } from './mutation.js';
import type { BatchStream } from '../stream/batch-stream.js';
import type { GcRule } from './gc-rule.js';
import type { AggregateKind } from './declarations.js';
import type { KeyBound, KeyRange } from './key-range.js';
import type { RowFilter } from './row-filter.js';
import type { CallTelemetry } from './telemetry.js';

/**
 * Deadlines and cancellation of one driver call. Every field is optional so
 * that a driver used directly still works; the repository always passes all
 * of them (from the mapper's timeouts and the caller's options).
 *
 * - `signal`: aborting it cancels every RPC the call started; the call then
 *   rejects with the signal's reason (a `BigtableMapperError`: the
 *   repository aborts with `DeadlineExceededError` or `OperationAbortedError`).
 * - `signal`: cancels the call; it also carries the call's total deadline
 *   when it is a `deadlineSignal()` (or a repository call's signal): no
 *   attempt or retry starts after it, each attempt gets the time left as its
 *   gRPC deadline, and the running attempt is cut when it fires.
 * - `attemptTimeoutMs`: the longest one RPC attempt may take before it is
 *   cancelled (and retried when retrying is allowed).
 * - `idleTimeoutMs` (reads): the longest a read stream may stay silent before
 *   its attempt is cancelled and retried from the resume point.
 *
 * @example
 * ```ts
 * await driver.mutateRow(mutation, { signal: deadlineSignal(60_000, { signal: controller.signal }), attemptTimeoutMs: 20_000 });
 * ```
 */
export interface CallOptions {
  /** Cancels the call and every RPC it started; a `deadlineSignal()` also bounds its total time. */
  readonly signal?: AbortSignal;
  /** Longest single RPC attempt, in milliseconds. */
  readonly attemptTimeoutMs?: number;
  /** Reads: longest silence on a stream before the attempt is retried, in milliseconds. */
  readonly idleTimeoutMs?: number;
  /** The app profile data RPCs are sent with (routing, priority, Data Boost); default the client's `appProfileId`. Admin RPCs take none. */
  readonly appProfileId?: string | undefined;
  /** The repository call these RPCs run for, for metrics and traces. @internal */
  readonly telemetry?: CallTelemetry | undefined;
}

/**
 * A column family as the instance reports it.
 * @example
 * ```ts
 * { name: 'm', gc: { kind: 'maxVersions', count: 5 } }
 * ```
 */
export interface ActualFamily {
  /** Family name. */
  readonly name: string;
  /** The family's garbage-collection rule; `undefined` when it has none (cells are kept until deleted). */
  readonly gc: GcRule | undefined;
  /** The aggregate of an aggregate family (its `value_type`); absent or `undefined` for a plain family. */
  readonly aggregate?: AggregateKind | undefined;
}

/**
 * A table's row key schema: the fields of its `OrderedCodeBytes` struct row
 * keys, in key order, which GoogleSQL reads by name. Strings are UTF-8,
 * integers Int64 `OrderedCodeBytes`, timestamps epoch microseconds in that
 * Int64 encoding.
 *
 * @example
 * ```ts
 * const schema: RowKeySchema = { fields: [{ name: 'sensorId', type: 'string' }, { name: 'at', type: 'timestamp' }] };
 * ```
 */
export interface RowKeySchema {
  /** The fields, in key order. */
  readonly fields: readonly RowKeyField[];
}

/**
 * One field of a {@link RowKeySchema}.
 * @example
 * ```ts
 * const field: RowKeyField = { name: 'salt', type: 'int64' };
 * ```
 */
export interface RowKeyField {
  /** The field name GoogleSQL reads it by. */
  readonly name: string;
  /** Its type. */
  readonly type: 'string' | 'int64' | 'timestamp' | 'bytes';
}

/**
 * The seam between the mapper and Bigtable: the only calls the mapper makes.
 * Every call takes one request object, then the call's {@link CallOptions}
 * (`close()` takes nothing). `createGoogleCloudDriver()` implements it with
 * `@google-cloud/bigtable`; `InMemoryBigtable` (`bigtable-mapper/testing`)
 * implements it in memory.
 *
 * @example
 * ```ts
 * const families = await driver.getFamilies({ table: 'readings' }); // undefined when the table is missing
 * const failed = await driver.mutateRows({ table: 'readings', mutations }, { signal: deadlineSignal(60_000) });
 * ```
 */
export interface BigtableDriver {
  /** Table ids of the instance. */
  listTables(request?: ListTablesRequest, options?: CallOptions): Promise<string[]>;
  /** The table's families, or `undefined` when the table does not exist. */
  getFamilies(request: TableRequest, options?: CallOptions): Promise<ActualFamily[] | undefined>;
  /**
   * Creates the table with these families and their GC rules, and the row key
   * schema when one is given; rejects (gRPC 6, ALREADY_EXISTS) when it exists.
   */
  createTable(request: CreateTableRequest, options?: CallOptions): Promise<void>;
  /** Adds a family, with its GC rule, to an existing table; rejects (gRPC 6, ALREADY_EXISTS) when the family exists. */
  createFamily(request: CreateFamilyRequest, options?: CallOptions): Promise<void>;
  /** Replaces the family's GC rule (`undefined` removes it). */
  setFamilyGc(request: SetFamilyGcRequest, options?: CallOptions): Promise<void>;
  /** Deletes a family and every cell in it. */
  deleteFamily(request: DeleteFamilyRequest, options?: CallOptions): Promise<void>;
  /** Deletes a table and all its data. */
  deleteTable(request: TableRequest, options?: CallOptions): Promise<void>;
  /** Releases the client if this driver created it. */
  close(): Promise<void>;

  /** One atomic MutateRow (retried on transient errors only when `idempotent`). */
  mutateRow(mutation: CompiledMutation, options?: CallOptions): Promise<void>;
  /** One MutateRows call; resolves with the entries that failed (empty when all succeeded). */
  mutateRows(request: MutateRowsRequest, options?: CallOptions): Promise<RowMutationFailure[]>;
  /**
   * Optional: the row write in the form this driver sends it (e.g. already
   * encoded), for a later `mutateRows` of this driver, or the mutation
   * itself when it has no other form. A bulk writer prepares each row as
   * soon as it is compiled, so that it holds the bytes it will send rather
   * than the compiled mutation's objects. A driver without it sends compiled
   * mutations as they are.
   */
  prepareMutation?(mutation: CompiledMutation): CompiledMutation | PreparedMutation;
  /**
   * Streams rows in key order (descending when `request.reversed`), in
   * batches of the rows the read has ready; pull-based: nothing is read until
   * the first `next()`, and a read not pulled holds the server back.
   * `cancel()` stops the server stream.
   */
  readRows(request: ReadRowsRequest, options?: CallOptions): BatchStream<RowData>;
  /** CheckAndMutateRow: resolves whether the predicate matched. */
  checkAndMutate(request: CheckAndMutateRequest, options?: CallOptions): Promise<boolean>;
  /** ReadModifyWriteRow increments; resolves with the new cells. Never retried. */
  increment(request: IncrementRequest, options?: CallOptions): Promise<RowData>;
  /**
   * SampleRowKeys: keys that split the table into pieces of roughly equal
   * size (tablet boundaries and points inside tablets), in key order, each
   * with the approximate bytes stored before it. The last sample is usually
   * the empty key, meaning "the end of the table". Retried as a whole on
   * transient errors (the call is idempotent). A small table may answer with
   * no key but the end.
   */
  sampleRowKeys(request: TableRequest, options?: CallOptions): Promise<RowKeySample[]>;
}

/**
 * One sample of `sampleRowKeys`: a row key that splits the table, and about
 * how many bytes of the table sort before it. The empty key stands for the
 * end of the table.
 *
 * @example
 * ```ts
 * const samples = await driver.sampleRowKeys({ table: 'readings' });
 * // [{ key: <Buffer 73 31 30 30>, offsetBytes: 268435456 }, { key: <Buffer >, offsetBytes: 536870912 }]
 * ```
 */
export interface RowKeySample {
  /** The row key at which a piece of the table ends (exclusive) and the next begins; empty for the end of the table. */
  readonly key: Buffer;
  /** Approximate bytes of the table stored before `key`. */
  readonly offsetBytes: number;
}

/**
 * What `listTables` takes: no field yet. Every driver call takes a request
 * object, so that a wrapper can treat every call alike.
 *
 * @example
 * ```ts
 * const tables = await driver.listTables({}, { deadline: Date.now() + 10_000 });
 * ```
 */
export type ListTablesRequest = Readonly<Record<never, never>>;

/**
 * A request naming one table: `getFamilies` and `deleteTable`.
 *
 * @example
 * ```ts
 * await driver.deleteTable({ table: 'readings' });
 * ```
 */
export interface TableRequest {
  /** Table id. */
  readonly table: string;
}

/**
 * A CreateTable request.
 *
 * @example
 * ```ts
 * await driver.createTable({ table: 'readings', families: [{ name: 'm', gc: { kind: 'maxVersions', count: 1 } }] });
 * ```
 */
export interface CreateTableRequest {
  /** Table id. */
  readonly table: string;
  /** The table's families, with their GC rules. */
  readonly families: readonly ActualFamily[];
  /** The row key schema of a table of struct row keys; default none. */
  readonly rowKeySchema?: RowKeySchema;
}

/**
 * A request to add a family to a table.
 *
 * @example
 * ```ts
 * await driver.createFamily({ table: 'readings', family: { name: 'audit', gc: undefined } });
 * ```
 */
export interface CreateFamilyRequest {
  /** Table id. */
  readonly table: string;
  /** The new family, with its GC rule. */
  readonly family: ActualFamily;
}

/**
 * A request to replace a family's GC rule.
 *
 * @example
 * ```ts
 * await driver.setFamilyGc({ table: 'readings', family: 'm', gc: { kind: 'maxVersions', count: 3 } });
 * ```
 */
export interface SetFamilyGcRequest {
  /** Table id. */
  readonly table: string;
  /** Family name. */
  readonly family: string;
  /** The new rule; `undefined` removes it (cells are kept until deleted). */
  readonly gc: GcRule | undefined;
}

/**
 * A request to delete a family and its cells.
 *
 * @example
 * ```ts
 * await driver.deleteFamily({ table: 'readings', family: 'audit' });
 * ```
 */
export interface DeleteFamilyRequest {
  /** Table id. */
  readonly table: string;
  /** Family name. */
  readonly family: string;
}

/**
 * A MutateRows request: one batch of row mutations of one table.
 *
 * @example
 * ```ts
 * const failed = await driver.mutateRows({ table: 'readings', mutations: [m1, m2] }); // [] when both were written
 * ```
 */
export interface MutateRowsRequest {
  /** Table id: every mutation must be of this table. */
  readonly table: string;
  /**
   * One entry per row; `RowMutationFailure.index` points into it. A
   * {@link PreparedMutation} must come from this driver's `prepareMutation()`.
   */
  readonly mutations: readonly (CompiledMutation | PreparedMutation)[];
}

/**
 * A ReadModifyWriteRow request: int64 increments of cells of one row.
 *
 * @example
 * ```ts
 * const row = await driver.increment({ table: 'counters', rowKey: Buffer.from('home'), rules: [{ family: 'c', qualifier: 'hits', amount: 1n }] });
 * ```
 */
export interface IncrementRequest {
  /** Table id. */
  readonly table: string;
  /** Physical key of the row. */
  readonly rowKey: Buffer;
  /** The increments, applied in order. */
  readonly rules: readonly IncrementRule[];
}

/**
 * A cell as read, newest version first within a column.
 * @example
 * ```ts
 * { value: Buffer.from('x'), timestampMicros: 1700000000000000 }
 * ```
 */
export interface CellData {
  /** The cell's bytes, as stored. */
  readonly value: Buffer;
  /** Cell timestamp in microseconds since the Unix epoch (Bigtable keeps millisecond granularity). */
  readonly timestampMicros: number;
}

/**
 * A row as read: `cells[family][qualifier]` lists versions newest first.
 * @example
 * ```ts
 * row.cells.m?.temp?.[0]?.value
 * ```
 */
export interface RowData {
  /** Physical row key bytes (salt segment included). */
  readonly key: Buffer;
  /** Cell versions by family, then qualifier; newest first. */
  readonly cells: Readonly<Record<string, Readonly<Record<string, readonly CellData[]>>>>;
}

export type { KeyBound, KeyRange };

/**
 * A ReadRows request.
 * @example
 * ```ts
 * { table: 't', keys: [Buffer.from('k')], filter: { kind: 'cellsPerColumn', limit: 1 } }
 * ```
 */
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
  /**
   * Read in descending key order (Bigtable's `ReadRowsRequest.reversed`):
   * rows arrive largest key first and `limit` keeps the largest keys. Default
   * false (ascending).
   */
  readonly reversed?: boolean;
}

/**
 * A failed entry of a MutateRows call.
 * @example
 * ```ts
 * { index: 2, grpcCode: 13, message: 'unknown family "x"' }
 * ```
 */
export interface RowMutationFailure {
  /** Index in the `mutations` array passed to `mutateRows`. */
  readonly index: number;
  /** The entry's gRPC status code (e.g. 13, INTERNAL), when the server gave one. */
  readonly grpcCode: number | undefined;
  /** The server's error message for the entry. */
  readonly message: string;
  /** The error behind the failure (e.g. the RPC error, or the deadline or abort that cut the call), when there is one. */
  readonly cause?: unknown;
}

/**
 * A CheckAndMutateRow request.
 * @example
 * ```ts
 * { table, rowKey, predicate, onMatch: [...], onNoMatch: [] }
 * ```
 */
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

/**
 * An int64 increment of one cell.
 * @example
 * ```ts
 * { family: 'c', qualifier: 'hits', amount: 1n }
 * ```
 */
export interface IncrementRule {
  /** Family of the cell. */
  readonly family: string;
  /** Qualifier of the cell; a missing cell counts as 0. */
  readonly qualifier: string;
  /** Amount added (negative to subtract); must fit in int64. */
  readonly amount: bigint;
}
