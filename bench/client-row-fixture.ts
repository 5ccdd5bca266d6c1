import type { ReadRowsChunk } from '../src/driver/chunk-merger.js';
import { FAMILY, type WideValues } from './entities.js';
import { floatBytes, STRING_COLUMNS } from './dataset.js';
import type { RawRow } from './raw-rows.js';

/**
 * A client `Row` exactly as `createReadStream({ decode: false })` yields it for
 * a wide row (Buffers, the int64 column pre-decoded to a number by the client,
 * timestamps as decimal strings), for the CPU-only workload.
 * @example `clientRow('row#0000000001', wideValues(1), '1700000000000000')`
 */
export function clientRow(key: string, v: WideValues, timestamp: string): RawRow {
  const cell = (value: unknown): { value: unknown; labels: string[]; timestamp: string }[] => [
    { value, labels: [], timestamp },
  ];
  const columns: Record<string, ReturnType<typeof cell>> = {};
  for (const name of STRING_COLUMNS) columns[name] = cell(Buffer.from(v[name], 'utf8'));
  columns['count'] = cell(v.count);
  columns['score'] = cell(floatBytes(v.score));
  return { id: Buffer.from(key, 'utf8'), data: { [FAMILY]: columns } };
}

/**
 * The ReadRows chunks the server sends for the same wide row: one chunk per
 * cell (the int64 column as its 8 bytes), the last one committing the row.
 * @example `rowChunks('row#0000000001', wideValues(1), '1700000000000000')`
 */
export function rowChunks(key: string, v: WideValues, timestamp: string): ReadRowsChunk[] {
  const rowKey = Buffer.from(key, 'utf8');
  const familyName = { value: FAMILY };
  const count = Buffer.alloc(8);
  count.writeBigInt64BE(BigInt(v.count));
  const values: [string, Buffer][] = [
    ...STRING_COLUMNS.map((name): [string, Buffer] => [name, Buffer.from(v[name], 'utf8')]),
    ['count', count],
    ['score', floatBytes(v.score)],
  ];
  return values.map(([name, value], i) => ({
    rowKey,
    familyName,
    qualifier: { value: Buffer.from(name, 'utf8') },
    timestampMicros: timestamp,
    value,
    valueSize: 0,
    commitRow: i === values.length - 1,
  }));
}
