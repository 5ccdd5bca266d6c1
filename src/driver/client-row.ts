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
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(BigInt(value));
    return bytes;
  }
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
  const micros = Number(typeof value === 'number' ? value : String(value));
  if (!Number.isFinite(micros)) throw new TypeError(`unexpected cell timestamp ${String(value)} from the client`);
  return micros;
}

/**
 * Normalises a client `Row` read with `decode: false` (`row.id` a Buffer,
 * `row.data[family][qualifier] = [{ value, timestamp }]`, newest first) to {@link RowData}.
 * @internal
 * @example
 * ```ts
 * for await (const row of table.createReadStream({ decode: false })) use(fromClientRow(row));
 * ```
 */
export function fromClientRow(row: unknown): RowData {
  const { id, data } = row as { id: unknown; data?: Record<string, Record<string, readonly { value: unknown; timestamp: unknown }[]>> };
  const key = Buffer.isBuffer(id) ? id : Buffer.from(String(id), 'utf8');
  const cells: Record<string, CellsByQualifier> = {};
  if (data === undefined) return { key, cells };
  for (const family of Object.keys(data)) {
    const columns = data[family] as Record<string, readonly { value: unknown; timestamp: unknown }[]>;
    const out: Record<string, readonly CellData[]> = {};
    for (const qualifier of Object.keys(columns)) {
      const versions = columns[qualifier] as readonly { value: unknown; timestamp: unknown }[];
      const list: CellData[] = new Array<CellData>(versions.length);
      for (let i = 0; i < versions.length; i++) {
        const cell = versions[i] as { value: unknown; timestamp: unknown };
        list[i] = { value: cellValueBytes(cell.value), timestampMicros: timestampMicros(cell.timestamp) };
      }
      put(out, qualifier, list);
    }
    put(cells, family, out);
  }
  return { key, cells };
}

/** Sets an own enumerable property, also for the key `__proto__` (as `Object.fromEntries` does). */
function put<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
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
