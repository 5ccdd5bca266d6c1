import type { WideValues } from './entities.js';

type RawCell = { value: unknown };
type RawColumns = Record<string, readonly RawCell[] | undefined>;

/** The parts of a client `Row` read with `decode: false` that the baseline uses. @example `for await (const row of stream) toWideValues(row as RawRow, 4)` */
export interface RawRow {
  id: Buffer | string;
  data: Record<string, RawColumns | undefined>;
}

/** The read stream methods the baseline needs (`end()` is the only call that cancels the gRPC read). @example `const s: RawStream = table.createReadStream({ decode: false })` */
export interface RawStream extends AsyncIterable<unknown> {
  end(): unknown;
}

/**
 * The latest cell's bytes. With `decode: false` the client still turns any
 * 8-byte value whose int64 is a safe integer into a number (a float 0.0
 * included), so a number is turned back into its 8 bytes.
 */
function bytes(cells: readonly RawCell[] | undefined): Buffer {
  const value = cells?.[0]?.value;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'number') {
    const eight = Buffer.allocUnsafe(8);
    eight.writeBigInt64BE(BigInt(value));
    return eight;
  }
  throw new Error('expected a Buffer cell (read with decode: false)');
}

function text(cells: readonly RawCell[] | undefined): string {
  return bytes(cells).toString('utf8');
}

function int(cells: readonly RawCell[] | undefined): number {
  const value = cells?.[0]?.value;
  return typeof value === 'number' ? value : Number(bytes(cells).readBigInt64BE());
}

/**
 * The hand-written raw baseline's hydration: one plain object per row with the
 * same typed fields the mapper builds (id parsed from the key after
 * `prefixLength` characters, strings decoded, int64 and float64 read), so the
 * comparison includes equal work on both sides.
 * @example `toWideValues(row, 'row#'.length)`
 */
export function toWideValues(row: RawRow, prefixLength: number): WideValues {
  const key = Buffer.isBuffer(row.id) ? row.id.toString('latin1', prefixLength) : row.id.slice(prefixLength);
  const f = row.data['f'] ?? {};
  return {
    id: Number(key),
    s0: text(f['s0']),
    s1: text(f['s1']),
    s2: text(f['s2']),
    s3: text(f['s3']),
    s4: text(f['s4']),
    s5: text(f['s5']),
    s6: text(f['s6']),
    s7: text(f['s7']),
    count: int(f['count']),
    score: bytes(f['score']).readDoubleBE(),
  };
}

/**
 * Iterates a raw read stream with `for await`; if the consumer throws, ends the
 * stream (a `break`/`throw` alone leaves the gRPC call running and pins the process).
 * @example `await forEachRow(table.createReadStream({ decode: false }), (row) => use(row))`
 */
export async function forEachRow(stream: RawStream, onRow: (row: RawRow) => void): Promise<void> {
  let finished = false;
  try {
    for await (const row of stream) onRow(row as RawRow);
    finished = true;
  } finally {
    if (!finished) stream.end();
  }
}
