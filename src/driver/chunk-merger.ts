import type { CellData, RowData } from '../model/driver.js';
import { sameBytes } from '../util/compare-bytes.js';
import { ownEntry } from '../util/own-entry.js';
import { responseBytes, timestampMicros } from './client-row.js';

/**
 * One `CellChunk` of a `ReadRowsResponse`, as the generated client decodes it
 * (unset fields are `undefined`, `null` or their zero value).
 * @internal
 */
export interface ReadRowsChunk {
  readonly rowKey?: Uint8Array | null;
  readonly familyName?: { readonly value?: string | null } | null;
  readonly qualifier?: { readonly value?: Uint8Array | null } | null;
  readonly timestampMicros?: unknown;
  readonly value?: Uint8Array | null;
  readonly valueSize?: number | null;
  readonly resetRow?: boolean | null;
  readonly commitRow?: boolean | null;
}

/**
 * The server sent chunks that break the ReadRows protocol (a row key that does
 * not increase, a reset that carries data, a row left open at the end, ...).
 * The read fails with it as the `DriverError`'s cause; it is never retried.
 * @internal
 */
export class InvalidChunkError extends Error {
  constructor(problem: string) {
    super(`invalid ReadRows response: ${problem}`);
    this.name = 'InvalidChunkError';
  }
}

type Columns = Record<string, CellData[]>;

const EMPTY = Buffer.alloc(0);
const MAX_REMEMBERED_QUALIFIERS = 256;

/**
 * Receives a committed row and the bytes of its key and values.
 * @internal
 */
export type MergedRowSink = (row: RowData, bytes: number) => void;

/**
 * Merges a ReadRows response stream's cell chunks into {@link RowData} rows,
 * following the protocol: the first chunk of a row names its key, family and
 * qualifier; later chunks carry the family and qualifier over until they
 * change; a value may be split over chunks (`valueSize` set on all but the
 * last); `resetRow` drops the row so far; `commitRow` completes it. Row keys
 * must strictly increase across rows (strictly decrease for a reversed read). Values stay the bytes the server sent
 * (no number or string decoding), cells of a column stay newest first.
 * Throws {@link InvalidChunkError} on a protocol violation.
 * @internal
 */
export class ChunkMerger {
  /** Key of the last committed row; `undefined` before the first. */
  lastKey: Buffer | undefined;
  #key: Buffer | undefined;
  #cells: Record<string, Columns> = {};
  #family: Columns | undefined;
  #familyName: string | undefined;
  #versions: CellData[] | undefined;
  /** Qualifiers met so far in this row; with `#names`, what the previous rows' qualifiers decoded to, by position. */
  #qualifiers = 0;
  readonly #names: { bytes: Buffer; name: string }[] = [];
  #bytes = 0;
  #partValues: Buffer[] | undefined;
  #partTimestamp = 0;
  #lastTimestamp: unknown;
  #lastMicros = 0;
  readonly #reversed: boolean;

  /** `reversed`: the read asked for rows in descending key order, so each row key must be below the last. */
  constructor(reversed = false) {
    this.#reversed = reversed;
  }

  /** Whether a row has started and not yet been committed or reset. */
  get inRow(): boolean {
    return this.#key !== undefined;
  }

  /** Merges one response's chunks; calls `emit` for each committed row, in order. */
  push(chunks: readonly ReadRowsChunk[], emit: MergedRowSink): void {
    for (const chunk of chunks) this.#chunk(chunk, emit);
  }

  /** Checks the stream ended between rows; a row left open is an {@link InvalidChunkError}. */
  finish(): void {
    if (this.#key !== undefined) throw new InvalidChunkError('the stream ended inside a row that was never committed');
  }

  #chunk(chunk: ReadRowsChunk, emit: MergedRowSink): void {
    if (chunk.resetRow === true) {
      this.#reset(chunk);
      return;
    }
    if (this.#partValues !== undefined) this.#continueValue(chunk);
    else this.#startCell(chunk);
    if (splitsValue(chunk)) {
      if (chunk.commitRow === true) throw new InvalidChunkError('a chunk with valueSize set cannot commit its row');
      return;
    }
    if (chunk.commitRow === true) this.#commit(emit);
  }

  #startCell(chunk: ReadRowsChunk): void {
    const rowKey = chunk.rowKey;
    const hasKey = hasRowKey(chunk);
    if (this.#key === undefined) {
      if (!hasKey) throw new InvalidChunkError('a row key must be set on the first chunk of a row');
      const key = responseBytes(rowKey as Uint8Array);
      const last = this.lastKey;
      if (last !== undefined && !this.#follows(key, last))
        throw new InvalidChunkError(
          `row key ${key.toString('hex')} does not follow ${last.toString('hex')} (keys must strictly ${this.#reversed ? 'decrease' : 'increase'})`,
        );
      if (chunk.familyName == null) throw new InvalidChunkError('the first chunk of a row must name a family');
      this.#key = key;
      this.#bytes = key.length;
    } else if (hasKey && !sameBytes(this.#key, responseBytes(rowKey as Uint8Array))) {
      throw new InvalidChunkError('a new row key arrived before the previous row was committed');
    }
    // A wrapper without a value is the empty string or empty bytes (proto3 defaults).
    const family = chunk.familyName == null ? undefined : (chunk.familyName.value ?? '');
    const qualifier = chunk.qualifier == null ? undefined : (chunk.qualifier.value ?? EMPTY);
    if (family !== undefined) {
      if (qualifier === undefined)
        throw new InvalidChunkError(`a chunk naming family "${family}" must also name a qualifier`);
      if (family !== this.#familyName) {
        this.#family = ownEntry(this.#cells, family, () => ({}));
        this.#familyName = family;
      }
    }
    if (qualifier !== undefined) {
      const columns = this.#family;
      if (columns === undefined) throw new InvalidChunkError('a qualifier arrived before any family');
      this.#versions = ownEntry(columns, this.#qualifierName(responseBytes(qualifier)), (): CellData[] => []);
    }
    const micros = this.#micros(chunk.timestampMicros);
    const value = chunk.value == null ? EMPTY : responseBytes(chunk.value);
    if (splitsValue(chunk)) {
      this.#partValues = [value];
      this.#partTimestamp = micros;
      return;
    }
    this.#addCell(value, micros);
  }

  /**
   * The qualifier as text. Rows of a table tend to list the same columns in
   * the same order, so the name decoded at this position in an earlier row is
   * reused when the bytes match.
   */
  #qualifierName(bytes: Buffer): string {
    const position = this.#qualifiers++;
    const known = this.#names[position];
    if (known !== undefined && sameBytes(known.bytes, bytes)) return known.name;
    const name = bytes.toString('utf8');
    // A copy: the remembered bytes must not keep a whole response message alive.
    if (position < MAX_REMEMBERED_QUALIFIERS) this.#names[position] = { bytes: Buffer.from(bytes), name };
    return name;
  }

  #continueValue(chunk: ReadRowsChunk): void {
    if (hasRowKey(chunk) || chunk.familyName != null || chunk.qualifier != null || hasTimestamp(chunk)) {
      throw new InvalidChunkError('a chunk that continues a split value must carry only value bytes');
    }
    const parts = this.#partValues as Buffer[];
    if (chunk.value != null && chunk.value.length > 0) parts.push(responseBytes(chunk.value));
    if (splitsValue(chunk)) return;
    this.#partValues = undefined;
    this.#addCell(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts), this.#partTimestamp);
  }

  #addCell(value: Buffer, micros: number): void {
    this.#bytes += value.length;
    (this.#versions as CellData[]).push({ value, timestampMicros: micros });
  }

  /** Cells written together share one timestamp string: parse each run once. */
  #micros(raw: unknown): number {
    if (raw == null) return 0;
    if (raw !== this.#lastTimestamp) {
      this.#lastMicros = timestampMicros(raw);
      this.#lastTimestamp = raw;
    }
    return this.#lastMicros;
  }

  #reset(chunk: ReadRowsChunk): void {
    if (this.#key === undefined) throw new InvalidChunkError('a reset arrived outside a row');
    const hasData =
      hasRowKey(chunk) ||
      chunk.familyName != null ||
      chunk.qualifier != null ||
      (chunk.value != null && chunk.value.length > 0) ||
      splitsValue(chunk) ||
      chunk.commitRow === true ||
      hasTimestamp(chunk);
    if (hasData) throw new InvalidChunkError('a reset chunk must carry no data');
    this.#clear();
  }

  /** Whether `key` may come after `last` in this read's direction. */
  #follows(key: Buffer, last: Buffer): boolean {
    const order = Buffer.compare(key, last);
    return this.#reversed ? order < 0 : order > 0;
  }

  #commit(emit: MergedRowSink): void {
    const row: RowData = { key: this.#key as Buffer, cells: this.#cells };
    const bytes = this.#bytes;
    this.lastKey = row.key;
    this.#clear();
    emit(row, bytes);
  }

  #clear(): void {
    this.#key = undefined;
    this.#cells = {};
    this.#family = undefined;
    this.#familyName = undefined;
    this.#versions = undefined;
    this.#qualifiers = 0;
    this.#partValues = undefined;
    this.#bytes = 0;
  }
}

/** Whether a chunk names a row key (an empty one counts as none). */
function hasRowKey(chunk: ReadRowsChunk): boolean {
  return chunk.rowKey != null && chunk.rowKey.length > 0;
}

/** Whether a chunk carries part of a split value (more parts follow). */
function splitsValue(chunk: ReadRowsChunk): boolean {
  return (chunk.valueSize ?? 0) > 0;
}

/** Whether a chunk sets a timestamp other than 0 (one that cannot be read counts as set). */
function hasTimestamp(chunk: ReadRowsChunk): boolean {
  const raw = chunk.timestampMicros;
  if (raw == null || raw === '0' || raw === 0) return false;
  try {
    return timestampMicros(raw) !== 0;
  } catch {
    return true;
  }
}
