import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyCodec } from '../../../src/codec/key-codecs.js';
import { KeyEncodingError } from '../../../src/errors/errors.js';
import { KEY_COMBOS, ORDERED_COMBOS, trickyUnit } from './key-codec-arbitraries.js';
import { propertyRuns } from '../../support/property-runs.js';

const RUNS = { numRuns: propertyRuns(2000) };
const SEPARATORS = ['#', '|', '/', '~', '!'];
const bytesOf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe.each(KEY_COMBOS)('key codec $name', ({ options, values, compare }) => {
  const codec = createKeyCodec('Prop', 'part', options, '#');

  it('round-trips: decode(encode(x)) = x', () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(codec.decode(codec.encode(value))).toEqual(value);
      }),
      RUNS,
    );
  });

  it('never emits the separator, and fixed-width encodings have exactly width characters', () => {
    fc.assert(
      fc.property(values, (value) => {
        const text = codec.encode(value);
        expect(text).not.toContain('#');
        if (codec.width !== undefined) expect(text).toHaveLength(codec.width);
      }),
      RUNS,
    );
  });

  it('isolates prefixes: enc(a)+sep is never a prefix of enc(b)+sep for a ≠ b', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        fc.pre(codec.encode(a) !== codec.encode(b));
        expect(`${codec.encode(b)}#`.startsWith(`${codec.encode(a)}#`)).toBe(false);
        expect(codec.decode(codec.encode(a))).not.toEqual(b);
      }),
      RUNS,
    );
  });

  it('decodes only canonical text: whatever decodes re-encodes to the same text', () => {
    const unit = codec.width === undefined ? trickyUnit : fc.constantFrom('0', '1', '5', '9', '-', 'a');
    const maxLength = (codec.width ?? 24) + 1;
    const texts = fc.oneof(
      fc.string({ unit, maxLength }),
      values.map((v) => codec.encode(v)),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let decoded: unknown;
        try {
          decoded = codec.decode(text);
        } catch (err) {
          expect(err).toBeInstanceOf(KeyEncodingError);
          return;
        }
        expect(codec.encode(decoded)).toBe(text);
      }),
      RUNS,
    );
  });

  if (compare !== undefined) {
    it(`sorts keys in ${options.descending === true ? 'reverse' : 'logical'} order`, () => {
      const expected = (a: unknown, b: unknown): number =>
        options.descending === true ? compare(b, a) : compare(a, b);
      fc.assert(
        fc.property(values, values, (a, b) => {
          expect(Math.sign(Buffer.compare(bytesOf(codec.encode(a)), bytesOf(codec.encode(b))))).toBe(expected(a, b));
        }),
        RUNS,
      );
    });
  }
});

describe('string key codec with other separators', () => {
  it.each(SEPARATORS)('round-trips and never emits %s', (separator) => {
    const codec = createKeyCodec('Prop', 'part', { type: 'string' }, separator);
    fc.assert(
      fc.property(fc.string({ unit: trickyUnit, minLength: 1, maxLength: 12 }), (value) => {
        const text = codec.encode(value);
        expect(text).not.toContain(separator);
        expect(codec.decode(text)).toBe(value);
      }),
      RUNS,
    );
  });

  it.each(['#', '|'])('keeps code-point order for characters above "%%" other than the separator (%s)', (separator) => {
    const codec = createKeyCodec('Prop', 'part', { type: 'string' }, separator);
    const unit = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c > '%' && c !== separator);
    const strings = fc.string({
      unit: fc.oneof(unit, fc.constantFrom('a', 'b', 'é', '&')),
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(strings, strings, (a, b) => {
        expect(Math.sign(Buffer.compare(bytesOf(codec.encode(a)), bytesOf(codec.encode(b))))).toBe(
          Math.sign(Buffer.compare(bytesOf(a), bytesOf(b))),
        );
      }),
      RUNS,
    );
  });

  it('changes the order of characters <= "%" (documented): "a#" < "a$" but escaped "a%23" > "a$"', () => {
    const codec = createKeyCodec('Prop', 'part', { type: 'string' }, '#');
    expect('a#' < 'a$').toBe(true);
    expect(codec.encode('a#') > codec.encode('a$')).toBe(true);
  });
});

describe('orderable combos', () => {
  it('has one per numeric/timestamp option combination', () => {
    expect(ORDERED_COMBOS.map((c) => c.name)).toContain('timestamp epoch-s desc');
  });
});
