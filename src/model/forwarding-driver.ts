import type { BatchStream } from '../stream/batch-stream.js';
import type {
  ActualFamily,
  BigtableDriver,
  CallOptions,
  CheckAndMutateRequest,
  CreateFamilyRequest,
  CreateTableRequest,
  DeleteFamilyRequest,
  IncrementRequest,
  ListTablesRequest,
  MutateRowsRequest,
  ReadRowsRequest,
  RowData,
  RowKeySample,
  RowMutationFailure,
  SetFamilyGcRequest,
  TableRequest,
} from './driver.js';
import { isPreparedMutation, type CompiledMutation, type PreparedMutation } from './mutation.js';

/**
 * The request of each {@link BigtableDriver} method that takes one (every
 * method but `close`), by method name.
 *
 * @example
 * ```ts
 * const request: DriverRequests['mutateRows'] = { table: 'readings', mutations: [m1, m2] };
 * ```
 */
export interface DriverRequests {
  /** `listTables(request)`. */
  readonly listTables: ListTablesRequest;
  /** `getFamilies(request)`. */
  readonly getFamilies: TableRequest;
  /** `createTable(request)`. */
  readonly createTable: CreateTableRequest;
  /** `createFamily(request)`. */
  readonly createFamily: CreateFamilyRequest;
  /** `setFamilyGc(request)`. */
  readonly setFamilyGc: SetFamilyGcRequest;
  /** `deleteFamily(request)`. */
  readonly deleteFamily: DeleteFamilyRequest;
  /** `deleteTable(request)`. */
  readonly deleteTable: TableRequest;
  /** `mutateRow(mutation)`. */
  readonly mutateRow: CompiledMutation;
  /** `mutateRows(request)`. */
  readonly mutateRows: MutateRowsRequest;
  /** `readRows(request)`. */
  readonly readRows: ReadRowsRequest;
  /** `checkAndMutate(request)`. */
  readonly checkAndMutate: CheckAndMutateRequest;
  /** `increment(request)`. */
  readonly increment: IncrementRequest;
  /** `sampleRowKeys(request)`. */
  readonly sampleRowKeys: TableRequest;
}

/**
 * One call a {@link ForwardingDriver} passes on: the method and its request,
 * told apart by `method`.
 *
 * @example
 * ```ts
 * if (call.method === 'increment') console.log(call.request.rowKey);
 * ```
 */
export type DriverCall = {
  readonly [M in keyof DriverRequests]: {
    /** The driver method. */
    readonly method: M;
    /** Its request, as the inner driver gets it. */
    readonly request: DriverRequests[M];
  };
}[keyof DriverRequests];

/**
 * The base of driver wrappers: every {@link BigtableDriver} method passes its
 * call on to `inner`, so that a wrapper overrides only what it changes:
 *
 * - `table(id)`: the table id the inner driver gets, in every request and in
 *   every mutation (`mutateRow`, each entry of `mutateRows`); a request whose
 *   table it leaves unchanged is passed on as the same object.
 * - `beforeCall(call)`: runs before each call is passed on, with its request
 *   as the inner driver gets it (e.g. to record it); an error it throws is
 *   thrown by the call.
 * - any method itself, e.g. `listTables` to change what it resolves.
 *
 * When the inner driver has `prepareMutation()`, so does the wrapper, and a
 * bulk writer's `mutateRows` requests then hold prepared mutations
 * (`kind: 'prepared'`: the row key, no cells) that `beforeCall` sees as the
 * inner driver will get them.
 *
 * `close()` closes the inner driver.
 *
 * @example
 * ```ts
 * class CountingDriver extends ForwardingDriver {
 *   writes = 0;
 *   protected override beforeCall(call: DriverCall): void {
 *     if (call.method === 'mutateRow' || call.method === 'mutateRows') this.writes++;
 *   }
 * }
 * const mapper = new BigtableMapper({ driver: new CountingDriver(createGoogleCloudDriver(options)) });
 * ```
 */
export abstract class ForwardingDriver implements BigtableDriver {
  /** The driver every call is passed on to. */
  protected readonly inner: BigtableDriver;

  /**
   * Wraps `inner`.
   * @param inner - The driver every call is passed on to.
   */
  constructor(inner: BigtableDriver) {
    this.inner = inner;
    if (inner.prepareMutation !== undefined) this.prepareMutation = (mutation) => this.#prepare(mutation);
  }

  /** The table id the inner driver gets for `table`: `table` itself unless overridden. */
  protected table(table: string): string {
    return table;
  }

  /** Runs before each call is passed on, with the request the inner driver gets; nothing unless overridden. */
  protected beforeCall(_call: DriverCall): void {}

  listTables(request: ListTablesRequest = {}, options?: CallOptions): Promise<string[]> {
    this.beforeCall({ method: 'listTables', request });
    return this.inner.listTables(request, options);
  }

  getFamilies(request: TableRequest, options?: CallOptions): Promise<ActualFamily[] | undefined> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'getFamilies', request: passed });
    return this.inner.getFamilies(passed, options);
  }

  createTable(request: CreateTableRequest, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'createTable', request: passed });
    return this.inner.createTable(passed, options);
  }

  createFamily(request: CreateFamilyRequest, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'createFamily', request: passed });
    return this.inner.createFamily(passed, options);
  }

  setFamilyGc(request: SetFamilyGcRequest, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'setFamilyGc', request: passed });
    return this.inner.setFamilyGc(passed, options);
  }

  deleteFamily(request: DeleteFamilyRequest, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'deleteFamily', request: passed });
    return this.inner.deleteFamily(passed, options);
  }

  deleteTable(request: TableRequest, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'deleteTable', request: passed });
    return this.inner.deleteTable(passed, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  mutateRow(mutation: CompiledMutation, options?: CallOptions): Promise<void> {
    const passed = this.#withTable(mutation);
    this.beforeCall({ method: 'mutateRow', request: passed });
    return this.inner.mutateRow(passed, options);
  }

  mutateRows(request: MutateRowsRequest, options?: CallOptions): Promise<RowMutationFailure[]> {
    const passed = this.#withTables(request);
    this.beforeCall({ method: 'mutateRows', request: passed });
    return this.inner.mutateRows(passed, options);
  }

  /**
   * Present when the inner driver has one: its `prepareMutation()`, given
   * the mutation with its table mapped, and handed back under the caller's
   * table id (which `mutateRows` maps back).
   */
  readonly prepareMutation?: (mutation: CompiledMutation) => CompiledMutation | PreparedMutation;

  #prepare(mutation: CompiledMutation): CompiledMutation | PreparedMutation {
    const passed = this.#withTable(mutation);
    const prepared = (this.inner.prepareMutation as NonNullable<BigtableDriver['prepareMutation']>)(passed);
    if (passed === mutation || !isPreparedMutation(prepared)) return prepared;
    return new ForwardedMutation(this, mutation.table, prepared);
  }

  readRows(request: ReadRowsRequest, options?: CallOptions): BatchStream<RowData> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'readRows', request: passed });
    return this.inner.readRows(passed, options);
  }

  checkAndMutate(request: CheckAndMutateRequest, options?: CallOptions): Promise<boolean> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'checkAndMutate', request: passed });
    return this.inner.checkAndMutate(passed, options);
  }

  increment(request: IncrementRequest, options?: CallOptions): Promise<RowData> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'increment', request: passed });
    return this.inner.increment(passed, options);
  }

  sampleRowKeys(request: TableRequest, options?: CallOptions): Promise<RowKeySample[]> {
    const passed = this.#withTable(request);
    this.beforeCall({ method: 'sampleRowKeys', request: passed });
    return this.inner.sampleRowKeys(passed, options);
  }

  /** `request` with its table mapped by {@link table}; itself when the table stays. */
  #withTable<R extends { readonly table: string }>(request: R): R {
    const table = this.table(request.table);
    return table === request.table ? request : { ...request, table };
  }

  /**
   * A MutateRows request with its table and every compiled mutation's mapped,
   * and the inner driver's own form of each mutation this driver prepared;
   * itself when none changes.
   */
  #withTables(request: MutateRowsRequest): MutateRowsRequest {
    const passed = this.#withTable(request);
    const { mutations } = request;
    let mapped: (CompiledMutation | PreparedMutation)[] | undefined;
    for (let i = 0; i < mutations.length; i++) {
      const mutation = mutations[i] as CompiledMutation | PreparedMutation;
      const moved = !isPreparedMutation(mutation)
        ? this.#withTable(mutation)
        : mutation instanceof ForwardedMutation && mutation.forwarder === this
          ? mutation.inner
          : mutation;
      if (mapped === undefined && moved !== mutation) mapped = mutations.slice(0, i);
      mapped?.push(moved);
    }
    return mapped === undefined ? passed : { ...passed, mutations: mapped };
  }
}

/** A mutation the inner driver prepared, under the table id of the forwarding driver's caller. */
class ForwardedMutation implements PreparedMutation {
  readonly kind = 'prepared';
  readonly rowKey: Buffer;
  readonly rowKeyText: string;
  readonly idempotent: boolean;
  readonly cellCount: number;

  constructor(
    readonly forwarder: ForwardingDriver,
    readonly table: string,
    readonly inner: PreparedMutation,
  ) {
    this.rowKey = inner.rowKey;
    this.rowKeyText = inner.rowKeyText;
    this.idempotent = inner.idempotent;
    this.cellCount = inner.cellCount;
  }
}
