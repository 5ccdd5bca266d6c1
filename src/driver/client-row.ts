import { digitsValue } from '../util/ascii-digits.js';
import type { CellData, RowData } from '../model/driver.js';

/**
 * Bytes of a response message (a row key, qualifier or cell value) as a
 * Buffer, without copying.
 * @internal
 */
export function responseBytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`unexpected cell value of type ${typeof value} from the client (expected bytes)`);
}

/**
 * A cell timestamp as the client reports it (a decimal string, a number, or a
 * `Long`) in microseconds.
 * @internal
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
 * The parts of a `google.bigtable.v2.Row` proto that {@link fromProtoRow} reads.
 * @internal
 */
export interface ProtoRow {
  readonly key?: unknown;
  readonly families?: readonly {
    readonly name: string;
    readonly columns?: readonly {
      readonly qualifier: unknown;
      readonly cells?: readonly { readonly value: unknown; readonly timestampMicros: unknown }[];
    }[];
  }[];
}

/**
 * Normalises a `google.bigtable.v2.Row` proto (e.g. a ReadModifyWriteRow
 * response) to {@link RowData}, keeping the exact value bytes.
 * @internal
 */
export function fromProtoRow(row: ProtoRow | null | undefined, fallbackKey: Buffer): RowData {
  const families = new Map<string, Map<string, CellData[]>>();
  for (const family of row?.families ?? []) {
    const columns = families.get(family.name) ?? new Map<string, CellData[]>();
    families.set(family.name, columns);
    for (const column of family.columns ?? []) {
      const qualifier = responseBytes(column.qualifier).toString('utf8');
      const versions = columns.get(qualifier) ?? [];
      columns.set(qualifier, versions);
      for (const cell of column.cells ?? [])
        versions.push({ value: responseBytes(cell.value), timestampMicros: timestampMicros(cell.timestampMicros) });
    }
  }
  const cells = Object.fromEntries([...families].map(([name, columns]) => [name, Object.fromEntries(columns)]));
  return { key: Buffer.isBuffer(row?.key) ? row.key : fallbackKey, cells };
}
