import 'reflect-metadata';
import { Type } from 'class-transformer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createValueCodec } from '../../../src/codec/value-codecs.js';
import { MetadataError, ValueEncodingError } from '../../../src/errors/errors.js';
import type { ColumnScalarType, Constructor } from '../../../src/model/declarations.js';
import { propertyRuns } from '../../support/property-runs.js';

class Point {
  lat = 0;
  lng = 0;
  norm(): number {
    return Math.hypot(this.lat, this.lng);
  }
}

class Place {
  name = '';
  @Type(() => Point)
  points: Point[] = [];
}

const codec = (type: ColumnScalarType | Constructor) => createValueCodec('Reading', 'cell', type);
const RUNS = { numRuns: propertyRuns(2000) };
/** JSON has no negative zero (`JSON.stringify(-0)` is `0`), so leave it out of the round-trip. */
const hasNegativeZero = (v: unknown): boolean =>
  Object.is(v, -0) || (typeof v === 'object' && v !== null && Object.values(v).some(hasNegativeZero));
const json = fc.jsonValue({ noUnicodeString: false }).filter((v) => !hasNegativeZero(v));

const roundTrips: Array<[ColumnScalarType, fc.Arbitrary<unknown>]> = [
  ['string', fc.string({ unit: 'binary' })],
  ['int', fc.maxSafeInteger().filter((n) => !Object.is(n, -0))],
  ['float', fc.double()],
  ['boolean', fc.boolean()],
  ['date', fc.date({ noInvalidDate: true })],
  ['bigint', fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })],
  ['json', json],
  ['bytes', fc.uint8Array({ maxLength: 32 }).map((a) => Buffer.from(a))],
];

describe('value codecs round-trip', () => {
  it.each(roundTrips)('%s: decode(encode(x)) = x and encode gives a Buffer', (type, values) => {
    const c = codec(type);
    fc.assert(
      fc.property(values, (value) => {
        const bytes = c.encode(value);
        expect(Buffer.isBuffer(bytes)).toBe(true);
        const decoded = c.decode(bytes);
        if (typeof value === 'number') expect(Object.is(decoded, value)).toBe(true);
        else expect(decoded).toEqual(value);
      }),
      RUNS,
    );
  });

  it('int cells are int64 big-endian, compatible with Bigtable increments', () => {
    const c = codec('int');
    const incremented = Buffer.from(c.encode(41));
    incremented.writeBigInt64BE(incremented.readBigInt64BE() + 1n);
    expect(c.decode(incremented)).toBe(42);
  });

  it('an int cell an increment pushed past 2^53 decodes to its exact bigint instead of failing the read', () => {
    expect(codec('int').decode(Buffer.from('0020000000000000', 'hex'))).toBe(2n ** 53n);
    expect(codec('int').decode(Buffer.from('8000000000000000', 'hex'))).toBe(-(2n ** 63n));
  });

  it('bytes are copied both ways', () => {
    const c = codec('bytes');
    const input = new Uint8Array([1, 2, 3]);
    const encoded = c.encode(input);
    input[0] = 9;
    expect(encoded[0]).toBe(1);
    const decoded = c.decode(encoded) as Buffer;
    encoded[1] = 9;
    expect(decoded[1]).toBe(2);
  });

  it('class columns round-trip to class instances, nested @Type included', () => {
    const c = codec(Place);
    expect(c.type).toBe('class');
    const place = Object.assign(new Place(), { name: 'HQ', points: [Object.assign(new Point(), { lat: 3, lng: 4 })] });
    expect(c.encode(place).toString('utf8')).toBe('{"name":"HQ","points":[{"lat":3,"lng":4}]}');
    const decoded = c.decode(c.encode(place)) as Place;
    expect(decoded).toBeInstanceOf(Place);
    expect(decoded.points[0]).toBeInstanceOf(Point);
    expect(decoded.points[0]?.norm()).toBe(5);
    const list = codec(Point).decode(Buffer.from('[{"lat":1,"lng":0}]')) as Point[];
    expect(list[0]).toBeInstanceOf(Point);
  });
});

function cyclic(): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  o.self = o;
  return o;
}

const badValues: Array<[string, ColumnScalarType | Constructor, unknown]> = [
  ['string: number', 'string', 1],
  ['string: lone surrogate', 'string', 'x\udc00'],
  ['int: string', 'int', '1'],
  ['int: fractional', 'int', 1.5],
  ['int: NaN', 'int', Number.NaN],
  ['int: unsafe', 'int', 2 ** 53],
  ['int: bigint', 'int', 1n],
  ['float: string', 'float', '1.5'],
  ['float: bigint', 'float', 1n],
  ['boolean: number', 'boolean', 1],
  ['date: number', 'date', 0],
  ['date: invalid', 'date', new Date(Number.NaN)],
  ['bigint: number', 'bigint', 1],
  ['bigint: above int64', 'bigint', 2n ** 63n],
  ['bigint: below int64', 'bigint', -(2n ** 63n) - 1n],
  ['json: function', 'json', () => 1],
  ['json: undefined', 'json', undefined],
  ['json: symbol', 'json', Symbol('s')],
  ['json: nested bigint', 'json', { a: [1n] }],
  ['json: nested function', 'json', { f: () => 1 }],
  ['json: NaN inside', 'json', { t: Number.NaN }],
  ['json: cycle', 'json', cyclic()],
  ['bytes: string', 'bytes', 'abc'],
  ['bytes: array', 'bytes', [1, 2]],
  ['class: string', Point, 'x'],
  ['class: null', Point, null],
  ['class: bigint field', Point, { lat: 1n }],
];

const badBytes: Array<[string, ColumnScalarType | Constructor, string]> = [
  ['string: malformed UTF-8', 'string', 'c328'],
  ['int: 4 bytes', 'int', '00000001'],
  ['int: empty', 'int', ''],
  ['float: 7 bytes', 'float', '00000000000000'],
  ['boolean: 2', 'boolean', '02'],
  ['boolean: 8-byte int64', 'boolean', '0000000000000001'],
  ['boolean: empty', 'boolean', ''],
  ['date: 9 bytes', 'date', '000000000000000000'],
  ['date: beyond Date', 'date', '7fffffffffffffff'],
  ['bigint: 1 byte', 'bigint', '01'],
  ['json: not JSON', 'json', '7b'],
  ['json: malformed UTF-8', 'json', '22ff22'],
  ['class: a number', Point, '3432'],
  ['class: not JSON', Point, '7b7b'],
];

describe('value codec errors', () => {
  it.each(badValues)('encode rejects %s with ValueEncodingError naming Reading.cell', (_name, type, value) => {
    const c = codec(type);
    expect(() => c.encode(value)).toThrow(ValueEncodingError);
    expect(() => c.encode(value)).toThrow(/^Reading\.cell: .+ Fix: \S/);
  });

  it.each(badBytes)('decode rejects %s with ValueEncodingError naming Reading.cell', (_name, type, hex) => {
    const c = codec(type);
    expect(() => c.decode(Buffer.from(hex, 'hex'))).toThrow(ValueEncodingError);
    expect(() => c.decode(Buffer.from(hex, 'hex'))).toThrow(/^Reading\.cell: .+ Fix: \S/);
  });

  it.each(['text', 'number', 'Int', '', undefined, null, 42, {}])(
    'rejects the unknown type %j with MetadataError listing the valid types',
    (type) => {
      expect(() => codec(type as ColumnScalarType)).toThrow(MetadataError);
      expect(() => codec(type as ColumnScalarType)).toThrow(
        /^Reading\.cell: unknown column type .*\. Fix: use one of 'string', 'int', 'float', 'boolean', 'date', 'bigint', 'json', 'bytes', or a class/,
      );
    },
  );

  it('rejects inherited object keys as types', () => {
    expect(() => codec('toString' as ColumnScalarType)).toThrow(MetadataError);
  });
});
