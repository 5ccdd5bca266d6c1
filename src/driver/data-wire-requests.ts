import type { ReadRowsMessage } from './read-rows-message.js';
import type { MutateRowsMessage, SampleRowKeysMessage } from './data-messages.js';
import type { RawEntry } from './client-mutation.js';
import type { CompiledMutation } from '../model/mutation.js';
import { EncodedEntry } from './encoded-entry.js';
import {
  LENGTH_DELIMITED,
  tag,
  NestedSizes,
  WireWriter,
  delimitedSize,
  int64IsZero,
  int64Size,
  stringFieldSize,
  utf8Size,
  writeStringField,
  type Int64Input,
} from './proto-wire.js';
import { filterSize, rowSetSize, writeFilter, writeRowSet } from './row-filter-wire.js';

/*
 * The requests of the hot data RPCs (ReadRows, MutateRows, SampleRowKeys)
 * written by hand: field numbers from googleapis
 * `google/bigtable/v2/bigtable.proto` and `data.proto`. A request is sized
 * first, then written into one buffer. Fields are written in field-number
 * order, as protobufjs does, so the bytes are protobufjs's own; fields of
 * implicit presence (proto3 scalars outside a oneof) are left out at their
 * default, message and oneof fields are written whenever set.
 */

/*
 * Tags, `(field << 3) | wire type`, as constants (the hot loops compare them):
 * `LENn` is field n length-delimited, `VARn` field n varint, `F64_n` field n fixed64.
 */
const VAR3 = 0x18;
const VAR4 = 0x20;
const VAR6 = 0x30;
const VAR7 = 0x38;
const VAR9 = 0x48;
const LEN1 = 0x0a;
const LEN2 = 0x12;
const LEN3 = 0x1a;
const LEN4 = 0x22;
const LEN5 = 0x2a;
const LEN8 = 0x42;

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

/** A `Mutation` with any of its oneof members set (a `RawMutation` sets one). */
interface AnyMutation {
  readonly setCell?: {
    readonly familyName: string;
    readonly columnQualifier: Buffer;
    readonly timestampMicros: number;
    readonly value: Buffer;
  };
  readonly deleteFromColumn?: { readonly familyName: string; readonly columnQualifier: Buffer };
  readonly deleteFromFamily?: { readonly familyName: string };
  readonly deleteFromRow?: object;
  readonly addToCell?: AggregateCell<{ readonly intValue?: Int64Input }>;
  readonly mergeToCell?: AggregateCell<{ readonly rawValue?: Buffer }>;
}

/** The fields of `AddToCell` and `MergeToCell`. */
interface AggregateCell<I> {
  readonly familyName: string;
  readonly columnQualifier?: ValueMessage | null;
  readonly timestamp?: ValueMessage | null;
  readonly input?: (I & ValueMessage) | null;
}

/** The `Value` members a mutation uses: raw_value 8, raw_timestamp_micros 9, int_value 6 (a oneof). */
interface ValueMessage {
  readonly rawValue?: Buffer | null;
  readonly rawTimestampMicros?: Int64Input | null;
  readonly intValue?: Int64Input | null;
}

/** The family name whose UTF-8 length was measured last: a request names a few families many times. */
let lastFamily = '';
let lastFamilyLength = 0;

function familyLength(name: string): number {
  if (name !== lastFamily) {
    lastFamilyLength = utf8Size(name);
    lastFamily = name;
  }
  return lastFamilyLength;
}

function familyFieldSize(name: string | null | undefined): number {
  if (name == null || name === '') return 0;
  return 1 + delimitedSize(familyLength(name));
}

function writeFamily(writer: WireWriter, name: string | null | undefined): void {
  if (name == null || name === '') return;
  writer.byte(LEN1);
  writer.string(name, familyLength(name));
}

/**
 * Encodes a `google.bigtable.v2.MutateRowsRequest`: `table_name` (1),
 * `entries` (2: `row_key` 1, `mutations` 2 of `SetCell`, `DeleteFromColumn`,
 * `DeleteFromFamily`, `DeleteFromRow`, `AddToCell` or `MergeToCell`),
 * `app_profile_id` (3). Sized first, then written into one buffer.
 * @internal
 * @example
 * ```ts
 * const bytes = encodeMutateRowsRequest({
 *   tableName: 'projects/p/instances/i/tables/t',
 *   entries: [{ rowKey: Buffer.from('k'), mutations: [{ deleteFromRow: {} }] }],
 * });
 * ```
 */
export function encodeMutateRowsRequest(message: MutateRowsMessage): Buffer {
  sizes.reset();
  const entries = message.entries;
  let size = stringFieldSize(message.tableName) + stringFieldSize(message.appProfileId);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as MutateRowsMessage['entries'][number];
    size += entry instanceof EncodedEntry ? entry.bytes.length : entryFieldSize(entry);
  }
  const writer = new WireWriter(size);
  writeStringField(writer, LEN1, message.tableName);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as MutateRowsMessage['entries'][number];
    if (entry instanceof EncodedEntry) writer.raw(entry.bytes);
    else writeEntryField(writer, entry);
  }
  writeStringField(writer, LEN3, message.appProfileId);
  return writer.finish();
}

/**
 * Encodes one row's mutations as a MutateRows entry (see {@link EncodedEntry}).
 * @internal
 * @example
 * ```ts
 * const entry = encodeMutateEntry(repo.compileSave(reading), toRawEntry(repo.compileSave(reading)), 42);
 * ```
 */
export function encodeMutateEntry(mutation: CompiledMutation, raw: RawEntry, dataBytes: number): EncodedEntry {
  sizes.reset();
  const writer = new WireWriter(entryFieldSize(raw));
  writeEntryField(writer, raw);
  return new EncodedEntry(
    mutation.table,
    mutation.rowKey,
    mutation.rowKeyText,
    mutation.idempotent,
    raw.mutations.length,
    dataBytes,
    writer.finish(),
  );
}

/** An entry as field 2 of the request, sized: its tag, length and body; reserves the slots its writer takes. */
function entryFieldSize(entry: RawEntry): number {
  const slot = sizes.reserve();
  const keyLength = entry.rowKey.length;
  let body = keyLength === 0 ? 0 : 1 + delimitedSize(keyLength);
  const mutations = entry.mutations as readonly AnyMutation[];
  for (let j = 0; j < mutations.length; j++) {
    const mutationSlot = sizes.reserve();
    const mutationBody = mutationSize(mutations[j] as AnyMutation);
    sizes.set(mutationSlot, mutationBody);
    body += 1 + delimitedSize(mutationBody);
  }
  sizes.set(slot, body);
  return 1 + delimitedSize(body);
}

function writeEntryField(writer: WireWriter, entry: RawEntry): void {
  writer.byte(LEN2);
  writer.varint(sizes.take());
  if (entry.rowKey.length > 0) {
    writer.byte(LEN1);
    writer.bytes(entry.rowKey);
  }
  const mutations = entry.mutations as readonly AnyMutation[];
  for (let j = 0; j < mutations.length; j++) writeMutation(writer, mutations[j] as AnyMutation);
}

/** The body of a `Mutation`: one size slot for each member set, in field order, and theirs. */
function mutationSize(mutation: AnyMutation): number {
  let size = 0;
  const setCell = mutation.setCell;
  if (setCell != null) {
    const slot = sizes.reserve();
    const body = setCellSize(setCell);
    sizes.set(slot, body);
    size += 1 + delimitedSize(body);
  }
  const { deleteFromColumn, deleteFromFamily, deleteFromRow, addToCell, mergeToCell } = mutation;
  if (deleteFromColumn != null) {
    const slot = sizes.reserve();
    let body = familyFieldSize(deleteFromColumn.familyName);
    const qualifier = deleteFromColumn.columnQualifier;
    if (qualifier != null && qualifier.length > 0) body += 1 + delimitedSize(qualifier.length);
    sizes.set(slot, body);
    size += 1 + delimitedSize(body);
  }
  if (deleteFromFamily != null) {
    const slot = sizes.reserve();
    const body = familyFieldSize(deleteFromFamily.familyName);
    sizes.set(slot, body);
    size += 1 + delimitedSize(body);
  }
  if (deleteFromRow != null) size += 2;
  if (addToCell != null) size += aggregateSize(addToCell);
  if (mergeToCell != null) size += aggregateSize(mergeToCell);
  return size;
}

function setCellSize(cell: NonNullable<AnyMutation['setCell']>): number {
  let size = familyFieldSize(cell.familyName);
  const qualifier = cell.columnQualifier.length;
  if (qualifier > 0) size += 1 + delimitedSize(qualifier);
  const timestamp = cell.timestampMicros;
  if (!int64IsZero(timestamp)) size += 1 + int64Size(timestamp);
  const value = cell.value.length;
  if (value > 0) size += 1 + delimitedSize(value);
  return size;
}

/** An `AddToCell` or `MergeToCell` with its tag and length; one slot for it, one per `Value`. */
function aggregateSize(cell: AggregateCell<ValueMessage>): number {
  const slot = sizes.reserve();
  let body = familyFieldSize(cell.familyName);
  for (const value of [cell.columnQualifier, cell.timestamp, cell.input]) {
    if (value == null) continue;
    const valueSlot = sizes.reserve();
    const valueBody = valueSize(value);
    sizes.set(valueSlot, valueBody);
    body += 1 + delimitedSize(valueBody);
  }
  sizes.set(slot, body);
  return 1 + delimitedSize(body);
}

function valueSize(value: ValueMessage): number {
  let size = 0;
  if (value.intValue != null) size += 1 + int64Size(value.intValue);
  if (value.rawValue != null) size += 1 + delimitedSize(value.rawValue.length);
  if (value.rawTimestampMicros != null) size += 1 + int64Size(value.rawTimestampMicros);
  return size;
}

function writeMutation(writer: WireWriter, mutation: AnyMutation): void {
  writer.byte(LEN2); // Entry.mutations
  writer.varint(sizes.take());
  const setCell = mutation.setCell;
  if (setCell != null) {
    writer.byte(LEN1);
    writer.varint(sizes.take());
    writeFamily(writer, setCell.familyName);
    const qualifier = setCell.columnQualifier;
    if (qualifier.length > 0) {
      writer.byte(LEN2);
      writer.bytes(qualifier);
    }
    const timestamp = setCell.timestampMicros;
    if (!int64IsZero(timestamp)) {
      writer.byte(VAR3);
      writer.int64(timestamp);
    }
    const value = setCell.value;
    if (value.length > 0) {
      writer.byte(LEN4);
      writer.bytes(value);
    }
  }
  const { deleteFromColumn, deleteFromFamily, deleteFromRow, addToCell, mergeToCell } = mutation;
  if (deleteFromColumn != null) {
    writer.byte(LEN2);
    writer.varint(sizes.take());
    writeFamily(writer, deleteFromColumn.familyName);
    const qualifier = deleteFromColumn.columnQualifier;
    if (qualifier != null && qualifier.length > 0) {
      writer.byte(LEN2);
      writer.bytes(qualifier);
    }
  }
  if (deleteFromFamily != null) {
    writer.byte(LEN3);
    writer.varint(sizes.take());
    writeFamily(writer, deleteFromFamily.familyName);
  }
  if (deleteFromRow != null) {
    writer.byte(LEN4);
    writer.byte(0);
  }
  if (addToCell != null) writeAggregate(writer, 5, addToCell);
  if (mergeToCell != null) writeAggregate(writer, 6, mergeToCell);
}

function writeAggregate(writer: WireWriter, field: number, cell: AggregateCell<ValueMessage>): void {
  writer.byte(tag(field, LENGTH_DELIMITED));
  writer.varint(sizes.take());
  writeFamily(writer, cell.familyName);
  const values = [cell.columnQualifier, cell.timestamp, cell.input];
  for (let i = 0; i < 3; i++) {
    const value = values[i];
    if (value == null) continue;
    writer.byte(tag(i + 2, LENGTH_DELIMITED));
    writer.varint(sizes.take());
    if (value.intValue != null) {
      writer.byte(VAR6);
      writer.int64(value.intValue);
    }
    if (value.rawValue != null) {
      writer.byte(LEN8);
      writer.bytes(value.rawValue);
    }
    if (value.rawTimestampMicros != null) {
      writer.byte(VAR9);
      writer.int64(value.rawTimestampMicros);
    }
  }
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
