import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeComponent, isValidSeparator, unescapeComponent } from '../../../src/codec/key-escaping.js';
import { trickyUnit } from './key-codec-arbitraries.js';
import { propertyRuns } from '../../support/property-runs.js';

const PUNCTUATION = [...'!"#$&\'()*+,-./:;<=>?@[\\]^_`{|}~'];

describe('escapeComponent / unescapeComponent', () => {
  it.each([
    ['a#b', '#', 'a%23b'],
    ['100%', '#', '100%25'],
    ['%23', '#', '%2523'],
    ['a|b#c', '|', 'a%7Cb#c'],
    ['a/b', '/', 'a%2Fb'],
    ['x~y', '~', 'x%7Ey'],
    ['héllo 😀', '#', 'héllo 😀'],
  ])('escapes %j with separator %j as %j', (raw, separator, escaped) => {
    expect(escapeComponent(raw, separator)).toBe(escaped);
    expect(unescapeComponent(escaped, separator)).toBe(raw);
  });

  it.each([
    ['a#b', '#'],
    ['a%', '#'],
    ['a%2', '#'],
    ['a%41', '#'],
    ['a%2f', '/'],
    ['%7c', '|'],
    ['a%7C', '#'],
  ])('rejects the non-canonical text %j (separator %j)', (text, separator) => {
    expect(unescapeComponent(text, separator)).toBeUndefined();
  });

  it('round-trips any text for every valid separator and never emits the separator', () => {
    fc.assert(
      fc.property(fc.string({ unit: trickyUnit, maxLength: 16 }), fc.constantFrom(...PUNCTUATION), (raw, separator) => {
        const escaped = escapeComponent(raw, separator);
        expect(escaped.includes(separator)).toBe(false);
        expect(unescapeComponent(escaped, separator)).toBe(raw);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('accepts only canonical escapes: whatever unescapes re-escapes to the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: trickyUnit, maxLength: 16 }), fc.constantFrom('#', '|', '/'), (text, separator) => {
        const raw = unescapeComponent(text, separator);
        if (raw !== undefined) expect(escapeComponent(raw, separator)).toBe(text);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
});

describe('isValidSeparator', () => {
  it.each(PUNCTUATION)('accepts %j', (separator) => {
    expect(isValidSeparator(separator)).toBe(true);
  });

  it.each(['%', '', '##', 'a', 'Z', '0', ' ', '\n', 'é', '\u007f'])('rejects %j', (separator) => {
    expect(isValidSeparator(separator)).toBe(false);
  });
});
