/**
 * The protobuf wire format, as little of it as the data RPCs need: a writer
 * that fills one buffer of a size computed beforehand, and a reader over a
 * received buffer that hands out bytes as views of it.
 *
 * Int64 values follow protobufjs where it defines them (negative numbers as
 * 10-byte two's complement varints, numbers truncated toward zero, NaN as 0,
 * numbers beyond the int64 range saturated) and read back as a number when
 * the value is a safe integer, else as its exact decimal string.
 */

import { utf8Length } from '../util/utf8-length.js';

/**
 * The wire types: varint, 8 bytes, length-delimited, group start and end, 4 bytes.
 * @internal
 */
export const VARINT = 0;
const FIXED64 = 1;
/** @internal */
export const LENGTH_DELIMITED = 2;
const START_GROUP = 3;
const END_GROUP = 4;
const FIXED32 = 5;

/**
 * The tag of a field below 16 of wire type `wireType`.
 * @internal
 */
export const tag = (field: number, wireType: number): number => (field << 3) | wireType;

const TWO_32 = 4_294_967_296;
const TWO_63 = 9_223_372_036_854_775_808;
/** The deepest group nesting skipped before the input is called malformed. */
const MAX_GROUP_DEPTH = 100;
const EMPTY: Buffer = Buffer.alloc(0);

/**
 * The wire bytes are not a valid protobuf message of the expected type:
 * truncated, a varint longer than 10 bytes, a field of the wrong wire type, a
 * length past the end of its message, or an int64 input that is not one.
 * @internal
 * @example
 * ```ts
 * try { decodeReadRowsResponse(bytes); } catch (err) { if (err instanceof ProtoWireError) console.error(err.message); }
 * ```
 */
export class ProtoWireError extends Error {
  constructor(problem: string) {
    super(`malformed protobuf message: ${problem}`);
    this.name = 'ProtoWireError';
  }
}

/**
 * An int64 as the request messages hold it: a number (exact for safe
 * integers), a decimal string or bigint (any int64), or a `Long` (by its
 * decimal `toString()`).
 * @internal
 */
export type Int64Input = number | string | bigint | { toString(): string };

/**
 * The bytes of a varint of `value`, an integer from 0 to 2^53.
 * @internal
 * @example
 * ```ts
 * varintSize(300); // 2
 * ```
 */
export function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  if (value < 0x800000000) return 5;
  if (value < 0x40000000000) return 6;
  if (value < 0x2000000000000) return 7;
  return value < 0x100000000000000 ? 8 : 9;
}

/**
 * The bytes of a length-delimited field's value: its length as a varint, then its `length` bytes.
 * @internal
 * @example
 * ```ts
 * delimitedSize(3); // 4
 * ```
 */
export function delimitedSize(length: number): number {
  return varintSize(length) + length;
}

/**
 * The bytes of an int32 varint: negative values take 10 (sign-extended to 64 bits).
 * @internal
 * @example
 * ```ts
 * int32Size(-1); // 10
 * ```
 */
export function int32Size(value: number): number {
  return value < 0 ? 10 : varintSize(value);
}

/** The low and high 32 bits of the last int64 converted by {@link toInt64Bits}. */
let bitsLow = 0;
let bitsHigh = 0;

/**
 * Sets {@link bitsLow}/{@link bitsHigh} to the two's complement of `value`.
 * Throws {@link ProtoWireError} for a string that is not a decimal int64.
 */
function toInt64Bits(value: Int64Input): void {
  if (typeof value === 'number') numberBits(value);
  else if (typeof value === 'bigint') bigintBits(value);
  else stringBits(typeof value === 'string' ? value : String(value));
}

/** Like protobufjs's `Long.fromNumber`: NaN is 0, fractions truncate toward zero, the rest saturates. */
function numberBits(value: number): void {
  if (!(value === value) || value === 0) {
    bitsLow = 0;
    bitsHigh = 0;
    return;
  }
  if (value <= -TWO_63) {
    bitsLow = 0;
    bitsHigh = 0x80000000;
    return;
  }
  if (value >= TWO_63) {
    bitsLow = 0xffffffff;
    bitsHigh = 0x7fffffff;
    return;
  }
  const negative = value < 0;
  const magnitude = Math.trunc(negative ? -value : value);
  let low = magnitude >>> 0;
  let high = ((magnitude - low) / TWO_32) >>> 0;
  if (negative) {
    high = ~high >>> 0;
    low = ~low >>> 0;
    if (low === 0xffffffff) {
      low = 0;
      high = (high + 1) >>> 0;
    } else {
      low += 1;
    }
  }
  bitsLow = low;
  bitsHigh = high;
}

const DECIMAL_INT = /^-?\d{1,19}$/;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

function stringBits(text: string): void {
  if (!DECIMAL_INT.test(text)) throw new ProtoWireError(`int64 ${JSON.stringify(text)} is not a decimal integer`);
  // Up to 15 digits, the value is a safe integer: exact as a number.
  if (text.length <= 15) numberBits(Number(text));
  else bigintBits(BigInt(text));
}

function bigintBits(value: bigint): void {
  if (value < MIN_INT64 || value > MAX_INT64)
    throw new ProtoWireError(`int64 ${value.toString()} is outside the int64 range`);
  const bits = BigInt.asUintN(64, value);
  bitsLow = Number(bits & 0xffffffffn);
  bitsHigh = Number(bits >> 32n);
}

/** The varint length of {@link bitsLow}/{@link bitsHigh}. */
function bitsSize(): number {
  const low = bitsLow;
  const high = bitsHigh;
  if (high === 0) return varintSize(low);
  // 32 bits and those of `high`, 7 to a byte.
  if (high < 0x400) return high < 0x8 ? 5 : 6;
  if (high < 0x20000) return 7;
  if (high < 0x1000000) return 8;
  return high < 0x80000000 ? 9 : 10;
}

/**
 * The bytes of an int64 varint of `value` (10 for a negative one).
 * Throws {@link ProtoWireError} for a string or bigint that is not an int64.
 * @internal
 * @example
 * ```ts
 * int64Size(-1); // 10
 * int64Size('9223372036854775807'); // 9
 * ```
 */
export function int64Size(value: Int64Input): number {
  if (typeof value === 'number' && value >= 0 && value < 0x20000000000000) return varintSize(Math.trunc(value));
  toInt64Bits(value);
  return bitsSize();
}

/**
 * A bytes field's value as protobufjs's `fromObject` takes it: bytes, or their base64 text.
 * @internal
 */
export type BytesInput = Uint8Array | string;

/**
 * The bytes of a {@link BytesInput}.
 * @internal
 * @example
 * ```ts
 * bytesOf('AQI='); // <Buffer 01 02>
 * ```
 */
export function bytesOf(value: BytesInput): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : value;
}

/**
 * Whether an int64 is 0 once converted as {@link WireWriter.int64} converts
 * it: a proto3 encoder leaves such a field out.
 * @internal
 * @example
 * ```ts
 * int64IsZero(0.5); // true
 * int64IsZero('-0'); // true
 * ```
 */
export function int64IsZero(value: Int64Input): boolean {
  if (typeof value === 'number') {
    const whole = Math.trunc(value);
    return whole === 0 || whole !== whole;
  }
  if (typeof value === 'bigint') return value === 0n;
  return /^-?0+$/.test(typeof value === 'string' ? value : String(value));
}

/**
 * The bytes of a string field of a field number below 16 (tag, length,
 * UTF-8), or 0 for an empty one, which proto3 leaves out.
 * @internal
 * @example
 * ```ts
 * stringFieldSize('abc'); // 5
 * ```
 */
export function stringFieldSize(value: string | null | undefined): number {
  if (value == null || value === '') return 0;
  return 1 + delimitedSize(utf8Length(String(value)));
}

/**
 * Writes a string field sized by {@link stringFieldSize} (nothing for an empty one).
 * @internal
 * @example
 * ```ts
 * writeStringField(writer, 0x0a, 'abc'); // field 1
 * ```
 */
export function writeStringField(writer: WireWriter, tag: number, value: string | null | undefined): void {
  if (value == null || value === '') return;
  const text = String(value);
  writer.byte(tag);
  writer.string(text, utf8Length(text));
}

/**
 * The lengths of a message's nested messages, computed by a sizing pass
 * before the message is written: the sizing pass reserves a slot for each
 * nested message before it sizes that message's own children, and the
 * writing pass takes the slots in the same order.
 * @internal
 * @example
 * ```ts
 * sizes.reset();
 * const slot = sizes.reserve();
 * sizes.set(slot, bodySize(child)); // sizing pass
 * writer.varint(sizes.take()); // writing pass, same order
 * ```
 */
export class NestedSizes {
  readonly #sizes: number[] = [];
  #next = 0;

  /** Forgets the sizes of the previous message. */
  reset(): void {
    this.#sizes.length = 0;
    this.#next = 0;
  }

  /** A slot for the next nested message, filled by {@link set} once its children are sized. */
  reserve(): number {
    const sizes = this.#sizes;
    sizes.push(0);
    return sizes.length - 1;
  }

  set(slot: number, size: number): void {
    this.#sizes[slot] = size;
  }

  /** The next size, in the order the slots were reserved. */
  take(): number {
    return this.#sizes[this.#next++] as number;
  }
}

/**
 * Writes one message into a buffer of exactly the size computed beforehand
 * (`Buffer.allocUnsafe`, every byte written); {@link finish} checks that the
 * size was right.
 * @internal
 * @example
 * ```ts
 * const writer = new WireWriter(1 + delimitedSize(3));
 * writer.byte(0x0a); // field 1, length-delimited
 * writer.string('abc', 3);
 * writer.finish(); // <Buffer 0a 03 61 62 63>
 * ```
 */
export class WireWriter {
  readonly buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** One byte: a tag of a field below 16 is one. */
  byte(value: number): void {
    this.buf[this.pos++] = value;
  }

  /** A varint of an integer from 0 to 2^53. */
  varint(value: number): void {
    const buf = this.buf;
    let pos = this.pos;
    if (value < 0x80000000) {
      let rest = value;
      while (rest > 0x7f) {
        buf[pos++] = (rest & 0x7f) | 0x80;
        rest >>>= 7;
      }
      buf[pos++] = rest;
      this.pos = pos;
      return;
    }
    bitsLow = value >>> 0;
    bitsHigh = ((value - bitsLow) / TWO_32) >>> 0;
    this.#bits();
  }

  /** An int32 varint (`value | 0`; a negative one as 10 bytes). */
  int32(value: number): void {
    const int = value | 0;
    if (int >= 0) {
      this.varint(int);
      return;
    }
    bitsLow = int >>> 0;
    bitsHigh = 0xffffffff;
    this.#bits();
  }

  /** An int64 varint (see {@link Int64Input}). */
  int64(value: Int64Input): void {
    if (typeof value === 'number' && value >= 0 && value < 0x20000000000000) {
      this.varint(Math.trunc(value));
      return;
    }
    toInt64Bits(value);
    this.#bits();
  }

  /** A bool varint. */
  bool(value: boolean): void {
    this.buf[this.pos++] = value ? 1 : 0;
  }

  /** A double, 8 bytes little-endian. */
  double(value: number): void {
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }

  /** A bytes field's value: its length, then the bytes. */
  bytes(value: Uint8Array): void {
    const length = value.length;
    this.varint(length);
    this.raw(value);
  }

  /** Bytes as they are, without a length. */
  raw(value: Uint8Array): void {
    const length = value.length;
    const buf = this.buf;
    let pos = this.pos;
    if (length <= 32) {
      for (let i = 0; i < length; i++) buf[pos++] = value[i] as number;
    } else {
      buf.set(value, pos);
      pos += length;
    }
    this.pos = pos;
  }

  /** A string field's value, its UTF-8 length (from `utf8Length`) given. */
  string(value: string, byteLength: number): void {
    this.varint(byteLength);
    if (byteLength === value.length && byteLength <= 32) {
      const buf = this.buf;
      let pos = this.pos;
      for (let i = 0; i < byteLength; i++) buf[pos++] = value.charCodeAt(i);
      this.pos = pos;
    } else {
      this.pos += this.buf.write(value, this.pos, byteLength, 'utf8');
    }
  }

  /** The message written; throws when its size was not the one computed (a bug of the encoder). */
  finish(): Buffer {
    if (this.pos !== this.buf.length)
      throw new Error(`protobuf encoder wrote ${this.pos} bytes into a message of ${this.buf.length}`);
    return this.buf;
  }

  /** The varint of {@link bitsLow}/{@link bitsHigh}. */
  #bits(): void {
    const buf = this.buf;
    let pos = this.pos;
    let low = bitsLow;
    let high = bitsHigh;
    while (high !== 0) {
      buf[pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    while (low > 0x7f) {
      buf[pos++] = (low & 0x7f) | 0x80;
      low >>>= 7;
    }
    buf[pos++] = low;
    this.pos = pos;
  }
}

/**
 * Reads a message from a buffer without copying: bytes fields are views of
 * it. Nested messages are read in place: {@link enter} narrows the end to the
 * nested message and {@link leave} restores it. Every read checks the end
 * and throws {@link ProtoWireError} rather than read past it.
 * @internal
 * @example
 * ```ts
 * const reader = new WireReader(Buffer.from([0x08, 0x96, 0x01]));
 * reader.tag(); // 8: field 1, varint
 * reader.int64(); // 150
 * ```
 */
export class WireReader {
  readonly buf: Buffer;
  pos: number;
  end: number;

  /** The memory `buf` is a view of, and where in it `buf` starts: what the views handed out are made from. */
  readonly #arrayBuffer: ArrayBufferLike;
  readonly #offset: number;

  constructor(buf: Buffer) {
    this.buf = buf;
    this.pos = 0;
    this.end = buf.length;
    this.#arrayBuffer = buf.buffer;
    this.#offset = buf.byteOffset;
  }

  /** A field's tag (field number × 8 + wire type); field 0 is malformed. */
  tag(): number {
    const pos = this.pos;
    if (pos < this.end) {
      const first = this.buf[pos] as number;
      if (first < 0x80 && first >= 8) {
        this.pos = pos + 1;
        return first;
      }
    }
    const tag = this.uint32();
    if (tag >>> 3 === 0) throw new ProtoWireError(`field number 0 at byte ${pos}`);
    return tag;
  }

  /** A varint of at most 32 bits (lengths, tags). */
  uint32(): number {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    let value = 0;
    for (let shift = 0; shift < 32; shift += 7) {
      if (pos >= end) throw this.#truncated();
      const byte = buf[pos++] as number;
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw new ProtoWireError(`a varint longer than 32 bits at byte ${this.pos}`);
  }

  /** An int32 varint (10 bytes when negative; the low 32 bits kept). */
  int32(): number {
    this.#bits();
    return bitsLow | 0;
  }

  /** An int64 varint: a number when it is a safe integer, else its exact decimal string. */
  int64(): number | string {
    this.#bits();
    const low = bitsLow;
    const high = bitsHigh;
    if (high < 0x200000) return high * TWO_32 + low;
    if (high >= 0xffe00000) {
      // Negative: the magnitude is the two's complement, safe when below 2^53.
      const magnitudeLow = (~low + 1) >>> 0;
      const magnitudeHigh = (~high + (magnitudeLow === 0 ? 1 : 0)) >>> 0;
      if (magnitudeHigh < 0x200000 && (magnitudeHigh !== 0 || magnitudeLow !== 0))
        return -(magnitudeHigh * TWO_32 + magnitudeLow);
    }
    return BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low)).toString();
  }

  /** A bool varint. */
  bool(): boolean {
    this.#bits();
    return bitsLow !== 0 || bitsHigh !== 0;
  }

  /** A double, 8 bytes little-endian. */
  double(): number {
    const pos = this.pos;
    if (pos + 8 > this.end) throw this.#truncated();
    this.pos = pos + 8;
    return this.buf.readDoubleLE(pos);
  }

  /** A bytes field's value as a view of the buffer (a shared empty buffer when empty). */
  bytes(): Buffer {
    const buf = this.buf;
    let start = this.pos;
    let length: number;
    if (start < this.end && (buf[start] as number) < 0x80) {
      length = buf[start++] as number;
    } else {
      length = this.uint32();
      start = this.pos;
    }
    const end = start + length;
    if (end > this.end) throw this.#truncated();
    this.pos = end;
    if (length === 0) return EMPTY;
    return Buffer.from(this.#arrayBuffer, this.#offset + start, length);
  }

  /** A string field's value, decoded from UTF-8. */
  string(): string {
    const length = this.uint32();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw this.#truncated();
    this.pos = end;
    return length === 0 ? '' : this.buf.toString('utf8', start, end);
  }

  /**
   * Starts reading a nested message (a length-delimited field's value): the
   * end becomes the nested message's; returns the end to give {@link leave}.
   */
  enter(): number {
    const outer = this.end;
    const pos = this.pos;
    const first = pos < outer ? (this.buf[pos] as number) : 0x80;
    let length: number;
    if (first < 0x80) {
      length = first;
      this.pos = pos + 1;
    } else {
      length = this.uint32();
    }
    const end = this.pos + length;
    if (end > outer) throw this.#truncated();
    this.end = end;
    return outer;
  }

  /** Ends a nested message begun with {@link enter}. */
  leave(outer: number): void {
    this.end = outer;
  }

  /** Skips the value of a field of wire type `wireType` (an unknown field). */
  skip(wireType: number): void {
    let depth = 0;
    for (;;) {
      switch (wireType) {
        case VARINT:
          this.#bits();
          break;
        case FIXED64:
          this.#advance(8);
          break;
        case LENGTH_DELIMITED:
          this.#advance(this.uint32());
          break;
        case FIXED32:
          this.#advance(4);
          break;
        case START_GROUP:
          if (++depth > MAX_GROUP_DEPTH) throw new ProtoWireError(`groups nested deeper than ${MAX_GROUP_DEPTH}`);
          break;
        case END_GROUP:
          if (depth === 0) throw new ProtoWireError(`an end-group tag without its start at byte ${this.pos}`);
          depth--;
          break;
        default:
          throw new ProtoWireError(`wire type ${wireType} at byte ${this.pos}`);
      }
      if (depth === 0) return;
      wireType = this.tag() & 7;
    }
  }

  /**
   * Skips a field this message does not know; one it knows with another wire
   * type than its own is malformed.
   */
  skipUnknown(tag: number, known: boolean): void {
    if (known) throw new ProtoWireError(`field ${tag >>> 3} has wire type ${tag & 7} at byte ${this.pos}`);
    this.skip(tag & 7);
  }

  #advance(length: number): void {
    const pos = this.pos + length;
    if (pos > this.end) throw this.#truncated();
    this.pos = pos;
  }

  /** Reads a varint of up to 64 bits into {@link bitsLow}/{@link bitsHigh}. */
  #bits(): void {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    let low = 0;
    let byte: number;
    for (let shift = 0; shift < 28; shift += 7) {
      if (pos >= end) throw this.#truncated();
      byte = buf[pos++] as number;
      low |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        bitsLow = low >>> 0;
        bitsHigh = 0;
        this.pos = pos;
        return;
      }
    }
    if (pos >= end) throw this.#truncated();
    byte = buf[pos++] as number;
    low |= (byte & 0x7f) << 28;
    let high = (byte & 0x7f) >>> 4;
    for (let shift = 3; byte >= 0x80; shift += 7) {
      if (shift > 31) throw new ProtoWireError(`a varint longer than 10 bytes at byte ${this.pos}`);
      if (pos >= end) throw this.#truncated();
      byte = buf[pos++] as number;
      high |= (byte & 0x7f) << shift;
    }
    bitsLow = low >>> 0;
    bitsHigh = high >>> 0;
    this.pos = pos;
  }

  #truncated(): ProtoWireError {
    return new ProtoWireError(`truncated at byte ${this.pos} of ${this.end}`);
  }
}
