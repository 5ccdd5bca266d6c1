import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import {
  ProtoWireError,
  WireReader,
  WireWriter,
  int32Size,
  int64Size,
  varintSize,
  type Int64Input,
} from '../../../src/driver/proto-wire.js';
import { utf8Length } from '../../../src/util/utf8-length.js';
import { propertyRuns } from '../../support/property-runs.js';

/** The `long` package protobufjs converts int64 values with (`fromObject` calls `Long.fromValue`). */
const Long = protobuf.util.Long as unknown as { fromValue(value: number | string): protobuf.Long };

/** The bytes protobufjs writes for an int64 given to `fromObject` (so through `Long.fromValue`). */
function referenceInt64(value: number | string): Buffer {
  return Buffer.from(protobuf.Writer.create().int64(Long.fromValue(value)).finish());
}

function writeInt64(value: Int64Input): Buffer {
  const writer = new WireWriter(int64Size(value));
  writer.int64(value);
  return writer.finish();
}

function readInt64(bytes: Buffer): number | string {
  const reader = new WireReader(bytes);
  const value = reader.int64();
  expect(reader.pos).toBe(bytes.length);
  return value;
}

/** An int64 as the reader returns it: a number when safe, else its decimal string. */
function int64View(value: bigint): number | string {
  return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
}

const int64Arb = fc.oneof(
  fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n, 2n ** 53n - 1n, -(2n ** 53n), 2n ** 56n, 2n ** 31n),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.integer({ min: 0, max: 63 }).chain((bits) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n })),
);

describe('int64', () => {
  it('writes a decimal string or bigint as protobufjs does, and reads it back exactly', () => {
    fc.assert(
      fc.property(int64Arb, (value) => {
        const bytes = writeInt64(value.toString());
        expect(bytes.toString('hex')).toBe(referenceInt64(value.toString()).toString('hex'));
        expect(writeInt64(value).equals(bytes)).toBe(true);
        expect(readInt64(bytes)).toBe(int64View(value));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('writes any number as protobufjs does (NaN as 0, fractions truncated, out of range saturated)', () => {
    const special = fc.constantFrom(Number.NaN, Infinity, -Infinity, 2 ** 63, -(2 ** 63), 2 ** 64, -0.5, 1.5, -1);
    fc.assert(
      fc.property(fc.oneof(special, fc.maxSafeInteger(), fc.double()), (value) => {
        expect(writeInt64(value).toString('hex')).toBe(referenceInt64(value).toString('hex'));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('rejects text that is not a decimal int64', () => {
    for (const text of ['9223372036854775808', '-9223372036854775809', '1.5', ' 1', '0x10', '', '-'])
      expect(() => int64Size(text)).toThrow(ProtoWireError);
  });
});

describe('varints, int32, doubles and strings', () => {
  it('sizes and writes varints and int32s as protobufjs does', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger().map(Math.abs), fc.integer(), (value, int) => {
        const writer = new WireWriter(varintSize(value) + int32Size(int));
        writer.varint(value);
        writer.int32(int);
        const reference = protobuf.Writer.create().int64(value).int32(int).finish();
        expect(writer.finish().toString('hex')).toBe(Buffer.from(reference).toString('hex'));
        const reader = new WireReader(writer.buf);
        expect(reader.int64()).toBe(value);
        expect(reader.int32()).toBe(int);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('measures and writes strings as UTF-8 (lone surrogates as U+FFFD, as Buffer does)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.constant('\ud800'), fc.string({ unit: 'binary', maxLength: 1 })) }),
        (text) => {
          const length = utf8Length(text);
          expect(length).toBe(Buffer.byteLength(text, 'utf8'));
          const writer = new WireWriter(varintSize(length) + length);
          writer.string(text, length);
          const reader = new WireReader(writer.finish());
          expect(reader.string()).toBe(Buffer.from(text, 'utf8').toString('utf8'));
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('reads and writes doubles, bools and bytes', () => {
    const writer = new WireWriter(8 + 1 + 4);
    writer.double(-0.1);
    writer.bool(true);
    writer.bytes(Buffer.from('abc'));
    const reader = new WireReader(writer.finish());
    expect(reader.double()).toBe(-0.1);
    expect(reader.bool()).toBe(true);
    expect(reader.bytes().toString()).toBe('abc');
  });

  it('refuses to finish a message whose size was computed wrong', () => {
    const writer = new WireWriter(3);
    writer.byte(1);
    expect(() => writer.finish()).toThrow(/wrote 1 bytes into a message of 3/);
  });
});

describe('WireReader on malformed input', () => {
  const reader = (hex: string): WireReader => new WireReader(Buffer.from(hex, 'hex'));

  it('throws ProtoWireError for truncated varints, lengths and fixed fields', () => {
    expect(() => reader('ff').int64()).toThrow(/truncated/);
    expect(() => reader('0561').bytes()).toThrow(/truncated/);
    expect(() => reader('0561').enter()).toThrow(/truncated/);
    expect(() => reader('00000000').double()).toThrow(/truncated/);
    expect(() => reader('000000').skip(5)).toThrow(/truncated/);
    expect(() => reader('00').skip(1)).toThrow(/truncated/);
  });

  it('throws for a varint longer than 10 bytes, field number 0 and wire types 6 and 7', () => {
    expect(() => reader('ffffffffffffffffffff01').int64()).toThrow(/longer than 10 bytes/);
    expect(() => reader('ffffffff7f').uint32()).not.toThrow();
    expect(() => reader('ffffffffff01').uint32()).toThrow(/longer than 32 bits/);
    expect(() => reader('00').tag()).toThrow(/field number 0/);
    expect(() => reader('0e').skip(6)).toThrow(ProtoWireError);
    expect(() => reader('').skip(7)).toThrow(/wire type 7/);
  });

  it('skips groups, nested ones too, and rejects an unmatched end or groups nested too deep', () => {
    const group = reader('08011b10011c2c0a');
    group.skip(3); // field 1 start-group already read: a varint, a nested group of field 3, then the end-group of field 5
    expect(group.pos).toBe(7);
    expect(() => reader('').skip(4)).toThrow(/end-group tag without its start/);
    expect(() => reader('0b'.repeat(200)).skip(3)).toThrow(/nested deeper than 100/);
  });

  it('keeps nested reads inside their message', () => {
    const nested = reader('0301ffff01');
    const outer = nested.enter();
    expect(nested.end).toBe(4);
    nested.pos = 2;
    expect(() => nested.int64()).toThrow(/truncated at byte 2 of 4/);
    nested.leave(outer);
    expect(nested.end).toBe(5);
  });
});
