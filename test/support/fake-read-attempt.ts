import { PassThrough } from 'node:stream';
import type { ReadRowsChunk } from '../../src/driver/chunk-merger.js';
import type { ReadAttemptStream, ReadRowsResponse } from '../../src/driver/read-rows-call.js';

/** A row to send: key and `family:qualifier` → value text; every cell at timestamp 1000. */
export interface FakeRow {
  readonly key: string;
  readonly cells?: Readonly<Record<string, string>>;
}

/** The chunks the server would send for `rows`: one chunk per cell, the last one committing its row. */
export function chunksOf(rows: readonly FakeRow[]): ReadRowsChunk[] {
  return rows.flatMap((row) => {
    const cells = Object.entries(row.cells ?? { 'f:q': 'v' });
    return cells.map(([column, value], i): ReadRowsChunk => {
      const [family, qualifier] = column.split(':') as [string, string];
      return {
        rowKey: Buffer.from(row.key),
        familyName: { value: family },
        qualifier: { value: Buffer.from(qualifier) },
        timestampMicros: '1000',
        value: Buffer.from(value),
        commitRow: i === cells.length - 1,
      };
    });
  });
}

/** One response carrying `rows`. */
export function responseOf(rows: readonly FakeRow[], lastScannedRowKey?: string): ReadRowsResponse {
  return {
    chunks: chunksOf(rows),
    lastScannedRowKey: lastScannedRowKey === undefined ? Buffer.alloc(0) : Buffer.from(lastScannedRowKey),
  };
}

/** `n` rows keyed `k00000`… from `from`, each with one cell of `valueBytes` bytes. */
export function fakeRows(from: number, n: number, valueBytes = 4): FakeRow[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `k${String(from + i).padStart(5, '0')}`,
    cells: { 'f:q': 'a'.repeat(valueBytes) },
  }));
}

/** An RPC attempt's response stream, driven by the test: write responses, end it, or destroy it with an error. */
export interface FakeAttempt {
  readonly stream: PassThrough;
  readonly calls: { cancel: number; destroy: number };
  readonly attempt: ReadAttemptStream;
}

/** A fresh fake attempt stream that counts `cancel()` and `destroy()` calls. */
export function fakeAttempt(): FakeAttempt {
  const stream = new PassThrough({ objectMode: true, highWaterMark: 1 });
  const calls = { cancel: 0, destroy: 0 };
  const destroy = stream.destroy.bind(stream);
  Object.assign(stream, {
    cancel: () => {
      calls.cancel += 1;
    },
    destroy: (error?: Error) => {
      calls.destroy += 1;
      return destroy(error);
    },
  });
  return { stream, calls, attempt: stream as unknown as ReadAttemptStream };
}
