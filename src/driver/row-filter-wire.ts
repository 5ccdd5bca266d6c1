import { utf8Length } from '../util/utf8-length.js';
import type { RowFilterMessage } from './row-filter-message.js';
import type { ReadRowsMessage, RowRangeMessage } from './read-rows-message.js';
import {
  LENGTH_DELIMITED,
  VARINT,
  tag,
  bytesOf,
  delimitedSize,
  int32Size,
  int64IsZero,
  int64Size,
  stringFieldSize,
  writeStringField,
  type BytesInput,
  type NestedSizes,
  type WireWriter,
} from './proto-wire.js';
import { VAR1, VAR2, VAR13, F64_14, LEN1, LEN2, LEN3, LEN4, LEN5, LEN6, LEN7, LEN8, LEN9, LEN15 } from './wire-tags.js';

/*
 * The row set and row filter of a ReadRows request on the wire (googleapis
 * `google/bigtable/v2/data.proto`): sized first, with a slot of `sizes` for
 * each nested message, then written in field-number order. Every field of a
 * `RowFilter` is a member of its `filter` oneof, so it is written whenever set.
 */

type RowSetMessage = ReadRowsMessage['rows'];

/** The tag, length and bytes of a bytes field. */
function bytesFieldSize(value: BytesInput, tagBytes = 1): number {
  return tagBytes + delimitedSize(bytesOf(value).length);
}

/**
 * The bytes of a `RowSet`: row keys (1) and ranges (2).
 * @internal
 * @example
 * ```ts
 * rowSetSize({ rowKeys: [Buffer.from('k')], rowRanges: [] }); // 3
 * ```
 */
export function rowSetSize(rows: RowSetMessage): number {
  let size = 0;
  for (const key of rows.rowKeys ?? []) size += bytesFieldSize(key);
  for (const range of rows.rowRanges ?? []) size += 1 + delimitedSize(rowRangeSize(range));
  return size;
}

/**
 * Writes a `RowSet` sized by {@link rowSetSize}.
 * @internal
 */
export function writeRowSet(writer: WireWriter, rows: RowSetMessage): void {
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
function filtersSize(filters: readonly RowFilterMessage[] | null | undefined, sizes: NestedSizes): number {
  let size = 0;
  for (const filter of filters ?? []) size += nestedFilterSize(filter, sizes);
  return size;
}

/** A nested RowFilter with its tag and length; takes its size slot first. */
function nestedFilterSize(filter: RowFilterMessage, sizes: NestedSizes): number {
  const slot = sizes.reserve();
  const body = filterSize(filter, sizes);
  sizes.set(slot, body);
  return 1 + delimitedSize(body);
}

/** The size of a message field of a filter (tag bytes `tagBytes`): its slot, taken before its children's. */
function nestedSize(tagBytes: number, sizes: NestedSizes, body: () => number): number {
  const slot = sizes.reserve();
  const size = body();
  sizes.set(slot, size);
  return tagBytes + delimitedSize(size);
}

/**
 * The encoded size of a RowFilter's fields (its body, without a tag and
 * length), reserving the size slot of every nested message in the order
 * {@link writeFilter} takes them.
 * @internal
 */
export function filterSize(filter: RowFilterMessage, sizes: NestedSizes): number {
  let size = 0;
  const { chain, interleave, condition } = filter;
  if (chain != null) size += nestedSize(1, sizes, () => filtersSize(chain.filters, sizes));
  if (interleave != null) size += nestedSize(1, sizes, () => filtersSize(interleave.filters, sizes));
  if (condition != null)
    size += nestedSize(1, sizes, () => {
      let body = 0;
      if (condition.predicateFilter != null) body += nestedFilterSize(condition.predicateFilter, sizes);
      if (condition.trueFilter != null) body += nestedFilterSize(condition.trueFilter, sizes);
      if (condition.falseFilter != null) body += nestedFilterSize(condition.falseFilter, sizes);
      return body;
    });
  if (filter.rowKeyRegexFilter != null) size += bytesFieldSize(filter.rowKeyRegexFilter);
  if (filter.familyNameRegexFilter != null) size += 1 + delimitedSize(utf8Length(String(filter.familyNameRegexFilter)));
  if (filter.columnQualifierRegexFilter != null) size += bytesFieldSize(filter.columnQualifierRegexFilter);
  const columnRange = filter.columnRangeFilter;
  if (columnRange != null) size += nestedSize(1, sizes, () => columnRangeSize(columnRange));
  const timestampRange = filter.timestampRangeFilter;
  if (timestampRange != null) size += nestedSize(1, sizes, () => timestampRangeSize(timestampRange));
  if (filter.valueRegexFilter != null) size += bytesFieldSize(filter.valueRegexFilter);
  if (filter.cellsPerRowOffsetFilter != null) size += 1 + int32Size(filter.cellsPerRowOffsetFilter | 0);
  if (filter.cellsPerRowLimitFilter != null) size += 1 + int32Size(filter.cellsPerRowLimitFilter | 0);
  if (filter.cellsPerColumnLimitFilter != null) size += 1 + int32Size(filter.cellsPerColumnLimitFilter | 0);
  if (filter.stripValueTransformer != null) size += 2;
  if (filter.rowSampleFilter != null) size += 9;
  const valueRange = filter.valueRangeFilter;
  if (valueRange != null) size += nestedSize(1, sizes, () => boundsSize(valueBounds(valueRange)));
  if (filter.sink != null) size += 3;
  if (filter.passAllFilter != null) size += 3;
  if (filter.blockAllFilter != null) size += 3;
  if (filter.applyLabelTransformer != null) size += 2 + delimitedSize(utf8Length(String(filter.applyLabelTransformer)));
  const bitmask = filter.valueBitmaskFilter;
  if (bitmask != null) size += nestedSize(2, sizes, () => maskSize(bitmask.mask));
  return size;
}

/** Writes the tag of a field from 16 on: two bytes. */
function wideTag(writer: WireWriter, field: number, wireType: number): void {
  const value = (field << 3) | wireType;
  writer.byte((value & 0x7f) | 0x80);
  writer.byte(value >>> 7);
}

function writeNestedFilter(writer: WireWriter, field: number, filter: RowFilterMessage, sizes: NestedSizes): void {
  writer.byte(tag(field, LENGTH_DELIMITED));
  writer.varint(sizes.take());
  writeFilter(writer, filter, sizes);
}

/**
 * Writes a RowFilter's fields with the nested sizes {@link filterSize} recorded.
 * @internal
 */
export function writeFilter(writer: WireWriter, filter: RowFilterMessage, sizes: NestedSizes): void {
  const { chain, interleave, condition } = filter;
  for (const [field, group] of [
    [1, chain],
    [2, interleave],
  ] as const) {
    if (group == null) continue;
    writer.byte(tag(field, LENGTH_DELIMITED));
    writer.varint(sizes.take());
    for (const nested of group.filters ?? []) writeNestedFilter(writer, 1, nested, sizes);
  }
  if (condition != null) {
    writer.byte(LEN3);
    writer.varint(sizes.take());
    if (condition.predicateFilter != null) writeNestedFilter(writer, 1, condition.predicateFilter, sizes);
    if (condition.trueFilter != null) writeNestedFilter(writer, 2, condition.trueFilter, sizes);
    if (condition.falseFilter != null) writeNestedFilter(writer, 3, condition.falseFilter, sizes);
  }
  if (filter.rowKeyRegexFilter != null) {
    writer.byte(LEN4);
    writer.bytes(bytesOf(filter.rowKeyRegexFilter));
  }
  if (filter.familyNameRegexFilter != null) {
    const text = String(filter.familyNameRegexFilter);
    writer.byte(LEN5);
    writer.string(text, utf8Length(text));
  }
  if (filter.columnQualifierRegexFilter != null) {
    writer.byte(LEN6);
    writer.bytes(bytesOf(filter.columnQualifierRegexFilter));
  }
  const columnRange = filter.columnRangeFilter;
  if (columnRange != null) {
    writer.byte(LEN7);
    writer.varint(sizes.take());
    writeStringField(writer, LEN1, columnRange.familyName);
    writeBounds(writer, qualifierBounds(columnRange), 2);
  }
  const timestampRange = filter.timestampRangeFilter;
  if (timestampRange != null) {
    writer.byte(LEN8);
    writer.varint(sizes.take());
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
    writer.varint(sizes.take());
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
    writer.string(text, utf8Length(text));
  }
  const bitmask = filter.valueBitmaskFilter;
  if (bitmask != null) {
    wideTag(writer, 20, LENGTH_DELIMITED);
    writer.varint(sizes.take());
    const mask = bitmask.mask;
    if (mask != null && bytesOf(mask).length > 0) {
      writer.byte(LEN1);
      writer.bytes(bytesOf(mask));
    }
  }
}
