import type { RowData } from '../model/driver.js';
import { batchOf, type BatchStream } from '../stream/batch-stream.js';
import { pushedBatches, type PushFeed, type PushSink } from '../stream/pushed-batches.js';
import { DriverError } from '../errors/errors.js';
import type { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { DeadlineExceededError, OperationAbortedError, UnreachableError } from '../errors/operation-errors.js';
import { driverFailure } from './driver-failure.js';

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
 */
export const READ_BUFFER_LIMITS: { readonly rows: number; readonly bytes: number } = Object.freeze({
  rows: 1024,
  bytes: 1024 * 1024,
});

/** A read's feed, counted in {@link OpenReads} while it runs, its errors made the driver's. */
class DriverRead implements PushFeed<RowData>, ClosableRead {
  readonly #open: () => PushFeed<RowData>;
  readonly #operation: string;
  readonly #reads: OpenReads;
  readonly #table: string | undefined;
  #feed: PushFeed<RowData> | undefined;
  #sink: PushSink<RowData> | undefined;

  constructor(open: () => PushFeed<RowData>, operation: string, reads: OpenReads, table: string | undefined) {
    this.#open = open;
    this.#operation = operation;
    this.#reads = reads;
    this.#table = table;
  }

  start(sink: PushSink<RowData>): void {
    const closed = this.#reads.closedBecause;
    if (closed !== undefined) throw new OperationAbortedError(this.#operation, closed);
    let feed: PushFeed<RowData>;
    try {
      feed = this.#open();
    } catch (err) {
      throw new DriverError(this.#operation, err);
    }
    this.#feed = feed;
    this.#sink = sink;
    this.#reads.add(this);
    try {
      feed.start({
        push: (row, bytes) => sink.push(row, bytes),
        end: () => {
          this.#reads.delete(this);
          sink.end();
        },
        fail: (error) => {
          this.#reads.delete(this);
          const failure = this.#failure(error);
          sink.fail(failure, endsOperation(failure));
        },
      });
    } catch (err) {
      this.cancel();
      throw new DriverError(this.#operation, err);
    }
  }

  pause(): void {
    this.#feed?.pause();
  }

  resume(): void {
    this.#feed?.resume();
  }

  cancel(): void {
    this.#reads.delete(this);
    this.#feed?.cancel();
  }

  close(reason: string): void {
    this.#reads.delete(this);
    this.#sink?.fail(new OperationAbortedError(this.#operation, reason), true);
    this.#feed?.cancel();
  }

  /** A deadline, abort or unreachable endpoint as itself (the caller's typed error); anything else as a DriverError (a missing table as a TableNotFoundError). */
  #failure(error: unknown): BigtableMapperError {
    if (
      error instanceof DeadlineExceededError ||
      error instanceof OperationAbortedError ||
      error instanceof UnreachableError
    )
      return error;
    return this.#table === undefined
      ? new DriverError(this.#operation, error)
      : driverFailure(this.#operation, this.#table, error);
  }
}

/** What `readRows` of `table` returns: the feed's rows with {@link READ_BUFFER_LIMITS} read-ahead; no `open`, no RPC. @internal */
export function openReadRows(
  open: (() => PushFeed<RowData>) | undefined,
  operation: string,
  reads: OpenReads,
  table?: string,
): BatchStream<RowData> {
  if (open === undefined) return batchOf<RowData>([]);
  const limits = { items: READ_BUFFER_LIMITS.rows, size: READ_BUFFER_LIMITS.bytes };
  return pushedBatches(() => new DriverRead(open, operation, reads, table), limits);
}

/** An abort or the total deadline: the operation is over, so buffered rows are not worth delivering. */
function endsOperation(error: unknown): error is BigtableMapperError {
  return error instanceof OperationAbortedError || (error instanceof DeadlineExceededError && error.kind === 'total');
}
