import { digitsValue } from '../util/ascii-digits.js';
import { safeInt64Bytes } from '../util/safe-int64-bytes.js';
import type { CellData, RowData } from './driver.js';

type CellsByQualifier = Record<string, readonly CellData[]>;

/**
 * The bytes of a cell value read with `decode: false`. The client still turns
 * an 8-byte value whose int64 is a safe integer into a JS `number`; that
 * number is converted back to the exact 8 big-endian bytes.
 * @internal
 * @example
 * ```ts
 * cellValueBytes(7); // <Buffer 00 00 00 00 00 00 00 07>
 * ```
 */
export function cellValueBytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return safeInt64Bytes(value);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`unexpected cell value of type ${typeof value} from the client (expected bytes)`);
}

/**
 * A cell timestamp as the client reports it (a decimal string, a number, or a
 * `Long`) in microseconds.
 * @internal
 * @example
 * ```ts
 * timestampMicros('1700000000000000'); // 1700000000000000
 * ```
 */
export function timestampMicros(value: unknown): number {
  if (typeof value === 'string') {
    const micros = decimalValue(value);
    if (micros >= 0) return micros;
  }
  const micros = Number(typeof value === 'number' ? value : String(value));
  if (!Number.isFinite(micros)) throw new TypeError(`unexpected cell timestamp ${String(value)} from the client`);
  return micros;
}

/**
 * The value of 1 to 16 ASCII digits when it is a safe integer (then the sum
 * is exact, so it equals `Number(text)`); -1 for anything else, left to `Number`.
 */
function decimalValue(text: string): number {
  const value = text.length > 16 ? -1 : digitsValue(text);
  return value <= Number.MAX_SAFE_INTEGER ? value : -1;
}

/**
 * Normalises a client `Row` read with `decode: false` (`row.id` a Buffer,
 * `row.data[family][qualifier] = [{ value, timestamp }]`, newest first) to {@link RowData}.
 * A timestamp string equal to the previous cell's (cells written together
 * share one) is converted once per run of equal strings.
 * @internal
 * @example
 * ```ts
 * for await (const row of table.createReadStream({ decode: false })) use(fromClientRow(row));
 * ```
 */
export function fromClientRow(row: unknown): RowData {
  const { id, data } = row as { id: unknown; data?: Record<string, Record<string, readonly { value: unknown; timestamp: unknown }[]>> };
  const key = Buffer.isBuffer(id) ? id : Buffer.from(String(id), 'utf8');
  if (data === undefined) return { key, cells: {} };
  // Copies of the client's objects already have every key, in order (an own
  // `__proto__` key included), so filling them in adds no property.
  const cells = { ...data } as unknown as Record<string, CellsByQualifier>;
  let lastTimestamp: string | undefined;
  let lastMicros = 0;
  for (const family of Object.keys(data)) {
    const columns = data[family] as Record<string, readonly { value: unknown; timestamp: unknown }[]>;
    const out = { ...columns } as unknown as Record<string, readonly CellData[]>;
    for (const qualifier of Object.keys(columns)) {
      const versions = columns[qualifier] as readonly { value: unknown; timestamp: unknown }[];
      const list: CellData[] = new Array<CellData>(versions.length);
      for (let i = 0; i < versions.length; i++) {
        const cell = versions[i] as { value: unknown; timestamp: unknown };
        const value = cellValueBytes(cell.value);
        const timestamp = cell.timestamp;
        if (typeof timestamp !== 'string') {
          list[i] = { value, timestampMicros: timestampMicros(timestamp) };
          continue;
        }
        if (timestamp !== lastTimestamp) {
          lastMicros = timestampMicros(timestamp);
          lastTimestamp = timestamp;
        }
        list[i] = { value, timestampMicros: lastMicros };
      }
      out[qualifier] = list;
    }
    cells[family] = out;
  }
  return { key, cells };
}

/**
 * The parts of a `google.bigtable.v2.Row` proto that {@link fromProtoRow} reads.
 * @internal
 * @example
 * ```ts
 * const row: ProtoRow = { key: Buffer.from('k'), families: [{ name: 'c', columns: [] }] };
 * ```
 */
export interface ProtoRow {
  readonly key?: unknown;
  readonly families?: readonly {
    readonly name: string;
    readonly columns?: readonly { readonly qualifier: unknown; readonly cells?: readonly { readonly value: unknown; readonly timestampMicros: unknown }[] }[];
  }[];
}

/**
 * Normalises a `google.bigtable.v2.Row` proto (e.g. a ReadModifyWriteRow
 * response) to {@link RowData}, keeping the exact value bytes.
 * @internal
 * @example
 * ```ts
 * const row = fromProtoRow(response.row, rowKey);
 * ```
 */
export function fromProtoRow(row: ProtoRow | null | undefined, fallbackKey: Buffer): RowData {
  const families = new Map<string, Map<string, CellData[]>>();
  for (const family of row?.families ?? []) {
    const columns = families.get(family.name) ?? new Map<string, CellData[]>();
    families.set(family.name, columns);
    for (const column of family.columns ?? []) {
      const qualifier = cellValueBytes(column.qualifier).toString('utf8');
      const versions = columns.get(qualifier) ?? [];
      columns.set(qualifier, versions);
      for (const cell of column.cells ?? []) versions.push({ value: cellValueBytes(cell.value), timestampMicros: timestampMicros(cell.timestampMicros) });
    }
  }
  const cells = Object.fromEntries([...families].map(([name, columns]) => [name, Object.fromEntries(columns)]));
  return { key: Buffer.isBuffer(row?.key) ? row.key : fallbackKey, cells };
}
