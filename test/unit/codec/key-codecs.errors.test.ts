import { describe, expect, it } from 'vitest';
import { createKeyCodec } from '../../../src/codec/key-codecs.js';
import { KeyEncodingError, MetadataError } from '../../../src/errors/errors.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';

const codec = (options: KeyPartOptions, separator = '#') => createKeyCodec('Reading', 'part', options, separator);

const badValues: Array<[string, KeyPartOptions, unknown]> = [
  ['string: number', { type: 'string' }, 42],
  ['string: empty', { type: 'string' }, ''],
  ['string: null', { type: 'string' }, null],
  ['string: lone surrogate', { type: 'string' }, 'a\ud800'],
  ['uint: string', { type: 'uint' }, '1'],
  ['uint: bigint', { type: 'uint' }, 1n],
  ['uint: NaN', { type: 'uint' }, Number.NaN],
  ['uint: Infinity', { type: 'uint' }, Number.POSITIVE_INFINITY],
  ['uint: negative', { type: 'uint' }, -1],
  ['uint: fractional', { type: 'uint' }, 1.5],
  ['uint: unsafe', { type: 'uint' }, 2 ** 53],
  ['uint: wider than width', { type: 'uint', width: 4 }, 10000],
  ['uint desc: wider than width', { type: 'uint', width: 4, descending: true }, 10000],
  ['int: string', { type: 'int' }, '1'],
  ['int: NaN', { type: 'int' }, Number.NaN],
  ['int: fractional', { type: 'int' }, -0.5],
  ['int: unsafe', { type: 'int' }, 2 ** 53],
  ['int: unsafe negative', { type: 'int' }, -(2 ** 53)],
  ['int: bigint', { type: 'int' }, 1n],
  ['bigint: number', { type: 'bigint' }, 1],
  ['bigint: string', { type: 'bigint' }, '1'],
  ['bigint: above int64', { type: 'bigint' }, 2n ** 63n],
  ['bigint: below int64', { type: 'bigint' }, -(2n ** 63n) - 1n],
  ['timestamp: string', { type: 'timestamp' }, '2023-05-01T12:00:00.000Z'],
  ['timestamp: number', { type: 'timestamp' }, 1682942400000],
  ['timestamp: invalid Date', { type: 'timestamp' }, new Date(Number.NaN)],
  ['timestamp iso: year 10000', { type: 'timestamp' }, new Date('+010000-01-01T00:00:00.000Z')],
  ['timestamp iso: year -1', { type: 'timestamp' }, new Date('-000001-01-01T00:00:00.000Z')],
  ['epoch-ms: invalid Date', { type: 'timestamp', format: 'epoch-ms' }, new Date(Number.NaN)],
  ['epoch-ms: before 1970', { type: 'timestamp', format: 'epoch-ms' }, new Date(-1)],
  ['epoch-ms: too wide', { type: 'timestamp', format: 'epoch-ms' }, new Date(10 ** 13)],
  ['epoch-s: milliseconds', { type: 'timestamp', format: 'epoch-s' }, new Date(1682942400123)],
  ['epoch-s desc: milliseconds', { type: 'timestamp', format: 'epoch-s', descending: true }, new Date(1500)],
  ['epoch-s: before 1970', { type: 'timestamp', format: 'epoch-s' }, new Date(-1000)],
  ['epoch-s: too wide', { type: 'timestamp', format: 'epoch-s' }, new Date(10 ** 13)],
];

const badTexts: Array<[string, KeyPartOptions, string]> = [
  ['string: empty', { type: 'string' }, ''],
  ['string: raw separator', { type: 'string' }, 'a#b'],
  ['string: lone %', { type: 'string' }, 'a%'],
  ['string: short escape', { type: 'string' }, 'a%2'],
  ['string: foreign escape', { type: 'string' }, 'a%41'],
  ['string: lowercase escape', { type: 'string' }, 'a%2f'],
  ['uint: empty', { type: 'uint' }, ''],
  ['uint: short', { type: 'uint' }, '123'],
  ['uint: letters', { type: 'uint' }, 'abcdefghijklmnop'],
  ['uint: sign', { type: 'uint' }, '-000000000000001'],
  ['uint: unsafe', { type: 'uint' }, '9999999999999999'],
  ['uint desc: unsafe', { type: 'uint', descending: true }, '0000000000000000'],
  ['int: unsafe low', { type: 'int' }, '00000000000000000'],
  ['int: unsafe high', { type: 'int' }, '99999999999999999'],
  ['bigint: above uint64', { type: 'bigint' }, '99999999999999999999'],
  ['bigint: short', { type: 'bigint' }, '1234'],
  ['iso: impossible day', { type: 'timestamp' }, '2023-02-30T00:00:00.000Z'],
  ['iso: no milliseconds', { type: 'timestamp' }, '2023-05-01T12:00:00Z'],
  ['iso: offset', { type: 'timestamp' }, '2023-05-01T12:00:00.000+01:00'],
  ['iso: garbage', { type: 'timestamp' }, 'garbage'],
  ['epoch-s: short', { type: 'timestamp', format: 'epoch-s' }, '123'],
  ['epoch-ms: beyond Date', { type: 'timestamp', format: 'epoch-ms', width: 16 }, '9999999999999999'],
  ['epoch-s: beyond Date', { type: 'timestamp', format: 'epoch-s', width: 13 }, '9999999999999'],
];

describe('key codec errors', () => {
  it.each(badValues)('encode rejects %s with KeyEncodingError naming Reading.part', (_name, options, value) => {
    const c = codec(options);
    expect(() => c.encode(value)).toThrow(KeyEncodingError);
    expect(() => c.encode(value)).toThrow(/^Reading\.part: .+ Fix: \S/);
  });

  it.each(badTexts)('decode rejects %s with KeyEncodingError naming Reading.part', (_name, options, text) => {
    const c = codec(options);
    expect(() => c.decode(text)).toThrow(KeyEncodingError);
    expect(() => c.decode(text)).toThrow(/^Reading\.part: .+ Fix: \S/);
  });

  it('explains the epoch-s collision and how to fix it', () => {
    expect(() => codec({ type: 'timestamp', format: 'epoch-s' }).encode(new Date(1682942400123))).toThrow(
      /same second.*Fix: round the date.*epoch-ms/,
    );
  });
});

const badOptions: Array<[string, KeyPartOptions, RegExp, string?]> = [
  ['descending string', { type: 'string', descending: true }, /string components cannot be descending\. Fix: /],
  ['string width', { type: 'string', width: 4 }, /no width/],
  ['string format', { type: 'string', format: 'iso' }, /format applies only to timestamp/],
  ['uint format', { type: 'uint', format: 'epoch-s' }, /format applies only to timestamp/],
  ['descending iso', { type: 'timestamp', descending: true }, /epoch format.*Fix: use format: 'epoch-ms'/],
  ['descending explicit iso', { type: 'timestamp', format: 'iso', descending: true }, /epoch format/],
  ['iso width', { type: 'timestamp', width: 24 }, /no width/],
  ['unknown format', { type: 'timestamp', format: 'epoch-us' as 'epoch-ms' }, /unknown timestamp format "epoch-us"/],
  ['unknown type', { type: 'double' as 'uint' }, /unknown key part type "double"\. Fix: use one of 'string', 'uint'/],
  ['missing type', {} as KeyPartOptions, /unknown key part type/],
  [
    'non-boolean descending',
    { type: 'uint', descending: 'yes' as unknown as boolean },
    /descending must be true or false/,
  ],
  ['uint width 0', { type: 'uint', width: 0 }, /width 0 is not valid/],
  ['uint width negative', { type: 'uint', width: -4 }, /width -4 is not valid/],
  ['uint width fractional', { type: 'uint', width: 4.5 }, /width 4\.5 is not valid/],
  ['uint width NaN', { type: 'uint', width: Number.NaN }, /width/],
  ['uint width string', { type: 'uint', width: '4' as unknown as number }, /width "4" is not valid/],
  ['uint width 21', { type: 'uint', width: 21 }, /from 1 to 20/],
  ['epoch-ms width 12', { type: 'timestamp', format: 'epoch-ms', width: 12 }, /at least 13 digits/],
  ['epoch-ms width 21', { type: 'timestamp', format: 'epoch-ms', width: 21 }, /from 13 to 20/],
  ['epoch-s width 9', { type: 'timestamp', format: 'epoch-s', width: 9 }, /at least 10 digits/],
  ['int width 16', { type: 'int', width: 16 }, /always 17 digits wide.*Fix: remove width/],
  ['bigint width 19', { type: 'bigint', width: 19 }, /always 20 digits wide/],
  ['iso with "-" separator', { type: 'timestamp' }, /contain the key separator "-".*epoch-ms/, '-'],
  ['iso with ":" separator', { type: 'timestamp' }, /contain the key separator ":"/, ':'],
  ['iso with "." separator', { type: 'timestamp' }, /contain the key separator "\."/, '.'],
];

describe('key codec option validation', () => {
  it.each(badOptions)(
    'rejects %s with MetadataError naming Reading.part',
    (_name, options, message, separator = '#') => {
      expect(() => codec(options, separator)).toThrow(MetadataError);
      expect(() => codec(options, separator)).toThrow(/^Reading\.part: .+\. Fix: \S/);
      expect(() => codec(options, separator)).toThrow(message);
    },
  );

  it.each(['%', '', 'ab', 'a', '0', ' ', 'é'])(
    'rejects the separator %j with MetadataError naming the entity',
    (separator) => {
      expect(() => codec({ type: 'string' }, separator)).toThrow(MetadataError);
      expect(() => codec({ type: 'string' }, separator)).toThrow(
        /^Reading: key separator .* Fix: set @Entity\(\{ separator/,
      );
    },
  );

  it('accepts the limits and the fixed widths', () => {
    expect(codec({ type: 'uint', width: 1 }).width).toBe(1);
    expect(codec({ type: 'uint', width: 20 }).width).toBe(20);
    expect(codec({ type: 'int', width: 17 }).width).toBe(17);
    expect(codec({ type: 'bigint', width: 20 }).width).toBe(20);
    expect(codec({ type: 'timestamp', format: 'epoch-s', width: 10 }).width).toBe(10);
    expect(codec({ type: 'timestamp', format: 'epoch-ms', width: 13 }).width).toBe(13);
    expect(codec({ type: 'timestamp', format: 'epoch-ms' }, '-').format).toBe('epoch-ms');
  });

  it('exposes the resolved options on the codec', () => {
    expect(codec({ type: 'uint' })).toMatchObject({ type: 'uint', width: 16, descending: false, format: undefined });
    expect(codec({ type: 'timestamp' })).toMatchObject({
      type: 'timestamp',
      width: undefined,
      descending: false,
      format: 'iso',
    });
    expect(codec({ type: 'timestamp', format: 'epoch-s', descending: true })).toMatchObject({
      width: 10,
      descending: true,
      format: 'epoch-s',
    });
    expect(codec({ type: 'string' })).toMatchObject({
      type: 'string',
      width: undefined,
      descending: false,
      format: undefined,
    });
    expect(Object.isFrozen(codec({ type: 'int' }))).toBe(true);
  });
});
