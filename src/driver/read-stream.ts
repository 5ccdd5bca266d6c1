import type { RowData } from '../model/driver.js';
import type { BatchedRowSource } from '../stream/batch-source.js';
import { withItemIterator } from '../stream/batch-source.js';
import { DriverError } from '../errors/errors.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError, OperationAbortedError, UnreachableError } from '../errors/operation-errors.js';
import type { RowFeed } from './read-rows-call.js';

/** What {@link OpenReads} needs of a read: to fail it for good. */
interface ClosableRead {
  close(reason: string): void;
}

/**
 * The read streams a driver has open (opened and not yet ended, failed or
 * cancelled), so that closing the driver can end them: a read left open keeps
 * its gRPC call, and the process, alive. After {@link OpenReads.closeAll}
 * every open read and every read pulled later fails with
 * `OperationAbortedError`.
 * @internal
 * @example
 * ```ts
 * const reads = new OpenReads();
 * const source = openReadRows(open, 'readRows "t"', reads);
 * reads.closeAll('the driver was closed');
 * ```
 */
export class OpenReads {
  readonly #open = new Set<ClosableRead>();
  #closedBecause: string | undefined;

  /** How many reads are open. */
  get active(): number {
    return this.#open.size;
  }

  /** Why reads may no longer open, once {@link closeAll} ran. */
  get closedBecause(): string | undefined {
    return this.#closedBecause;
  }

  add(read: ClosableRead): void {
    this.#open.add(read);
  }

  delete(read: ClosableRead): void {
    this.#open.delete(read);
  }

  /** Fails every open read (cancelling its call) and every read pulled from now on, with `reason`. */
  closeAll(reason: string): void {
    this.#closedBecause ??= reason;
    for (const read of [...this.#open]) read.close(reason);
  }
}

/**
 * How much a read holds for its consumer before it pauses the stream: at
 * most `rows` rows and about `bytes` bytes of keys and cell values, whichever
 * comes first (a server response in flight when the bound is reached is still
 * taken whole). A paused read holds the server back through HTTP/2 flow
 * control: memory per read stays bounded. The bounds are generous on purpose:
 * pausing and resuming the stream is costly (measured on an ordered merge of 8 buckets:
 * several times more GC with 16 rows per read than with 1,024).
 * @internal
 * @example
 * ```ts
 * const full = rows.length >= READ_BUFFER_LIMITS.rows || bytes >= READ_BUFFER_LIMITS.bytes; // then the read pauses
 * ```
 */
export const READ_BUFFER_LIMITS: { readonly rows: number; readonly bytes: number } = Object.freeze({
  rows: 1024,
  bytes: 1024 * 1024,
});

type Phase = 'idle' | 'open' | 'ended' | 'failed' | 'cancelled';

/**
 * Reads one {@link RowFeed} a batch at a time. The feed is started on the
 * first read (never, if the source is cancelled first) and pushes rows into a
 * buffer bounded by {@link READ_BUFFER_LIMITS}, paused when the buffer is full
 * and resumed when the consumer takes it: one promise per batch instead of
 * several per row. Rows buffered before an error are delivered first, then
 * the error rejects as a `DriverError` with the gRPC code, or as itself when
 * it is a `DeadlineExceededError` (an attempt cut for silence or length on
 * its last try); an abort or the total deadline rejects at once and drops the
 * buffer. `cancel()` aborts the gRPC call
 * and drops the buffer.
 * @internal
 */
class ReadRowsBatches implements ClosableRead {
  readonly #open: (() => RowFeed) | undefined;
  readonly #operation: string;
  readonly #reads: OpenReads;
  #phase: Phase = 'idle';
  #feed: RowFeed | undefined;
  #rows: RowData[] = [];
  #bytes = 0;
  #paused = false;
  #wakeScheduled = false;
  #failure: BigtableMapperError | undefined;
  #wake: (() => void) | undefined;

  constructor(open: (() => RowFeed) | undefined, operation: string, reads: OpenReads) {
    this.#open = open;
    this.#operation = operation;
    this.#reads = reads;
    if (open === undefined) this.#phase = 'ended';
  }

  async nextBatch(): Promise<RowData[] | undefined> {
    if (this.#phase === 'idle') this.#start();
    while (this.#rows.length === 0) {
      if (this.#phase === 'cancelled' || this.#phase === 'ended') return undefined;
      if (this.#phase === 'failed') throw this.#failure;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const rows = this.#rows;
    this.#rows = [];
    this.#bytes = 0;
    if (this.#paused && this.#phase === 'open') {
      this.#paused = false;
      this.#feed?.resume();
    }
    return rows;
  }

  cancel(): void {
    const wasOpen = this.#phase === 'open';
    if (this.#phase === 'cancelled') return;
    this.#phase = 'cancelled';
    this.#rows = [];
    this.#bytes = 0;
    if (wasOpen) this.#reads.delete(this);
    this.#notify();
    if (wasOpen) this.#feed?.cancel();
  }

  close(reason: string): void {
    if (this.#phase !== 'open') return;
    this.#fail(new OperationAbortedError(this.#operation, reason));
    this.#feed?.cancel();
  }

  #start(): void {
    const closed = this.#reads.closedBecause;
    if (closed !== undefined) {
      this.#phase = 'failed';
      this.#failure = new OperationAbortedError(this.#operation, closed);
      throw this.#failure;
    }
    const open = this.#open as () => RowFeed;
    let feed: RowFeed;
    try {
      feed = open();
    } catch (err) {
      this.#phase = 'failed';
      this.#failure = new DriverError(this.#operation, err);
      throw this.#failure;
    }
    this.#feed = feed;
    this.#phase = 'open';
    this.#reads.add(this);
    try {
      feed.start({
        row: (row, bytes) => this.#push(row, bytes),
        end: () => this.#finish('ended'),
        fail: (error) =>
          this.#fail(
            error instanceof DeadlineExceededError ||
              error instanceof OperationAbortedError ||
              error instanceof UnreachableError
              ? error
              : new DriverError(this.#operation, error),
          ),
      });
    } catch (err) {
      feed.cancel();
      this.#fail(new DriverError(this.#operation, err));
      throw this.#failure;
    }
  }

  #push(row: RowData, bytes: number): void {
    if (this.#phase !== 'open') return;
    this.#rows.push(row);
    this.#bytes += bytes;
    if ((this.#rows.length >= READ_BUFFER_LIMITS.rows || this.#bytes >= READ_BUFFER_LIMITS.bytes) && !this.#paused) {
      this.#paused = true;
      this.#feed?.pause();
    }
    this.#notifySoon();
  }

  /**
   * Wakes a waiting consumer after the rows of this turn of the event loop
   * arrived, not after the first one: responses arrive one I/O event at a
   * time with a few rows each, so waking at once would hand over tiny batches
   * whenever the consumer keeps up (measured: batches of about 40 rows instead of 1, and 5-10% less
   * CPU per row). The end, an error and `cancel()` still wake at once.
   */
  #notifySoon(): void {
    if (this.#wake === undefined || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      this.#notify();
    });
  }

  #fail(failure: BigtableMapperError): void {
    if (this.#phase !== 'open') return;
    this.#failure = failure;
    if (endsOperation(failure)) {
      this.#rows = [];
      this.#bytes = 0;
    }
    this.#finish('failed');
  }

  #finish(phase: 'ended' | 'failed'): void {
    if (this.#phase !== 'open') return;
    this.#phase = phase;
    this.#reads.delete(this);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * A {@link BatchedRowSource} over one {@link RowFeed} (see
 * {@link READ_BUFFER_LIMITS} for its bounded read-ahead). `open` undefined
 * means an empty read: the source ends without any RPC.
 * @internal
 * @example
 * ```ts
 * const source = openReadRows(() => new ReadRowsCall(plan, openAttempt, retryPolicy), 'readRows "t"', reads);
 * for await (const row of source) if (enough(row)) break; // return() cancels the read
 * ```
 */
export function openReadRows(
  open: (() => RowFeed) | undefined,
  operation: string,
  reads: OpenReads,
): BatchedRowSource<RowData> {
  const batches = new ReadRowsBatches(open, operation, reads);
  return withItemIterator({ nextBatch: () => batches.nextBatch(), cancel: () => batches.cancel() });
}

/** An abort or the total deadline: the operation is over, so its error is final and buffered rows are not worth delivering. */
function endsOperation(error: unknown): error is BigtableMapperError {
  return error instanceof OperationAbortedError || (error instanceof DeadlineExceededError && error.kind === 'total');
}
