import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bigintFromJson,
  bigintSchema,
  bytesFromJson,
  bytesSchema,
  dateFromJson,
  dateTimeSchema,
  JsonMismatch,
  parseDateTime,
} from '../../../src/json-form/json-values.js';
import { compileStrict } from '../../support/ajv.js';
import { propertyRuns } from '../../support/property-runs.js';

const dateTime = compileStrict(dateTimeSchema('a date'));
const wholeSeconds = compileStrict(dateTimeSchema('a date', true));

describe('date-time text', () => {
  it.each([
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01t12:00:00z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00.5+02:00', '2024-05-01T10:00:00.500Z'],
    ['2024-05-01T12:00:00.123456789-01:30', '2024-05-01T13:30:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['0000-01-01T00:30:00+01:00', '-000001-12-31T23:30:00.000Z'],
    ['2016-12-31T23:59:60Z', '2016-12-31T23:59:59.000Z'],
    ['2016-12-31T23:59:60.5Z', '2016-12-31T23:59:59.500Z'],
    ['2017-01-01T00:29:60+00:30', '2016-12-31T23:59:59.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseDateTime(text)?.toISOString()).toBe(iso);
    expect(dateTime(text)).toBe(true);
  });

  it.each([
    '2024-05-01T12:00:00',
    '2024-05-01 12:00:00Z',
    '2024-05-01T12:00:00+0200',
    '2024-05-01T12:00:00+02',
    '2024-05-01T24:00:00Z',
    '2024-05-01T12:60:00Z',
    '2024-04-31T12:00:00Z',
    '2023-02-29T12:00:00Z',
    '2024-13-01T12:00:00Z',
    '2024-05-01T12:00:60Z',
    '2024-05-01T23:59:60+01:00',
    '2024-05-01T12:00:00.Z',
    '24-05-01T12:00:00Z',
    '２０２４-05-01T12:00:00Z',
    '',
  ])('refuses %j, as the schema does', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
    expect(dateTime(text)).toBe(false);
  });

  it('reads what the schema accepts and nothing else, and gives back the Date toISOString wrote', () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
    const pick = (...parts: string[]) => fc.constantFrom(...parts);
    const text = fc
      .tuple(
        digits(4),
        fc.oneof(digits(2), pick('02', '04', '12', '13', '00')),
        fc.oneof(digits(2), pick('28', '29', '30', '31', '00')),
        pick('T', 't', ' ', 'x'),
        fc.oneof(digits(2), pick('23', '24', '00')),
        fc.oneof(digits(2), pick('59', '60')),
        fc.oneof(digits(2), pick('59', '60', '61')),
        fc.oneof(
          pick('', '.', '.0', '.000', '.0001', '.5', '.999999'),
          digits(1).map((d) => `.${d}`),
        ),
        fc.oneof(
          pick('Z', 'z', '', '+00:00', '-00:30', '+01:00', '+23:59', '+24:00', '+0100', '+01'),
          digits(2).map((h) => `-${h}:00`),
        ),
      )
      .map((parts) => `${parts.slice(0, 3).join('-')}${parts[3]}${parts.slice(4, 7).join(':')}${parts[7]}${parts[8]}`);
    fc.assert(
      fc.property(text, (candidate) => {
        expect(parseDateTime(candidate) !== undefined).toBe(dateTime(candidate));
      }),
      { numRuns: propertyRuns(20_000) },
    );
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(parseDateTime(date.toISOString())?.getTime()).toBe(date.getTime());
        },
      ),
      { numRuns: propertyRuns(5_000) },
    );
  });

  it('for whole seconds, accepts only fractions that leave no milliseconds', () => {
    for (const fraction of ['', '.0', '.00', '.000', '.0009'])
      expect(wholeSeconds(`2024-05-01T12:00:00${fraction}Z`)).toBe(true);
    for (const fraction of ['.001', '.01', '.1', '.0010'])
      expect(wholeSeconds(`2024-05-01T12:00:00${fraction}Z`)).toBe(false);
  });

  it('names what it expected when the text is no date-time', () => {
    expect(dateFromJson(1714564800000)).toEqual(
      new JsonMismatch(
        'expected an RFC 3339 date-time with a time zone, e.g. 2024-05-01T12:00:00.000Z (digits past milliseconds are dropped), got 1714564800000',
      ),
    );
  });
});

describe('bigint text', () => {
  const valid = compileStrict(bigintSchema());
  const max = 2n ** 63n - 1n;
  const min = -(2n ** 63n);

  it('holds exactly the signed 64-bit range, in canonical decimal', () => {
    for (const n of [0n, 1n, -1n, 42n, max, min, max - 1n, min + 1n, 10n ** 18n, -(10n ** 18n)]) {
      expect(valid(n.toString())).toBe(true);
      expect(bigintFromJson(n.toString())).toBe(n);
    }
    for (const text of [
      (max + 1n).toString(),
      (min - 1n).toString(),
      '-0',
      '01',
      '+1',
      '1.0',
      '1e3',
      ' 1',
      '',
      '9'.repeat(40),
    ]) {
      expect(valid(text)).toBe(false);
      expect(bigintFromJson(text)).toBeInstanceOf(JsonMismatch);
    }
    expect(bigintFromJson(42)).toBeInstanceOf(JsonMismatch);
  });

  it('agrees with the schema on every decimal text near and past the range', () => {
    const near = fc.oneof(
      fc.bigInt({ min: min - 10n ** 6n, max: max + 10n ** 6n }),
      fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }),
      fc.bigInt({ min: max - 10n ** 6n, max: max + 10n ** 6n }),
      fc.bigInt({ min: min - 10n ** 6n, max: min + 10n ** 6n }),
    );
    const text = fc.oneof(
      near.map((n) => n.toString()),
      fc.tuple(fc.constantFrom('0', '00', '-', '-0'), near).map(([prefix, n]) => `${prefix}${n < 0n ? -n : n}`),
    );
    fc.assert(
      fc.property(text, (candidate) => {
        expect(!(bigintFromJson(candidate) instanceof JsonMismatch)).toBe(valid(candidate));
      }),
      { numRuns: propertyRuns(20_000) },
    );
  });
});

describe('base64 text', () => {
  it('holds exactly the bytes of a key part: not empty, at most maxLength', () => {
    const bounded = Array.from({ length: 41 }, (_, max) =>
      max === 0 ? undefined : compileStrict(bytesSchema(true, max)),
    );
    const any = compileStrict(bytesSchema(false, undefined));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.uint8Array({ maxLength: 45 }), (max, bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(bounded[max]?.(text)).toBe(bytes.length >= 1 && bytes.length <= max);
        expect(any(text)).toBe(true);
        expect(bytesFromJson(text)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('refuses what is not padded base64, as the schema does', () => {
    const valid = compileStrict(bytesSchema(false, undefined));
    for (const text of ['QQ', 'QQ=', 'Q===', 'QUJD=', '-_8=', 'QU JD', 'QUJD\n', '====']) {
      expect(valid(text)).toBe(false);
      expect(bytesFromJson(text)).toBeInstanceOf(JsonMismatch);
    }
    for (const text of ['', 'QQ==', 'QUI=', 'QUJD', 'QR=='])
      expect([valid(text), bytesFromJson(text) instanceof Buffer]).toEqual([true, true]);
  });
});
