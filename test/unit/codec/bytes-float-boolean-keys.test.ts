import { describe, expect, it } from 'vitest';
import { createKeyCodec } from '../../../src/codec/key-codecs.js';
import { createOrderedKeyCodec, encodeInt64 } from '../../../src/codec/ordered-code.js';
import { KeyEncodingError, MetadataError } from '../../../src/errors/errors.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';
import { compareKeyValues } from '../../../src/key/key-ranges.js';

const text = (options: KeyPartOptions, separator = '#') => createKeyCodec('Reading', 'part', options, separator);
const ordered = (options: KeyPartOptions) => createOrderedKeyCodec('Reading', 'part', options);

describe('bytes, float and boolean key options', () => {
  it.each<[string, KeyPartOptions, RegExp]>([
    ['bytes width', { type: 'bytes', width: 4 }, /Reading\.part: bytes components have no width/],
    ['bytes descending', { type: 'bytes', descending: true }, /cannot be descending in keyFormat 'text'/],
    ['bytes maxLength 0', { type: 'bytes', maxLength: 0 }, /maxLength 0 is not an integer from 1 to 2048/],
    ['bytes format', { type: 'bytes', format: 'iso' }, /format applies only to timestamp key parts/],
    ['bytes verbatim', { type: 'bytes', verbatim: true }, /verbatim and charset apply only to string key parts/],
    ['float width', { type: 'float', width: 16 }, /Reading\.part: float components have no width/],
    ['float maxLength', { type: 'float', maxLength: 8 }, /maxLength applies only to string and bytes key parts/],
    ['float format', { type: 'float', format: 'epoch-ms' }, /format applies only to timestamp key parts/],
    ['boolean width', { type: 'boolean', width: 1 }, /boolean components have no width/],
    ['boolean descending not boolean', { type: 'boolean', descending: 'yes' as never }, /descending must be true/],
  ])('text format rejects %s with MetadataError naming Entity.property', (_name, options, message) => {
    expect(() => text(options)).toThrow(MetadataError);
    expect(() => text(options)).toThrow(message);
  });

  it('text bytes need a separator below the hex digits', () => {
    expect(() => text({ type: 'bytes' }, '|')).toThrow(/key separator that sorts below the hex digits, not "\|"/);
    expect(() => text({ type: 'bytes' }, ':')).toThrow(MetadataError);
    expect(text({ type: 'bytes' }, '/').encode(Buffer.from([1]))).toBe('01');
  });

  it.each<[string, KeyPartOptions, RegExp]>([
    ['float width', { type: 'float', width: 16 }, /width has no meaning in keyFormat 'ordered-code'/],
    ['boolean format', { type: 'boolean', format: 'iso' }, /format has no meaning/],
    ['float maxLength', { type: 'float', maxLength: 8 }, /maxLength applies only to string and bytes key parts/],
    [
      'bytes maxLength too large',
      { type: 'bytes', maxLength: 5000 },
      /maxLength 5000 is not an integer from 1 to 4096/,
    ],
  ])('ordered-code rejects %s with MetadataError', (_name, options, message) => {
    expect(() => ordered(options)).toThrow(MetadataError);
    expect(() => ordered(options)).toThrow(message);
  });

  it('ordered-code allows descending bytes, floats and booleans', () => {
    for (const type of ['bytes', 'float', 'boolean'] as const)
      expect(ordered({ type, descending: true }).descending).toBe(true);
  });
});

describe('bytes key parts', () => {
  it('are lowercase hex in text keys and decode to a Buffer', () => {
    const codec = text({ type: 'bytes' });
    expect(codec.encode(new Uint8Array([0x00, 0xab, 0xff]))).toBe('00abff');
    expect(codec.encode(Buffer.from([0x12, 0x34, 0x56]).subarray(1))).toBe('3456');
    expect(codec.decode('00abff')).toEqual(Buffer.from([0x00, 0xab, 0xff]));
  });

  it.each<[string, unknown]>([
    ['empty', new Uint8Array(0)],
    ['string', 'abcd'],
    ['array', [1, 2]],
    ['too long', Buffer.alloc(5)],
  ])('reject a %s value with KeyEncodingError', (_name, value) => {
    expect(() => text({ type: 'bytes', maxLength: 4 }).encode(value)).toThrow(KeyEncodingError);
    expect(() => ordered({ type: 'bytes', maxLength: 4 }).fieldBytes(value)).toThrow(KeyEncodingError);
  });

  it.each(['', 'a', 'AB', 'zz', '0g', '0102030405'])('reject the stored text %j', (stored) => {
    expect(() => text({ type: 'bytes', maxLength: 4 }).decode(stored)).toThrow(KeyEncodingError);
  });

  it('are raw struct field bytes in ordered-code keys, a BYTES field to GoogleSQL', () => {
    const codec = ordered({ type: 'bytes' });
    expect(codec.schemaType).toBe('bytes');
    expect(codec.fieldBytes(new Uint8Array([0, 0xff]))).toEqual(Buffer.from([0, 0xff]));
    expect(codec.fromFieldBytes(Buffer.from([7]))).toEqual(Buffer.from([7]));
    expect(() => codec.fromFieldBytes(Buffer.alloc(0))).toThrow(KeyEncodingError);
  });
});

describe('float key parts', () => {
  it('are the order-preserving double bits as 16 hex digits', () => {
    const codec = text({ type: 'float' });
    expect(codec.encode(1)).toBe('bff0000000000000');
    expect(codec.encode(-1)).toBe('400fffffffffffff');
    expect(codec.encode(0)).toBe('8000000000000000');
    expect(text({ type: 'float', descending: true }).encode(1)).toBe('400fffffffffffff');
  });

  it('store -0 as 0 and read it back as 0', () => {
    const codec = text({ type: 'float' });
    expect(codec.encode(-0)).toBe(codec.encode(0));
    expect(Object.is(codec.decode(codec.encode(-0)), 0)).toBe(true);
    expect(ordered({ type: 'float' }).fieldBytes(-0)).toEqual(ordered({ type: 'float' }).fieldBytes(0));
  });

  it.each<[string, unknown]>([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['string', '1.5'],
    ['bigint', 1n],
  ])('reject %s with KeyEncodingError naming Entity.property', (_name, value) => {
    expect(() => text({ type: 'float' }).encode(value)).toThrow(/Reading\.part: .* is not a valid float key component/);
    expect(() => ordered({ type: 'float' }).fieldBytes(value)).toThrow(KeyEncodingError);
  });

  it.each([
    ['-0', '7fffffffffffffff'],
    ['NaN', 'fff8000000000000'],
    ['+Infinity', 'fff0000000000000'],
    ['-Infinity', '000fffffffffffff'],
    ['short', 'bff000000000000'],
  ])('reject the stored text of %s', (_name, stored) => {
    expect(() => text({ type: 'float' }).decode(stored)).toThrow(KeyEncodingError);
    expect(() => ordered({ type: 'float' }).fromFieldBytes(Buffer.from(stored, 'hex'))).toThrow(KeyEncodingError);
  });

  it('reject uppercase hex in text keys (one text per key)', () => {
    expect(() => text({ type: 'float' }).decode('BFF0000000000000')).toThrow(KeyEncodingError);
  });

  it('are an 8-byte BYTES field in ordered-code keys', () => {
    const codec = ordered({ type: 'float' });
    expect(codec.schemaType).toBe('bytes');
    expect(codec.fieldBytes(-2.5)).toHaveLength(8);
    expect(codec.fromFieldBytes(codec.fieldBytes(-2.5))).toBe(-2.5);
  });
});

describe('boolean key parts', () => {
  it('are 0 and 1 in text keys, reversed when descending', () => {
    expect(text({ type: 'boolean' }).encode(true)).toBe('1');
    expect(text({ type: 'boolean' }).encode(false)).toBe('0');
    expect(text({ type: 'boolean', descending: true }).encode(true)).toBe('0');
    expect(text({ type: 'boolean', descending: true }).decode('1')).toBe(false);
  });

  it('reject non-booleans and other stored text', () => {
    expect(() => text({ type: 'boolean' }).encode(1)).toThrow(/is not a valid boolean key component/);
    expect(() => text({ type: 'boolean' }).encode('true')).toThrow(KeyEncodingError);
    for (const stored of ['', '2', '00', 'true'])
      expect(() => text({ type: 'boolean' }).decode(stored)).toThrow(KeyEncodingError);
  });

  it('are the Int64 0 or 1 in ordered-code keys', () => {
    const codec = ordered({ type: 'boolean' });
    expect(codec.schemaType).toBe('int64');
    expect(codec.fieldBytes(true)).toEqual(encodeInt64(1n));
    expect(codec.fromFieldBytes(encodeInt64(0n))).toBe(false);
    expect(() => codec.fromFieldBytes(encodeInt64(2n))).toThrow(/not 0 or 1/);
    expect(() => codec.fieldBytes(0)).toThrow(KeyEncodingError);
  });
});

describe('compareKeyValues', () => {
  it('orders bytes byte by byte (a prefix first) and booleans false before true', () => {
    const b = (hex: string): Buffer => Buffer.from(hex, 'hex');
    expect(compareKeyValues(b('00'), b('0000'))).toBeLessThan(0);
    expect(compareKeyValues(b('ff'), b('0fff'))).toBeGreaterThan(0);
    expect(compareKeyValues(new Uint8Array([1, 2]), b('0102'))).toBe(0);
    expect(compareKeyValues(false, true)).toBeLessThan(0);
    expect(compareKeyValues(-0.5, -Number.MIN_VALUE)).toBeLessThan(0);
  });
});
