import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLogicalKey, encodeKeyComponents, joinLogicalKey, type KeySchema } from '../../../src/key/logical-key.js';
import { keySchema, type KeyPartSpec } from '../../support/key-schema.js';
import { ORDERED_COMBOS, trickyUnit, type KeyCombo } from './key-codec-arbitraries.js';
import { propertyRuns } from '../../support/property-runs.js';

const RUNS = { numRuns: propertyRuns(2000) };
const byBytes = (a: unknown, b: unknown): number =>
  Math.sign(Buffer.compare(Buffer.from(a as string), Buffer.from(b as string)));
/** Strings whose characters are all above `%` keep their order once escaped. */
const orderedString: KeyCombo = {
  name: 'string above %',
  options: { type: 'string' },
  values: fc.string({ unit: fc.constantFrom('&', 'a', 'b', 'z', 'é', '~', '😀'), minLength: 1, maxLength: 4 }),
  compare: byBytes,
};
const anyString: KeyCombo = {
  name: 'any string',
  options: { type: 'string' },
  values: fc.string({ unit: trickyUnit, minLength: 1, maxLength: 6 }),
  compare: byBytes,
};

function schemaOf(combos: readonly KeyCombo[], literal: boolean): KeySchema {
  const parts: KeyPartSpec[] = combos.map((c, i) => ({ property: `p${i}`, options: c.options }));
  return keySchema('Composite', literal ? [{ literal: 'row' }, ...parts] : parts);
}

const valuesOf = (tuple: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(tuple.map((v, i) => [`p${i}`, v]));
const fullKey = (schema: KeySchema, tuple: readonly unknown[]): Buffer =>
  Buffer.from(joinLogicalKey('#', encodeKeyComponents(schema, valuesOf(tuple), 'full'), true), 'utf8');

/** A schema of 2–3 components with two value tuples drawn from it. */
const composite = (pool: readonly KeyCombo[]) =>
  fc
    .record({ combos: fc.array(fc.constantFrom(...pool), { minLength: 2, maxLength: 3 }), literal: fc.boolean() })
    .chain(({ combos, literal }) => {
      const tuple = fc.tuple(...combos.map((c) => c.values));
      return fc.record({
        combos: fc.constant(combos),
        schema: fc.constant(schemaOf(combos, literal)),
        a: tuple,
        b: tuple,
      });
    });

describe('composite logical keys', () => {
  it('sort in tuple order for orderable types (descending parts reversed)', () => {
    fc.assert(
      fc.property(composite([...ORDERED_COMBOS, orderedString]), ({ combos, schema, a, b }) => {
        const expected = combos.reduce((acc, c, i) => {
          if (acc !== 0) return acc;
          const cmp = (c.compare as NonNullable<KeyCombo['compare']>)(a[i], b[i]);
          return c.options.descending === true ? -cmp : cmp;
        }, 0);
        expect(Math.sign(Buffer.compare(fullKey(schema, a), fullKey(schema, b)))).toBe(expected === 0 ? 0 : expected);
      }),
      RUNS,
    );
  });

  it('round-trip through decodeLogicalKey', () => {
    fc.assert(
      fc.property(composite([...ORDERED_COMBOS, anyString]), ({ schema, a }) => {
        expect(decodeLogicalKey(schema, fullKey(schema, a).toString('utf8'))).toEqual(valuesOf(a));
      }),
      RUNS,
    );
  });

  it('isolate prefixes: a full key starts with the prefix of k values exactly when its first k values are equal', () => {
    const arb = composite([...ORDERED_COMBOS, anyString, anyString]).chain((c) =>
      fc.record({
        c: fc.constant(c),
        share: fc.nat({ max: c.a.length }),
        k: fc.integer({ min: 1, max: c.a.length - 1 }),
      }),
    );
    fc.assert(
      fc.property(arb, ({ c: { schema, a, b }, share, k }) => {
        const other = [...a.slice(0, share), ...b.slice(share)];
        const prefix = joinLogicalKey('#', encodeKeyComponents(schema, valuesOf(a.slice(0, k)), 'prefix'), false);
        const sameLeading = isDeepStrictEqual(a.slice(0, k), other.slice(0, k));
        expect(fullKey(schema, other).toString('utf8').startsWith(prefix)).toBe(sameLeading);
      }),
      RUNS,
    );
  });
});
