import type { SampleRowKeysResponse } from './data-messages.js';
import type { ReadRowsChunk } from './chunk-merger.js';
import type { ReadRowsResponse } from './read-rows-call.js';
import type { RateLimitInfo } from './mutate-rows-limiter.js';
import { WireReader } from './proto-wire.js';
import { VAR1, VAR2, VAR4, VAR7, VAR8, VAR9, F64_2, LEN1, LEN2, LEN3, LEN5, LEN6 } from './wire-tags.js';

/*
 * The responses of the hot data RPCs (ReadRows, MutateRows, SampleRowKeys)
 * read by hand from their wire bytes: field numbers from googleapis
 * `google/bigtable/v2/bigtable.proto`, `google/rpc/status.proto` and the
 * well-known types. Bytes are views of the response; int64 values are numbers,
 * or decimal strings beyond the safe integers; unknown fields are skipped; a
 * known field of another wire type, or bytes cut short, throw `ProtoWireError`.
 */

const EMPTY: Buffer = Buffer.alloc(0);

// ---------------------------------------------------------------------------
// ReadRowsResponse

/**
 * One `CellChunk` as {@link decodeReadRowsResponse} returns it: every field
 * present (one object shape), `null`, `0` or `false` when absent from the
 * wire. Bytes are views of the response buffer. `familyName` and `qualifier`
 * are wrappers when the chunk carries them, even empty (`{ value: '' }`);
 * chunks of one response share the wrapper of a repeated family, or of a
 * qualifier repeated at the same place in the next row, so wrappers are
 * read-only. `timestampMicros` is a number, or its decimal string beyond the
 * safe integers. Labels are not kept.
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
