import type {
  CallOptions,
  CheckAndMutateRequest,
  IncrementRequest,
  MutateRowsRequest,
  RowData,
  RowMutationFailure,
} from '../../src/model/driver.js';
import type { CompiledMutation } from '../../src/model/mutation.js';
import { InMemoryBigtable, type InMemoryBigtableOptions } from '../../src/testing/in-memory-driver.js';

export { GrpcCode } from '../../src/testing/grpc-code.js';

/**
 * Options of a {@link FakeDriver}: those of `InMemoryBigtable`, which always
 * records calls here.
 *
 * @example
 * ```ts
 * const options: FakeDriverOptions = { nowMs: () => 1_700_000_000_000, yieldInCalls: false };
 * ```
 */
export type FakeDriverOptions = Omit<InMemoryBigtableOptions, 'recordCalls'>;

/**
 * The library's own tests' in-memory driver: the public `InMemoryBigtable`
 * (`bigtable-mapper/testing`) with the defaults these tests were written
 * for, and what only the library's tests need.
 *
 * - Every call is recorded (`calls`, `callsOf`, `reads`).
 * - Tables spring into existence on their first write unless
 *   `implicitTables: false`, so a test needs no `createTable`.
 * - `inFlight` / `maxInFlight` count the writing data calls (`mutateRow`,
 *   `mutateRows`, `checkAndMutate`, `increment`) awaiting at once, to check
 *   concurrency bounds; `closed` tells whether `close()` was called.
 *
 * @example
 * ```ts
 * const driver = new FakeDriver();
 * const repo = new Repository(driver, compileEntity(Reading));
 * await repo.save(reading);
 * expect(driver.callsOf('mutateRow')).toHaveLength(1);
 * ```
 */
export class FakeDriver extends InMemoryBigtable {
  /** Writing data calls currently awaiting. */
  inFlight = 0;
  /** Most writing data calls seen awaiting at the same time (reset to `inFlight` by `clearCalls`). */
  maxInFlight = 0;
  /** `close()` was called. */
  closed = false;

  constructor(options: FakeDriverOptions = {}) {
    super({ implicitTables: true, ...options, recordCalls: true });
  }

  /** Forgets the recorded calls and reads (the data stays) and restarts `maxInFlight`. */
  override clearCalls(): void {
    super.clearCalls();
    this.maxInFlight = this.inFlight;
  }

  override async close(): Promise<void> {
    await super.close();
    this.closed = true;
  }

  override mutateRow(mutation: CompiledMutation, call?: CallOptions): Promise<void> {
    return this.#counted(() => super.mutateRow(mutation, call));
  }

  override mutateRows(request: MutateRowsRequest, call?: CallOptions): Promise<RowMutationFailure[]> {
    return this.#counted(() => super.mutateRows(request, call));
  }

  override checkAndMutate(request: CheckAndMutateRequest, call?: CallOptions): Promise<boolean> {
    return this.#counted(() => super.checkAndMutate(request, call));
  }

  override increment(request: IncrementRequest, call?: CallOptions): Promise<RowData> {
    return this.#counted(() => super.increment(request, call));
  }

  async #counted<T>(run: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await run();
    } finally {
      this.inFlight -= 1;
    }
  }
}
