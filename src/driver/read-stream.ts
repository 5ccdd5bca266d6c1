import type { RowData } from './driver.js';
import type { BatchedRowSource } from '../scan/batch-source.js';
import { withItemIterator } from '../scan/batch-source.js';
import { DriverError } from '../errors/driver-error.js';
import { fromClientRow } from './client-row.js';
import { abortRead } from './abort-read.js';
import type { ClientReadStream } from './abort-read.js';

/**
 * Counts the read streams a driver has open (opened and not yet ended,
 * failed or cancelled).
 * @internal
 * @example
 * ```ts
 * const reads: ReadCounter = { active: 0 };
 * ```
 */
export interface ReadCounter {
  active: number;
}

/**
 * How much a read holds for its consumer before it pauses the stream: at
 * most `rows` rows and about `bytes` bytes of keys and cell values, whichever
 * comes first. The client's stream has `highWaterMark: 0`, so a paused read
 * holds the server back through HTTP/2 flow control: memory per read stays
 * bounded. The bounds are generous on purpose: pausing and resuming the
 * client's stream is costly (measured on an ordered merge of 8 buckets:
 * several times more GC with 16 rows per read than with 1,024).
 * @internal
 * @example
 * ```ts
 * batch.length <= READ_BUFFER_LIMITS.rows; // for every batch a read hands over
 * ```
 */
export const READ_BUFFER_LIMITS: { readonly rows: number; readonly bytes: number } = Object.freeze({ rows: 1024, bytes: 1024 * 1024 });

type Phase = 'idle' | 'open' | 'ended' | 'failed' | 'cancelled';

/**
 * Reads one `createReadStream()` a batch at a time. The stream is opened on
 * the first read (never, if the source is cancelled first) and runs in flowing
 * mode into a buffer bounded by {@link READ_BUFFER_LIMITS}, paused when the
 * buffer is full and resumed when the consumer takes it: one promise per batch
 * instead of several per row. Rows buffered before an error are delivered
 * first, then the error rejects as a `DriverError` with the gRPC code.
 * `cancel()` aborts the gRPC call with `stream.end()` and drops the buffer.
 * @internal
 */
class ReadRowsBatches {
  readonly #open: (() => ClientReadStream) | undefined;
  readonly #operation: string;
  readonly #counter: ReadCounter;
  #phase: Phase = 'idle';
  #stream: ClientReadStream | undefined;
  #rows: RowData[] = [];
  #bytes = 0;
  #paused = false;
  #wakeScheduled = false;
  #failure: DriverError | undefined;
  #wake: (() => void) | undefined;

  constructor(open: (() => ClientReadStream) | undefined, operation: string, counter: ReadCounter) {
    this.#open = open;
    this.#operation = operation;
    this.#counter = counter;
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
      this.#stream?.resume();
    }
    return rows;
  }

  cancel(): void {
    const wasOpen = this.#phase === 'open';
    if (this.#phase === 'cancelled') return;
    this.#phase = 'cancelled';
    this.#rows = [];
    this.#bytes = 0;
    if (wasOpen) this.#counter.active -= 1;
    this.#notify();
    const stream = this.#stream;
    if (!wasOpen || stream === undefined) return;
    abortRead(stream);
    Promise.resolve()
      .then(() => stream.destroy())
      .catch(() => undefined);
  }

  #start(): void {
    const open = this.#open as () => ClientReadStream;
    let stream: ClientReadStream | undefined;
    try {
      stream = open();
      this.#stream = stream;
      stream.on('error', (error) => this.#fail(new DriverError(this.#operation, error)));
      stream.on('end', () => this.#finish('ended'));
      stream.on('close', () => this.#fail(new DriverError(this.#operation, new Error('the read stream closed before its end'))));
      stream.on('data', (row) => this.#push(row));
    } catch (err) {
      this.#phase = 'failed';
      this.#failure = new DriverError(this.#operation, err);
      if (stream !== undefined) abortRead(stream);
      throw this.#failure;
    }
    this.#phase = 'open';
    this.#counter.active += 1;
  }

  #push(row: unknown): void {
    if (this.#phase !== 'open') return;
    let converted: RowData;
    try {
      converted = fromClientRow(row);
    } catch (err) {
      this.#fail(new DriverError(this.#operation, err));
      if (this.#stream !== undefined) abortRead(this.#stream);
      return;
    }
    this.#rows.push(converted);
    this.#bytes += rowBytes(converted);
    if ((this.#rows.length >= READ_BUFFER_LIMITS.rows || this.#bytes >= READ_BUFFER_LIMITS.bytes) && !this.#paused) {
      this.#paused = true;
      this.#stream?.pause();
    }
    this.#notifySoon();
  }

  /**
   * Wakes a waiting consumer after the rows of this turn of the event loop
   * arrived, not after the first one: the client delivers rows one at a time,
   * so waking at once would hand over one-row batches whenever the consumer
   * keeps up (measured: batches of about 40 rows instead of 1, and 5-10% less
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

  #fail(failure: DriverError): void {
    if (this.#phase !== 'open') return;
    this.#failure = failure;
    this.#finish('failed');
  }

  #finish(phase: 'ended' | 'failed'): void {
    if (this.#phase !== 'open') return;
    this.#phase = phase;
    this.#counter.active -= 1;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** Bytes of a row's key and cell values: what a buffered row holds, give or take its objects. */
function rowBytes(row: RowData): number {
  let bytes = row.key.length;
  for (const family in row.cells) {
    const columns = row.cells[family] as RowData['cells'][string];
    for (const qualifier in columns) for (const cell of columns[qualifier] ?? []) bytes += cell.value.length;
  }
  return bytes;
}

/**
 * A {@link BatchedRowSource} over one `createReadStream()` (see
 * {@link READ_BUFFER_LIMITS} for its bounded read-ahead). `open` undefined
 * means an empty read: the source ends without any RPC.
 * @internal
 * @example
 * ```ts
 * const source = openReadRows(() => table.createReadStream(options), 'readRows "t"', counter);
 * for await (const row of source) if (enough(row)) break; // return() cancels the read
 * ```
 */
export function openReadRows(open: (() => ClientReadStream) | undefined, operation: string, counter: ReadCounter): BatchedRowSource<RowData> {
  const batches = new ReadRowsBatches(open, operation, counter);
  return withItemIterator({ nextBatch: () => batches.nextBatch(), cancel: () => batches.cancel() });
}
