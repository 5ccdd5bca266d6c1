import type { RowFilterMessage } from './row-filter-message.js';
import type { ReadRowsMessage, RowRangeMessage } from './read-rows-message.js';
import type { MutateRowsMessage, SampleRowKeysMessage, SampleRowKeysResponse } from './data-client.js';
import type { ReadRowsChunk } from './chunk-merger.js';
import type { ReadRowsResponse } from './read-rows-call.js';
import type { RateLimitInfo } from './mutate-rows-limiter.js';
import {
  WireReader,
  WireWriter,
  delimitedSize,
  int32Size,
  int64Size,
  utf8Size,
  type Int64Input,
} from './proto-wire.js';

/*
 * The protobuf messages of the hot data RPCs (ReadRows, MutateRows,
 * SampleRowKeys), written and read by hand: field numbers from googleapis
 * `google/bigtable/v2/bigtable.proto` and `data.proto`. Requests are sized
 * first, then written into one buffer. Fields are written in field-number
 * order, as protobufjs does, so the bytes are protobufjs's own; fields of
 * implicit presence (proto3 scalars outside a oneof) are left out at their
 * default, message and oneof fields are written whenever set.
 */

const EMPTY: Buffer = Buffer.alloc(0);

/*
 * Tags, `(field << 3) | wire type`, as constants (the hot loops compare them):
 * `LENn` is field n length-delimited, `VARn` field n varint, `F64_n` field n fixed64.
 */
const VAR1 = 0x08;
const VAR2 = 0x10;
const VAR3 = 0x18;
const VAR4 = 0x20;
const VAR6 = 0x30;
const VAR7 = 0x38;
const VAR8 = 0x40;
const VAR9 = 0x48;
const VAR13 = 0x68;
const F64_2 = 0x11;
const F64_14 = 0x71;
const LEN1 = 0x0a;
const LEN2 = 0x12;
const LEN3 = 0x1a;
const LEN4 = 0x22;
const LEN5 = 0x2a;
const LEN6 = 0x32;
const LEN7 = 0x3a;
const LEN8 = 0x42;
const LEN9 = 0x4a;
const LEN15 = 0x7a;
const VARINT = 0;
const LENGTH_DELIMITED = 2;

/** The tag of a field below 16 of wire type `wireType`. */
const tag = (field: number, wireType: number): number => (field << 3) | wireType;

// ---------------------------------------------------------------------------
// Sizes of nested messages, computed by the sizing pass in the order the
// writing pass meets them (a message's slot is taken before its children's).

const sizes: number[] = [];
let nextSize = 0;

function resetSizes(): void {
  sizes.length = 0;
  nextSize = 0;
}

function reserveSize(): number {
  sizes.push(0);
  return sizes.length - 1;
}

function takeSize(): number {
  return sizes[nextSize++] as number;
}

/** A bytes field as protobufjs's `fromObject` takes it: bytes, or a base64 string. */
type BytesInput = Uint8Array | string;

function bytesOf(value: BytesInput): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : value;
}

/** The tag, length and bytes of a bytes field. */
function bytesFieldSize(value: BytesInput, tagBytes = 1): number {
  return tagBytes + delimitedSize(bytesOf(value).length);
}

/** Whether an int64 is 0 once converted as {@link WireWriter.int64} converts it (so left out). */
function int64IsZero(value: Int64Input): boolean {
  if (typeof value === 'number') {
    const whole = Math.trunc(value);
    return whole === 0 || whole !== whole;
  }
  if (typeof value === 'bigint') return value === 0n;
  return /^-?0+$/.test(typeof value === 'string' ? value : String(value));
}

/** The tag, length and UTF-8 bytes of a string field, or 0 for an empty (default) one. */
function stringFieldSize(value: string | null | undefined): number {
  if (value == null || value === '') return 0;
  return 1 + delimitedSize(utf8Size(String(value)));
}

function writeStringField(writer: WireWriter, tagByte: number, value: string | null | undefined): void {
  if (value == null || value === '') return;
  const text = String(value);
  writer.byte(tagByte);
  writer.string(text, utf8Size(text));
}

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
  resetSizes();
  let size = stringFieldSize(message.tableName);
  if (message.rows != null) {
    const rowsSlot = reserveSize();
    const body = rowSetSize(message.rows);
    sizes[rowsSlot] = body;
    size += 1 + delimitedSize(body);
  }
  const filter = message.filter;
  if (filter != null) {
    const slot = reserveSize();
    const body = filterSize(filter);
    sizes[slot] = body;
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
    writer.varint(takeSize());
    writeRowSet(writer, message.rows);
  }
  if (filter != null) {
    writer.byte(LEN3);
    writer.varint(takeSize());
    writeFilter(writer, filter);
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

type RowSetMessage = ReadRowsMessage['rows'];

function rowSetSize(rows: RowSetMessage): number {
  let size = 0;
  for (const key of rows.rowKeys ?? []) size += bytesFieldSize(key);
  for (const range of rows.rowRanges ?? []) size += 1 + delimitedSize(rowRangeSize(range));
  return size;
}

function writeRowSet(writer: WireWriter, rows: RowSetMessage): void {
  for (const key of rows.rowKeys ?? []) {
    writer.byte(LEN1);
    writer.bytes(bytesOf(key));
  }
  for (const range of rows.rowRanges ?? []) {
    writer.byte(LEN2);
    writer.varint(rowRangeSize(range));
    writeRowRange(writer, range);
  }
}

/** `RowRange` and `ValueRange` and the qualifier bounds of `ColumnRange`: four oneof bytes fields. */
type FourBounds = readonly [
  BytesInput | null | undefined,
  BytesInput | null | undefined,
  BytesInput | null | undefined,
  BytesInput | null | undefined,
];

function boundsSize(bounds: FourBounds): number {
  let size = 0;
  for (const bound of bounds) if (bound != null) size += bytesFieldSize(bound);
  return size;
}

/** Writes the bounds as fields `first` to `first + 3`. */
function writeBounds(writer: WireWriter, bounds: FourBounds, first: number): void {
  for (let i = 0; i < 4; i++) {
    const bound = bounds[i];
    if (bound == null) continue;
    writer.byte(tag(first + i, LENGTH_DELIMITED));
    writer.bytes(bytesOf(bound));
  }
}

/** RowRange: start_key_closed 1, start_key_open 2, end_key_open 3, end_key_closed 4. */
function rowRangeBounds(range: RowRangeMessage): FourBounds {
  return [range.startKeyClosed, range.startKeyOpen, range.endKeyOpen, range.endKeyClosed];
}

function rowRangeSize(range: RowRangeMessage): number {
  return boundsSize(rowRangeBounds(range));
}

function writeRowRange(writer: WireWriter, range: RowRangeMessage): void {
  writeBounds(writer, rowRangeBounds(range), 1);
}

// ---------------------------------------------------------------------------
// RowFilter (every field is a member of the `filter` oneof: written when set)

type ColumnRangeMessage = NonNullable<RowFilterMessage['columnRangeFilter']>;
type TimestampRangeMessage = NonNullable<RowFilterMessage['timestampRangeFilter']>;
type ValueRangeMessage = NonNullable<RowFilterMessage['valueRangeFilter']>;

/** ColumnRange: start_qualifier_closed 2, start_qualifier_open 3, end_qualifier_closed 4, end_qualifier_open 5. */
function qualifierBounds(range: ColumnRangeMessage): FourBounds {
  return [range.startQualifierClosed, range.startQualifierOpen, range.endQualifierClosed, range.endQualifierOpen];
}

/** ValueRange: start_value_closed 1, start_value_open 2, end_value_closed 3, end_value_open 4. */
function valueBounds(range: ValueRangeMessage): FourBounds {
  return [range.startValueClosed, range.startValueOpen, range.endValueClosed, range.endValueOpen];
}

function columnRangeSize(range: ColumnRangeMessage): number {
  return stringFieldSize(range.familyName) + boundsSize(qualifierBounds(range));
}

function timestampRangeSize(range: TimestampRangeMessage): number {
  let size = 0;
  const start = range.startTimestampMicros;
  const end = range.endTimestampMicros;
  if (start != null && !int64IsZero(start)) size += 1 + int64Size(start);
  if (end != null && !int64IsZero(end)) size += 1 + int64Size(end);
  return size;
}

function writeTimestampRange(writer: WireWriter, range: TimestampRangeMessage): void {
  const start = range.startTimestampMicros;
  const end = range.endTimestampMicros;
  if (start != null && !int64IsZero(start)) {
    writer.byte(VAR1);
    writer.int64(start);
  }
  if (end != null && !int64IsZero(end)) {
    writer.byte(VAR2);
    writer.int64(end);
  }
}

function maskSize(mask: BytesInput | null | undefined): number {
  if (mask == null) return 0;
  const length = bytesOf(mask).length;
  return length === 0 ? 0 : 1 + delimitedSize(length);
}

/** The filters of a chain or an interleave: field 1, repeated. */
function filtersSize(filters: readonly RowFilterMessage[] | null | undefined): number {
  let size = 0;
  for (const filter of filters ?? []) size += nestedFilterSize(filter);
  return size;
}

/** A nested RowFilter with its tag and length; takes its size slot first. */
function nestedFilterSize(filter: RowFilterMessage): number {
  const slot = reserveSize();
  const body = filterSize(filter);
  sizes[slot] = body;
  return 1 + delimitedSize(body);
}

/** The size of a message field of a filter (tag bytes `tagBytes`): its slot, taken before its children's. */
function nestedSize(tagBytes: number, body: () => number): number {
  const slot = reserveSize();
  const size = body();
  sizes[slot] = size;
  return tagBytes + delimitedSize(size);
}

function filterSize(filter: RowFilterMessage): number {
  let size = 0;
  const { chain, interleave, condition } = filter;
  if (chain != null) size += nestedSize(1, () => filtersSize(chain.filters));
  if (interleave != null) size += nestedSize(1, () => filtersSize(interleave.filters));
  if (condition != null)
    size += nestedSize(1, () => {
      let body = 0;
      if (condition.predicateFilter != null) body += nestedFilterSize(condition.predicateFilter);
      if (condition.trueFilter != null) body += nestedFilterSize(condition.trueFilter);
      if (condition.falseFilter != null) body += nestedFilterSize(condition.falseFilter);
      return body;
    });
  if (filter.rowKeyRegexFilter != null) size += bytesFieldSize(filter.rowKeyRegexFilter);
  if (filter.familyNameRegexFilter != null) size += 1 + delimitedSize(utf8Size(String(filter.familyNameRegexFilter)));
  if (filter.columnQualifierRegexFilter != null) size += bytesFieldSize(filter.columnQualifierRegexFilter);
  const columnRange = filter.columnRangeFilter;
  if (columnRange != null) size += nestedSize(1, () => columnRangeSize(columnRange));
  const timestampRange = filter.timestampRangeFilter;
  if (timestampRange != null) size += nestedSize(1, () => timestampRangeSize(timestampRange));
  if (filter.valueRegexFilter != null) size += bytesFieldSize(filter.valueRegexFilter);
  if (filter.cellsPerRowOffsetFilter != null) size += 1 + int32Size(filter.cellsPerRowOffsetFilter | 0);
  if (filter.cellsPerRowLimitFilter != null) size += 1 + int32Size(filter.cellsPerRowLimitFilter | 0);
  if (filter.cellsPerColumnLimitFilter != null) size += 1 + int32Size(filter.cellsPerColumnLimitFilter | 0);
  if (filter.stripValueTransformer != null) size += 2;
  if (filter.rowSampleFilter != null) size += 9;
  const valueRange = filter.valueRangeFilter;
  if (valueRange != null) size += nestedSize(1, () => boundsSize(valueBounds(valueRange)));
  if (filter.sink != null) size += 3;
  if (filter.passAllFilter != null) size += 3;
  if (filter.blockAllFilter != null) size += 3;
  if (filter.applyLabelTransformer != null) size += 2 + delimitedSize(utf8Size(String(filter.applyLabelTransformer)));
  const bitmask = filter.valueBitmaskFilter;
  if (bitmask != null) size += nestedSize(2, () => maskSize(bitmask.mask));
  return size;
}

/** Writes the tag of a field from 16 on: two bytes. */
function wideTag(writer: WireWriter, field: number, wireType: number): void {
  const value = (field << 3) | wireType;
  writer.byte((value & 0x7f) | 0x80);
  writer.byte(value >>> 7);
}

function writeNestedFilter(writer: WireWriter, field: number, filter: RowFilterMessage): void {
  writer.byte(tag(field, LENGTH_DELIMITED));
  writer.varint(takeSize());
  writeFilter(writer, filter);
}

function writeFilter(writer: WireWriter, filter: RowFilterMessage): void {
  const { chain, interleave, condition } = filter;
  for (const [field, group] of [
    [1, chain],
    [2, interleave],
  ] as const) {
    if (group == null) continue;
    writer.byte(tag(field, LENGTH_DELIMITED));
    writer.varint(takeSize());
    for (const nested of group.filters ?? []) writeNestedFilter(writer, 1, nested);
  }
  if (condition != null) {
    writer.byte(LEN3);
    writer.varint(takeSize());
    if (condition.predicateFilter != null) writeNestedFilter(writer, 1, condition.predicateFilter);
    if (condition.trueFilter != null) writeNestedFilter(writer, 2, condition.trueFilter);
    if (condition.falseFilter != null) writeNestedFilter(writer, 3, condition.falseFilter);
  }
  if (filter.rowKeyRegexFilter != null) {
    writer.byte(LEN4);
    writer.bytes(bytesOf(filter.rowKeyRegexFilter));
  }
  if (filter.familyNameRegexFilter != null) {
    const text = String(filter.familyNameRegexFilter);
    writer.byte(LEN5);
    writer.string(text, utf8Size(text));
  }
  if (filter.columnQualifierRegexFilter != null) {
    writer.byte(LEN6);
    writer.bytes(bytesOf(filter.columnQualifierRegexFilter));
  }
  const columnRange = filter.columnRangeFilter;
  if (columnRange != null) {
    writer.byte(LEN7);
    writer.varint(takeSize());
    writeStringField(writer, LEN1, columnRange.familyName);
    writeBounds(writer, qualifierBounds(columnRange), 2);
  }
  const timestampRange = filter.timestampRangeFilter;
  if (timestampRange != null) {
    writer.byte(LEN8);
    writer.varint(takeSize());
    writeTimestampRange(writer, timestampRange);
  }
  if (filter.valueRegexFilter != null) {
    writer.byte(LEN9);
    writer.bytes(bytesOf(filter.valueRegexFilter));
  }
  for (const [field, limit] of [
    [10, filter.cellsPerRowOffsetFilter],
    [11, filter.cellsPerRowLimitFilter],
    [12, filter.cellsPerColumnLimitFilter],
  ] as const) {
    if (limit == null) continue;
    writer.byte(tag(field, VARINT));
    writer.int32(limit);
  }
  if (filter.stripValueTransformer != null) {
    writer.byte(VAR13);
    writer.bool(Boolean(filter.stripValueTransformer));
  }
  if (filter.rowSampleFilter != null) {
    writer.byte(F64_14);
    writer.double(Number(filter.rowSampleFilter));
  }
  const valueRange = filter.valueRangeFilter;
  if (valueRange != null) {
    writer.byte(LEN15);
    writer.varint(takeSize());
    writeBounds(writer, valueBounds(valueRange), 1);
  }
  for (const [field, flag] of [
    [16, filter.sink],
    [17, filter.passAllFilter],
    [18, filter.blockAllFilter],
  ] as const) {
    if (flag == null) continue;
    wideTag(writer, field, VARINT);
    writer.bool(Boolean(flag));
  }
  if (filter.applyLabelTransformer != null) {
    const text = String(filter.applyLabelTransformer);
    wideTag(writer, 19, LENGTH_DELIMITED);
    writer.string(text, utf8Size(text));
  }
  const bitmask = filter.valueBitmaskFilter;
  if (bitmask != null) {
    wideTag(writer, 20, LENGTH_DELIMITED);
    writer.varint(takeSize());
    const mask = bitmask.mask;
    if (mask != null && bytesOf(mask).length > 0) {
      writer.byte(LEN1);
      writer.bytes(bytesOf(mask));
    }
  }
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
  resetSizes();
  const entries = message.entries;
  let size = stringFieldSize(message.tableName) + stringFieldSize(message.appProfileId);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as MutateRowsMessage['entries'][number];
    const slot = reserveSize();
    const keyLength = entry.rowKey.length;
    let body = keyLength === 0 ? 0 : 1 + delimitedSize(keyLength);
    const mutations = entry.mutations as readonly AnyMutation[];
    for (let j = 0; j < mutations.length; j++) {
      const mutationSlot = reserveSize();
      const mutationBody = mutationSize(mutations[j] as AnyMutation);
      sizes[mutationSlot] = mutationBody;
      body += 1 + delimitedSize(mutationBody);
    }
    sizes[slot] = body;
    size += 1 + delimitedSize(body);
  }

  const writer = new WireWriter(size);
  writeStringField(writer, LEN1, message.tableName);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as MutateRowsMessage['entries'][number];
    writer.byte(LEN2);
    writer.varint(takeSize());
    if (entry.rowKey.length > 0) {
      writer.byte(LEN1);
      writer.bytes(entry.rowKey);
    }
    const mutations = entry.mutations as readonly AnyMutation[];
    for (let j = 0; j < mutations.length; j++) writeMutation(writer, mutations[j] as AnyMutation);
  }
  writeStringField(writer, LEN3, message.appProfileId);
  return writer.finish();
}

/** The body of a `Mutation`: one size slot for each member set, in field order, and theirs. */
function mutationSize(mutation: AnyMutation): number {
  let size = 0;
  const setCell = mutation.setCell;
  if (setCell != null) {
    const slot = reserveSize();
    const body = setCellSize(setCell);
    sizes[slot] = body;
    size += 1 + delimitedSize(body);
  }
  const { deleteFromColumn, deleteFromFamily, deleteFromRow, addToCell, mergeToCell } = mutation;
  if (deleteFromColumn != null) {
    const slot = reserveSize();
    let body = familyFieldSize(deleteFromColumn.familyName);
    const qualifier = deleteFromColumn.columnQualifier;
    if (qualifier != null && qualifier.length > 0) body += 1 + delimitedSize(qualifier.length);
    sizes[slot] = body;
    size += 1 + delimitedSize(body);
  }
  if (deleteFromFamily != null) {
    const slot = reserveSize();
    const body = familyFieldSize(deleteFromFamily.familyName);
    sizes[slot] = body;
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
  const slot = reserveSize();
  let body = familyFieldSize(cell.familyName);
  for (const value of [cell.columnQualifier, cell.timestamp, cell.input]) {
    if (value == null) continue;
    const valueSlot = reserveSize();
    const valueBody = valueSize(value);
    sizes[valueSlot] = valueBody;
    body += 1 + delimitedSize(valueBody);
  }
  sizes[slot] = body;
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
  writer.varint(takeSize());
  const setCell = mutation.setCell;
  if (setCell != null) {
    writer.byte(LEN1);
    writer.varint(takeSize());
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
    writer.varint(takeSize());
    writeFamily(writer, deleteFromColumn.familyName);
    const qualifier = deleteFromColumn.columnQualifier;
    if (qualifier != null && qualifier.length > 0) {
      writer.byte(LEN2);
      writer.bytes(qualifier);
    }
  }
  if (deleteFromFamily != null) {
    writer.byte(LEN3);
    writer.varint(takeSize());
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
  writer.varint(takeSize());
  writeFamily(writer, cell.familyName);
  const values = [cell.columnQualifier, cell.timestamp, cell.input];
  for (let i = 0; i < 3; i++) {
    const value = values[i];
    if (value == null) continue;
    writer.byte(tag(i + 2, LENGTH_DELIMITED));
    writer.varint(takeSize());
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

// ---------------------------------------------------------------------------
// ReadRowsResponse

/**
 * One `CellChunk` as {@link decodeReadRowsResponse} returns it: every field
 * present (one object shape), `null`, `0` or `false` when absent from the
 * wire. Bytes are views of the response buffer. `familyName` and `qualifier`
 * are wrappers when the chunk carries them, even empty (`{ value: '' }`).
 * `timestampMicros` is a number, or its decimal string beyond the safe
 * integers. Labels are not kept.
 * @internal
 */
export interface WireCellChunk extends ReadRowsChunk {
  readonly rowKey: Buffer | null;
  readonly familyName: { readonly value: string } | null;
  readonly qualifier: { readonly value: Buffer } | null;
  readonly timestampMicros: number | string;
  readonly value: Buffer | null;
  readonly valueSize: number;
  readonly resetRow: boolean;
  readonly commitRow: boolean;
}

/**
 * A decoded `ReadRowsResponse`: its chunks and `last_scanned_row_key` (`null` when absent); `request_stats` is skipped.
 * @internal
 */
export interface WireReadRowsResponse extends ReadRowsResponse {
  readonly chunks: readonly WireCellChunk[];
  readonly lastScannedRowKey: Buffer | null;
}

/** The family wrapper decoded last in the response being decoded, with where its bytes are. */
let lastFamilyWrapper: { readonly value: string } | null = null;
let lastFamilyStart = 0;
let lastFamilyBytes = -1;

/**
 * Decodes a `google.bigtable.v2.ReadRowsResponse` from its wire bytes, which
 * the chunks' bytes are views of. Throws `ProtoWireError` on malformed bytes.
 * @internal
 * @example
 * ```ts
 * const { chunks, lastScannedRowKey } = decodeReadRowsResponse(bytes);
 * merger.push(chunks, onRow);
 * ```
 */
export function decodeReadRowsResponse(bytes: Buffer): WireReadRowsResponse {
  const reader = new WireReader(bytes);
  const chunks: WireCellChunk[] = [];
  let lastScannedRowKey: Buffer | null = null;
  lastFamilyWrapper = null;
  lastFamilyBytes = -1;
  previousRow.count = 0;
  currentRow.count = 0;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) chunks.push(readChunk(reader));
    else if (fieldTag === LEN2) lastScannedRowKey = reader.bytes();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  lastFamilyWrapper = null;
  previousRow.wrappers.fill(null);
  currentRow.wrappers.fill(null);
  return { chunks, lastScannedRowKey };
}

function readChunk(reader: WireReader): WireCellChunk {
  const outer = reader.enter();
  let rowKey: Buffer | null = null;
  let familyName: { readonly value: string } | null = null;
  let qualifier: { readonly value: Buffer } | null = null;
  let timestampMicros: number | string = 0;
  let value: Buffer | null = null;
  let valueSize = 0;
  let resetRow = false;
  let commitRow = false;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    switch (fieldTag) {
      case LEN1:
        rowKey = reader.bytes();
        startQualifierRow();
        break;
      case LEN2:
        familyName = readFamily(reader);
        break;
      case LEN3:
        qualifier = readQualifier(reader);
        break;
      case VAR4:
        timestampMicros = reader.int64();
        break;
      case LEN6:
        value = reader.bytes();
        break;
      case VAR7:
        valueSize = reader.int32();
        break;
      case VAR8:
        // reset_row and commit_row are one oneof: the last one read wins.
        resetRow = reader.bool();
        commitRow = false;
        break;
      case VAR9:
        commitRow = reader.bool();
        resetRow = false;
        break;
      default:
        reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 9 && fieldTag !== LEN5);
    }
  }
  reader.leave(outer);
  return { rowKey, familyName, qualifier, timestampMicros, value, valueSize, resetRow, commitRow };
}

/** A `StringValue` family name; the wrapper of the previous one again when its bytes are the same. */
function readFamily(reader: WireReader): { readonly value: string } {
  const outer = reader.enter();
  const start = reader.pos;
  const end = reader.end;
  const length = end - start;
  const last = lastFamilyWrapper;
  if (last !== null && length === lastFamilyBytes && sameBytes(reader.buf, start, lastFamilyStart, length)) {
    reader.pos = end;
    reader.leave(outer);
    return last;
  }
  let value = '';
  while (reader.pos < end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) value = reader.string();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 === 1);
  }
  reader.leave(outer);
  const wrapper = { value };
  lastFamilyWrapper = wrapper;
  lastFamilyStart = start;
  lastFamilyBytes = length;
  return wrapper;
}

/** Whether `buf` holds the same `length` bytes at `a` and at `b`. */
function sameBytes(buf: Buffer, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}

/**
 * The qualifiers of a row, in the order its chunks name them: where each
 * `BytesValue` is in the response and the wrapper decoded from it. Rows of a
 * table mostly name the same columns in the same order, so the k-th
 * qualifier of a row is first compared with the previous row's k-th, and its
 * wrapper reused when the bytes are the same.
 */
interface RowQualifiers {
  count: number;
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  readonly wrappers: ({ readonly value: Buffer } | null)[];
}

/** The qualifiers remembered per row: a wider row's further ones are decoded each time. */
const REMEMBERED_QUALIFIERS = 64;

function rowQualifiers(): RowQualifiers {
  return {
    count: 0,
    starts: new Int32Array(REMEMBERED_QUALIFIERS),
    lengths: new Int32Array(REMEMBERED_QUALIFIERS),
    wrappers: new Array<{ readonly value: Buffer } | null>(REMEMBERED_QUALIFIERS).fill(null),
  };
}

let previousRow = rowQualifiers();
let currentRow = rowQualifiers();

/** A chunk named a row key: the row so far becomes the previous one. */
function startQualifierRow(): void {
  if (currentRow.count === 0) return;
  const previous = previousRow;
  previousRow = currentRow;
  currentRow = previous;
  currentRow.count = 0;
}

/** A `BytesValue` qualifier: the previous row's wrapper at the same position again when its bytes are the same. */
function readQualifier(reader: WireReader): { readonly value: Buffer } {
  const outer = reader.enter();
  const start = reader.pos;
  const length = reader.end - start;
  const row = currentRow;
  const at = row.count;
  let wrapper: { readonly value: Buffer } | null = null;
  if (at < REMEMBERED_QUALIFIERS) {
    const previous = previousRow;
    if (
      at < previous.count &&
      previous.lengths[at] === length &&
      sameBytes(reader.buf, start, previous.starts[at] as number, length)
    ) {
      wrapper = previous.wrappers[at] as { readonly value: Buffer };
      reader.pos = reader.end;
    }
    row.starts[at] = start;
    row.lengths[at] = length;
    row.count = at + 1;
  }
  if (wrapper === null) wrapper = { value: bytesValueBody(reader) };
  reader.leave(outer);
  if (at < REMEMBERED_QUALIFIERS) row.wrappers[at] = wrapper;
  return wrapper;
}

/** The value of a `BytesValue` the reader has entered (empty when the wrapper is). */
function bytesValueBody(reader: WireReader): Buffer {
  let value = EMPTY;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) value = reader.bytes();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 === 1);
  }
  return value;
}

// ---------------------------------------------------------------------------
// MutateRowsResponse

/**
 * A `google.protobuf.Any` among a status's details (a `google.rpc.RetryInfo`
 * is read from `value` by `retryDelayInDetails`).
 * @internal
 */
export interface WireStatusDetail {
  readonly typeUrl: string;
  readonly value: Buffer;
}

/**
 * A `google.rpc.Status` of one MutateRows entry.
 * @internal
 */
export interface WireStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly WireStatusDetail[];
}

/**
 * One `MutateRowsResponse.Entry`: the index of the entry in the request (a
 * decimal string only beyond the safe integers) and its status (`null` when absent).
 * @internal
 */
export interface WireMutateRowsEntry {
  readonly index: number | string;
  readonly status: WireStatus | null;
}

/**
 * A decoded `MutateRowsResponse`: the entries' statuses and the server's
 * `rate_limit_info` (`null` when absent, as is its `period`).
 * @internal
 */
export interface WireMutateRowsResponse {
  readonly entries: readonly WireMutateRowsEntry[];
  readonly rateLimitInfo: WireRateLimitInfo | null;
}

/**
 * `google.bigtable.v2.RateLimitInfo` as {@link decodeMutateRowsResponse} returns it.
 * @internal
 */
export interface WireRateLimitInfo extends RateLimitInfo {
  readonly period: { readonly seconds: number | string; readonly nanos: number } | null;
  readonly factor: number;
}

/**
 * Decodes a `google.bigtable.v2.MutateRowsResponse` from its wire bytes.
 * Throws `ProtoWireError` on malformed bytes.
 * @internal
 * @example
 * ```ts
 * const { entries, rateLimitInfo } = decodeMutateRowsResponse(bytes);
 * limiter.observe(rateLimitInfo);
 * ```
 */
export function decodeMutateRowsResponse(bytes: Buffer): WireMutateRowsResponse {
  const reader = new WireReader(bytes);
  const entries: WireMutateRowsEntry[] = [];
  let rateLimitInfo: WireRateLimitInfo | null = null;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) entries.push(readMutateEntry(reader));
    else if (fieldTag === LEN3) rateLimitInfo = readRateLimitInfo(reader);
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 === 1 || fieldTag >>> 3 === 3);
  }
  return { entries, rateLimitInfo };
}

function readMutateEntry(reader: WireReader): WireMutateRowsEntry {
  const outer = reader.enter();
  let index: number | string = 0;
  let status: WireStatus | null = null;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === VAR1) index = reader.int64();
    else if (fieldTag === LEN2) status = readStatus(reader);
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  reader.leave(outer);
  return { index, status };
}

function readStatus(reader: WireReader): WireStatus {
  const outer = reader.enter();
  let code = 0;
  let message = '';
  const details: WireStatusDetail[] = [];
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === VAR1) code = reader.int32();
    else if (fieldTag === LEN2) message = reader.string();
    else if (fieldTag === LEN3) details.push(readAny(reader));
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 3);
  }
  reader.leave(outer);
  return { code, message, details };
}

function readAny(reader: WireReader): WireStatusDetail {
  const outer = reader.enter();
  let typeUrl = '';
  let value = EMPTY;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) typeUrl = reader.string();
    else if (fieldTag === LEN2) value = reader.bytes();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  reader.leave(outer);
  return { typeUrl, value };
}

function readRateLimitInfo(reader: WireReader): WireRateLimitInfo {
  const outer = reader.enter();
  let period: WireRateLimitInfo['period'] = null;
  let factor = 0;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) period = readDuration(reader);
    else if (fieldTag === F64_2) factor = reader.double();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  reader.leave(outer);
  return { period, factor };
}

function readDuration(reader: WireReader): { readonly seconds: number | string; readonly nanos: number } {
  const outer = reader.enter();
  let seconds: number | string = 0;
  let nanos = 0;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === VAR1) seconds = reader.int64();
    else if (fieldTag === VAR2) nanos = reader.int32();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  reader.leave(outer);
  return { seconds, nanos };
}

// ---------------------------------------------------------------------------
// SampleRowKeysResponse

/**
 * A decoded `SampleRowKeysResponse`: `row_key` (a view of the response
 * bytes) and `offset_bytes` (a number, or its decimal string beyond the safe integers).
 * @internal
 */
export interface WireSampleRowKeysResponse extends SampleRowKeysResponse {
  readonly rowKey: Buffer;
  readonly offsetBytes: number | string;
}

/**
 * Decodes a `google.bigtable.v2.SampleRowKeysResponse` from its wire bytes.
 * Throws `ProtoWireError` on malformed bytes.
 * @internal
 * @example
 * ```ts
 * const { rowKey, offsetBytes } = decodeSampleRowKeysResponse(bytes);
 * ```
 */
export function decodeSampleRowKeysResponse(bytes: Buffer): WireSampleRowKeysResponse {
  const reader = new WireReader(bytes);
  let rowKey = EMPTY;
  let offsetBytes: number | string = 0;
  while (reader.pos < reader.end) {
    const fieldTag = reader.tag();
    if (fieldTag === LEN1) rowKey = reader.bytes();
    else if (fieldTag === VAR2) offsetBytes = reader.int64();
    else reader.skipUnknown(fieldTag, fieldTag >>> 3 <= 2);
  }
  return { rowKey, offsetBytes };
}
