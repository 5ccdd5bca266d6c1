import { describe, expect, it } from 'vitest';
import {
  createOrderedKeyCodec,
  decodeStruct,
  encodeInt64,
  encodeStruct,
  readInt64,
  type StructField,
} from '../../../src/codec/ordered-code.js';
import { KeyEncodingError, MetadataError } from '../../../src/errors/errors.js';

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
const asc = (text: string): StructField => ({ bytes: Buffer.from(text, 'latin1'), descending: false });
const desc = (text: string): StructField => ({ bytes: Buffer.from(text, 'latin1'), descending: true });

describe('Int64 OrderedCodeBytes', () => {
  const vectors: [bigint, string][] = [
    [0n, '80'],
    [1n, '81'],
    [-1n, '7F'],
    [63n, 'BF'],
    [64n, 'C0 40'],
    [-64n, '40'],
    [-65n, '3F BF'],
    [256n, 'C1 00'],
    [-2048n, '38 00'],
    [2n ** 63n - 1n, 'FF C0 7F FF FF FF FF FF FF FF'],
    [-(2n ** 63n), '00 3F 80 00 00 00 00 00 00 00'],
  ];

  it.each(vectors)('encodes %s as %s and reads it back', (value, bytes) => {
    const encoded = encodeInt64(value);
    expect(hex(encoded)).toBe(bytes);
    expect(readInt64(encoded, 0, encoded.length)).toEqual({ value, end: encoded.length });
  });

  it('rejects values outside the signed 64-bit range', () => {
    expect(() => encodeInt64(2n ** 63n)).toThrow(RangeError);
    expect(() => encodeInt64(-(2n ** 63n) - 1n)).toThrow(RangeError);
  });

  it('reads only canonical, complete encodings', () => {
    expect(readInt64(Buffer.from([0xc0, 0x05]), 0, 2)).toBeUndefined(); // 5 in two bytes
    expect(readInt64(Buffer.from([0xc1]), 0, 1)).toBeUndefined(); // truncated
    expect(readInt64(Buffer.from([0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 0, 11)).toBeUndefined(); // 11 header bits
    expect(readInt64(Buffer.from([0x81, 0x99]), 0, 2)).toEqual({ value: 1n, end: 1 });
  });

  it('sorts as the numbers do across every encoded length', () => {
    const values: bigint[] = [];
    for (let bits = 0; bits < 63; bits++) {
      const p = 2n ** BigInt(bits);
      values.push(p - 1n, p, -p, -p - 1n);
    }
    values.push(2n ** 63n - 1n, -(2n ** 63n));
    const byValue = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const byBytes = [...byValue].sort((a, b) => Buffer.compare(encodeInt64(a), encodeInt64(b)));
    expect(byBytes).toEqual(byValue);
  });
});

describe('Struct OrderedCodeBytes', () => {
  const examples: [string, StructField[], string][] = [
    ['STRUCT()', [], '00 00'],
    ['STRUCT("")', [asc('')], '00 00'],
    ['STRUCT("", "")', [asc(''), asc('')], '00 00'],
    ['STRUCT("", "B")', [asc(''), asc('B')], '00 00 00 01 42'],
    ['STRUCT("A", "")', [asc('A'), asc('')], '41'],
    ['STRUCT("", "B", "")', [asc(''), asc('B'), asc('')], '00 00 00 01 42'],
    ['STRUCT("A", "", "C")', [asc('A'), asc(''), asc('C')], '41 00 01 00 00 00 01 43'],
    ['STRUCT("" DESC)', [desc('')], 'FF FF FF FE'],
    ['STRUCT("" DESC, "")', [desc(''), asc('')], 'FF FF FF FE'],
    ['STRUCT("" DESC, "A")', [desc(''), asc('A')], 'FF FF FF FE 41'],
    ['STRUCT("A", "" DESC, "")', [asc('A'), desc(''), asc('')], '41 00 01 FF FF FF FE'],
    ['STRUCT("", "A" DESC)', [asc(''), desc('A')], '00 00 00 01 BE FF FE'],
    ['a null byte', [asc('\u0000'), asc('\u0000')], '00 FF 00 01 00 FF'],
  ];

  it.each(examples)('encodes %s as the specification shows, and decodes it back', (_name, fields, bytes) => {
    const encoded = encodeStruct(fields);
    expect(hex(encoded)).toBe(bytes);
    const decoded = decodeStruct(
      encoded,
      0,
      encoded.length,
      fields.map((f) => f.descending),
    );
    expect(decoded?.map((b) => b.toString('latin1'))).toEqual(
      fields.map((f) => Buffer.from(f.bytes).toString('latin1')),
    );
  });

  it('rejects bytes the encoder never writes', () => {
    const reject = (bytes: number[], descending: boolean[]): void =>
      expect(decodeStruct(Buffer.from(bytes), 0, bytes.length, descending)).toBeUndefined();
    reject([0x41, 0x00, 0x01], [false]); // a terminator on a last ascending field
    reject([0x41, 0x00, 0x02, 0x42], [false, false]); // an unknown escape
    reject([0x41, 0x00], [false]); // a lone null byte
    reject([0x41, 0x00, 0x01, 0x00, 0x00], [false, false]); // a trailing empty field the encoder drops
    reject([0x41], [false, true]); // a descending field is never dropped
    reject([0x41, 0x00, 0x01, 0x42, 0x43], [false]); // more fields than declared
  });
});

describe('createOrderedKeyCodec', () => {
  it('rejects the text-format options width and format', () => {
    expect(() => createOrderedKeyCodec('Reading', 'n', { type: 'uint', width: 8 })).toThrow(MetadataError);
    expect(() => createOrderedKeyCodec('Reading', 'at', { type: 'timestamp', format: 'epoch-ms' })).toThrow(
      /Reading\.at: format has no meaning in keyFormat 'ordered-code'/,
    );
  });

  it('encodes timestamps as epoch microseconds, dates before 1970 included', () => {
    const codec = createOrderedKeyCodec('Reading', 'at', { type: 'timestamp' });
    expect(hex(codec.fieldBytes(new Date(1)))).toBe(hex(encodeInt64(1000n)));
    expect(codec.fromFieldBytes(encodeInt64(-5_000n))).toEqual(new Date(-5));
    expect(() => codec.fromFieldBytes(encodeInt64(1_500n))).toThrow(KeyEncodingError);
  });

  it('names Entity.property in value errors', () => {
    const uint = createOrderedKeyCodec('Reading', 'n', { type: 'uint' });
    expect(() => uint.fieldBytes(-1)).toThrow(/Reading\.n: -1 is not a valid uint key component: negative/);
    const text = createOrderedKeyCodec('Reading', 'id', { type: 'string' });
    expect(() => text.fieldBytes('')).toThrow(KeyEncodingError);
    expect(() => text.fromFieldBytes(Buffer.from([0xff]))).toThrow(/not UTF-8/);
    const big = createOrderedKeyCodec('Reading', 'b', { type: 'bigint' });
    expect(() => big.fieldBytes(2n ** 63n)).toThrow(/outside the signed 64-bit range/);
    const int = createOrderedKeyCodec('Reading', 'i', { type: 'int' });
    expect(() => int.fromFieldBytes(encodeInt64(2n ** 60n))).toThrow(/outside its range/);
  });
});
