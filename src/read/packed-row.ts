import type { CellData, RowData } from '../model/driver.js';
import { ownEntry } from '../util/own-entry.js';

/**
 * A row waiting in an ordered merge, held as one buffer instead of a tree of
 * records, arrays and views (about 30 heap objects for 10 cells). Rows wait
 * there until every bucket has caught up; held as trees, enough of them live
 * through two young-generation collections to be promoted, and the old
 * generation then fills with rows that died soon after (measured: 7× the peak
 * heap of a plain scan). A buffer and two small objects per row do not weigh
 * on the heap. Rows larger than {@link MAX_PACKED_BYTES} keep their tree.
 */
export interface PackedRow {
  /** Key bytes, then per cell: family index (u32), qualifier index (u32), timestamp (f64), value length (u32), value. */
  readonly bytes: Buffer | undefined;
  /** Length of the key at the start of `bytes`. */
  readonly keyLength: number;
  /** Bytes of key and cells, with a fixed cost per cell: what the row weighs while it waits. */
  readonly size: number;
  /** The row itself when it was not packed. */
  readonly row: RowData | undefined;
}

/** Larger rows are not copied: their tree is held as it came. */
const MAX_PACKED_BYTES = 64 * 1024;
const CELL_HEADER_BYTES = 4 + 4 + 8 + 4;

/**
 * Packs rows of one scan into {@link PackedRow}s and unpacks them, interning
 * family and qualifier names in tables shared by every bucket of the scan.
 */
export class RowPacker {
  readonly #names: string[] = [];
  readonly #indexOf = new Map<string, number>();

  pack(row: RowData): PackedRow {
    const { key, cells } = row;
    let size = key.length;
    let empty = false;
    for (const family in cells) {
      const columns = cells[family] as Readonly<Record<string, readonly CellData[]>>;
      let columnCount = 0;
      for (const qualifier in columns) {
        const versions = columns[qualifier] as readonly CellData[];
        columnCount += 1;
        if (versions.length === 0) empty = true;
        for (const cell of versions) size += CELL_HEADER_BYTES + cell.value.length;
      }
      if (columnCount === 0) empty = true;
    }
    // An empty family or column could not be told apart from a missing one once packed.
    if (empty || size > MAX_PACKED_BYTES) return { bytes: undefined, keyLength: key.length, size, row };
    const bytes = Buffer.allocUnsafe(size);
    key.copy(bytes, 0);
    let at = key.length;
    for (const family in cells) {
      const familyIndex = this.#intern(family);
      const columns = cells[family] as Readonly<Record<string, readonly CellData[]>>;
      for (const qualifier in columns) {
        const qualifierIndex = this.#intern(qualifier);
        for (const cell of columns[qualifier] as readonly CellData[]) {
          at = bytes.writeUInt32LE(familyIndex, at);
          at = bytes.writeUInt32LE(qualifierIndex, at);
          at = bytes.writeDoubleLE(cell.timestampMicros, at);
          at = bytes.writeUInt32LE(cell.value.length, at);
          at += cell.value.copy(bytes, at);
        }
      }
    }
    return { bytes, keyLength: key.length, size, row: undefined };
  }

  /** The row as it was packed: same families, columns and cells, in the same order. */
  unpack(packed: PackedRow): RowData {
    const { bytes, keyLength } = packed;
    if (bytes === undefined) return packed.row as RowData;
    const names = this.#names;
    const cells: Record<string, Record<string, CellData[]>> = {};
    let familyIndex = -1;
    let columns: Record<string, CellData[]> = {};
    let qualifierIndex = -1;
    let versions: CellData[] = [];
    let at = keyLength;
    while (at < bytes.length) {
      const nextFamily = bytes.readUInt32LE(at);
      const nextQualifier = bytes.readUInt32LE(at + 4);
      const timestampMicros = bytes.readDoubleLE(at + 8);
      const length = bytes.readUInt32LE(at + 16);
      at += CELL_HEADER_BYTES;
      if (nextFamily !== familyIndex) {
        familyIndex = nextFamily;
        columns = ownEntry(cells, names[familyIndex] as string, () => ({}));
        qualifierIndex = -1;
      }
      if (nextQualifier !== qualifierIndex) {
        qualifierIndex = nextQualifier;
        versions = ownEntry(columns, names[qualifierIndex] as string, (): CellData[] => []);
      }
      versions.push({ value: bytes.subarray(at, at + length), timestampMicros });
      at += length;
    }
    return { key: bytes.subarray(0, keyLength), cells };
  }

  #intern(name: string): number {
    let index = this.#indexOf.get(name);
    if (index === undefined) {
      index = this.#names.length;
      this.#names.push(name);
      this.#indexOf.set(name, index);
    }
    return index;
  }
}
