import { utf8Length } from '../util/utf8-length.js';
import type { ReadRowsMessage } from './read-rows-message.js';
import type { MutateRowsMessage, SampleRowKeysMessage } from './data-messages.js';
import { setCellValueLength, type CellMutation, type CompiledMutation, type TextValue } from '../model/mutation.js';
import { EncodedEntry } from './encoded-entry.js';
import {
  NestedSizes,
  WireWriter,
  delimitedSize,
  int64IsZero,
  int64Size,
  stringFieldSize,
  writeStringField,
} from './proto-wire.js';
import { filterSize, rowSetSize, writeFilter, writeRowSet } from './row-filter-wire.js';
import { VAR3, VAR4, VAR6, VAR7, VAR9, LEN1, LEN2, LEN3, LEN4, LEN5, LEN6, LEN8 } from './wire-tags.js';

/*
 * The requests of the hot data RPCs (ReadRows, MutateRows, SampleRowKeys)
 * written by hand: field numbers from googleapis
 * `google/bigtable/v2/bigtable.proto` and `data.proto`. A request is sized
 * first, then written into one buffer. Fields are written in field-number
 * order, as protobufjs does, so the bytes are protobufjs's own; fields of
 * implicit presence (proto3 scalars outside a oneof) are left out at their
 * default, message and oneof fields are written whenever set.
 */

/** The sizes of the nested messages of the request being encoded (calls are synchronous: one at a time). */
const sizes = new NestedSizes();

// ---------------------------------------------------------------------------
// ReadRowsRequest

/**
 * Encodes a `google.bigtable.v2.ReadRowsRequest`: `table_name` (1), `rows`
 * (2: row keys and ranges), `filter` (3: every `RowFilter` kind, nested
 * chains, interleaves and conditions), `rows_limit` (4), `app_profile_id`
 * (5), `reversed` (7).
 * @internal
 * @example
 * ```ts
 * const bytes = encodeReadRowsRequest({ tableName: 'projects/p/instances/i/tables/t', rows: { rowKeys: [Buffer.from('k')], rowRanges: [] } });
 * ```
 */
export function encodeReadRowsRequest(message: ReadRowsMessage): Buffer {
  sizes.reset();
  let size = stringFieldSize(message.tableName);
  if (message.rows != null) {
    const rowsSlot = sizes.reserve();
    const body = rowSetSize(message.rows);
    sizes.set(rowsSlot, body);
    size += 1 + delimitedSize(body);
  }
  const filter = message.filter;
  if (filter != null) {
    const slot = sizes.reserve();
    const body = filterSize(filter, sizes);
    sizes.set(slot, body);
    size += 1 + delimitedSize(body);
  }
  const limit = message.rowsLimit;
  const hasLimit = limit != null && !int64IsZero(limit);
  if (hasLimit) size += 1 + int64Size(limit);
  size += stringFieldSize(message.appProfileId);
  if (message.reversed === true) size += 2;

  const writer = new WireWriter(size);
  writeStringField(writer, LEN1, message.tableName);
  if (message.rows != null) {
    writer.byte(LEN2);
    writer.varint(sizes.take());
    writeRowSet(writer, message.rows);
  }
  if (filter != null) {
    writer.byte(LEN3);
    writer.varint(sizes.take());
    writeFilter(writer, filter, sizes);
  }
  if (hasLimit) {
    writer.byte(VAR4);
    writer.int64(limit);
  }
  writeStringField(writer, LEN5, message.appProfileId);
  if (message.reversed === true) {
    writer.byte(VAR7);
    writer.bool(true);
  }
  return writer.finish();
}

// ---------------------------------------------------------------------------
// MutateRowsRequest

/**
 * Encodes a `google.bigtable.v2.MutateRowsRequest`: `table_name` (1),
 * `entries` (2, each encoded once by {@link encodeMutateEntry}),
 * `app_profile_id` (3).
 * @internal
 * @example
 * ```ts
 * const bytes = encodeMutateRowsRequest({
 *   tableName: 'projects/p/instances/i/tables/t',
 *   entries: [encodeMutateEntry(repo.compileSave(reading))],
 * });
 * ```
 */
export function encodeMutateRowsRequest(message: MutateRowsMessage): Buffer {
  const entries = message.entries;
  let size = stringFieldSize(message.tableName) + stringFieldSize(message.appProfileId);
  for (let i = 0; i < entries.length; i++) size += (entries[i] as EncodedEntry).bytes.length;
  const writer = new WireWriter(size);
  writeStringField(writer, LEN1, message.tableName);
  for (let i = 0; i < entries.length; i++) writer.raw((entries[i] as EncodedEntry).bytes);
  writeStringField(writer, LEN3, message.appProfileId);
  return writer.finish();
}

/** The family name whose UTF-8 length was measured last: a row names a few families many times. */
let lastFamily = '';
let lastFamilyLength = 0;

function familyLength(name: string): number {
  if (name !== lastFamily) {
    lastFamilyLength = utf8Length(name);
    lastFamily = name;
  }
  return lastFamilyLength;
}

/** `family_name` (1) of any cell mutation: left out when empty. */
function familyFieldSize(name: string): number {
  return name === '' ? 0 : 1 + delimitedSize(familyLength(name));
}

function writeFamily(writer: WireWriter, name: string): void {
  if (name === '') return;
  writer.byte(LEN1);
  writer.string(name, familyLength(name));
}

/** The qualifier's UTF-8 length: that of the compiled bytes when the mutation carries them. */
function qualifierLength(cell: ColumnCell): number {
  const bytes = cell.qualifierBytes;
  return bytes === undefined ? utf8Length(cell.qualifier) : bytes.length;
}

function writeQualifier(writer: WireWriter, cell: ColumnCell, length: number): void {
  const bytes = cell.qualifierBytes;
  if (bytes === undefined) writer.string(cell.qualifier, length);
  else writer.bytes(bytes);
}

/** A cell's column as a `SetCell` or `DeleteFromColumn` names it: `family_name` (1), `column_qualifier` (2). */
interface ColumnCell {
  readonly family: string;
  readonly qualifier: string;
  readonly qualifierBytes?: Buffer;
}

function columnFieldsSize(cell: ColumnCell): number {
  const qualifier = qualifierLength(cell);
  return familyFieldSize(cell.family) + (qualifier === 0 ? 0 : 1 + delimitedSize(qualifier));
}

function writeColumnFields(writer: WireWriter, cell: ColumnCell): void {
  writeFamily(writer, cell.family);
  const qualifier = qualifierLength(cell);
  if (qualifier > 0) {
    writer.byte(LEN2);
    writeQualifier(writer, cell, qualifier);
  }
}

/** The body sizes of the cells of the entry being encoded (encoding is synchronous: one entry at a time). */
let cellSizes = new Float64Array(64);

/**
 * Encodes one row's mutations as a MutateRows `Entry`, once (see
 * {@link EncodedEntry}): `row_key` (1) and `mutations` (2), each a
 * `SetCell`, `DeleteFromColumn`, `DeleteFromFamily`, `DeleteFromRow`,
 * `AddToCell` or `MergeToCell` of `google/bigtable/v2/data.proto`. The bytes
 * are those protobufjs writes for the mutation's raw entry (`toRawMutation`
 * of each cell): implicit-presence fields left out at their default, the
 * `Value`s of an aggregate written whenever set.
 * @internal
 * @example
 * ```ts
 * const entry = encodeMutateEntry(repo.compileSave(reading));
 * entry.bytes; // field 2 of a MutateRowsRequest: tag, length, Entry
 * ```
 */
export function encodeMutateEntry(mutation: CompiledMutation): EncodedEntry {
  const { rowKey, mutations: cells } = mutation;
  const count = cells.length;
  if (cellSizes.length < count) cellSizes = new Float64Array(Math.max(count, cellSizes.length * 2));
  const sizes = cellSizes;
  const keyLength = rowKey.length;
  let body = keyLength === 0 ? 0 : 1 + delimitedSize(keyLength);
  let dataBytes = keyLength;
  for (let i = 0; i < count; i++) {
    const cell = cells[i] as CellMutation;
    let size: number;
    switch (cell.kind) {
      case 'setCell': {
        const value = setCellValueLength(cell);
        size = columnFieldsSize(cell);
        if (cell.timestampMicros !== 0) size += 1 + int64Size(cell.timestampMicros);
        if (value > 0) size += 1 + delimitedSize(value);
        dataBytes += value;
        break;
      }
      case 'deleteFromColumn':
        size = columnFieldsSize(cell);
        break;
      case 'deleteFromFamily':
        size = familyFieldSize(cell.family);
        break;
      case 'deleteFromRow':
        size = 0;
        break;
      case 'addToCell':
        size = aggregateSize(cell, 1 + int64Size(cell.input));
        dataBytes += 8;
        break;
      case 'mergeToCell':
        size = aggregateSize(cell, 1 + delimitedSize(cell.state.length));
        dataBytes += cell.state.length;
        break;
    }
    sizes[i] = size;
    // The Mutation: one oneof member, its tag, its length, its body.
    body += 1 + delimitedSize(1 + delimitedSize(size));
  }

  const writer = new WireWriter(1 + delimitedSize(body));
  writer.byte(LEN2); // MutateRowsRequest.entries
  writer.varint(body);
  if (keyLength > 0) {
    writer.byte(LEN1);
    writer.bytes(rowKey);
  }
  for (let i = 0; i < count; i++) {
    const cell = cells[i] as CellMutation;
    const size = sizes[i] as number;
    writer.byte(LEN2); // Entry.mutations
    writer.varint(1 + delimitedSize(size));
    switch (cell.kind) {
      case 'setCell': {
        writer.byte(LEN1);
        writer.varint(size);
        writeColumnFields(writer, cell);
        if (cell.timestampMicros !== 0) {
          writer.byte(VAR3);
          writer.int64(cell.timestampMicros);
        }
        const { valueText: text, valueLength } = cell as Partial<TextValue>;
        if (text !== undefined) {
          if (text.length > 0) {
            writer.byte(LEN4);
            writer.string(text, valueLength as number);
          }
        } else if (cell.value.length > 0) {
          writer.byte(LEN4);
          writer.bytes(cell.value);
        }
        break;
      }
      case 'deleteFromColumn':
        writer.byte(LEN2);
        writer.varint(size);
        writeColumnFields(writer, cell);
        break;
      case 'deleteFromFamily':
        writer.byte(LEN3);
        writer.varint(size);
        writeFamily(writer, cell.family);
        break;
      case 'deleteFromRow':
        writer.byte(LEN4);
        writer.byte(0);
        break;
      case 'addToCell':
        writer.byte(LEN5);
        writer.varint(size);
        writeAggregateHead(writer, cell);
        writer.byte(LEN4); // input: Value { int_value }
        writer.varint(1 + int64Size(cell.input));
        writer.byte(VAR6);
        writer.int64(cell.input);
        break;
      case 'mergeToCell':
        writer.byte(LEN6);
        writer.varint(size);
        writeAggregateHead(writer, cell);
        writer.byte(LEN4); // input: Value { raw_value }
        writer.varint(1 + delimitedSize(cell.state.length));
        writer.byte(LEN8);
        writer.bytes(cell.state);
        break;
    }
  }
  return new EncodedEntry(
    mutation.table,
    rowKey,
    mutation.rowKeyText,
    mutation.idempotent,
    count,
    dataBytes,
    writer.finish(),
  );
}

/** An aggregate cell as `AddToCell`/`MergeToCell` (family, qualifier and timestamp `Value`s), its input's `Value` body `input` bytes. */
function aggregateSize(cell: ColumnCell & { readonly timestampMicros: number }, input: number): number {
  return (
    familyFieldSize(cell.family) +
    1 +
    delimitedSize(1 + delimitedSize(qualifierLength(cell))) +
    1 +
    delimitedSize(1 + int64Size(cell.timestampMicros)) +
    1 +
    delimitedSize(input)
  );
}

/** The family, and the qualifier (`raw_value`) and timestamp (`raw_timestamp_micros`) `Value`s of an aggregate cell. */
function writeAggregateHead(writer: WireWriter, cell: ColumnCell & { readonly timestampMicros: number }): void {
  writeFamily(writer, cell.family);
  const qualifier = qualifierLength(cell);
  writer.byte(LEN2);
  writer.varint(1 + delimitedSize(qualifier));
  writer.byte(LEN8);
  writeQualifier(writer, cell, qualifier);
  writer.byte(LEN3);
  writer.varint(1 + int64Size(cell.timestampMicros));
  writer.byte(VAR9);
  writer.int64(cell.timestampMicros);
}

// ---------------------------------------------------------------------------
// SampleRowKeysRequest

/**
 * Encodes a `google.bigtable.v2.SampleRowKeysRequest`: `table_name` (1), `app_profile_id` (2).
 * @internal
 * @example
 * ```ts
 * const bytes = encodeSampleRowKeysRequest({ tableName: 'projects/p/instances/i/tables/t' });
 * ```
 */
export function encodeSampleRowKeysRequest(message: SampleRowKeysMessage): Buffer {
  const writer = new WireWriter(stringFieldSize(message.tableName) + stringFieldSize(message.appProfileId));
  writeStringField(writer, LEN1, message.tableName);
  writeStringField(writer, LEN2, message.appProfileId);
  return writer.finish();
}
