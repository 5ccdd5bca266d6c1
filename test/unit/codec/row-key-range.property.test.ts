import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeKeyComponents, joinLogicalKey, type KeySchema } from '../../../src/key/logical-key.js';
import type { LogicalKeyRange } from '../../../src/model/key-range.js';
import { planKeyRange, type KeyRangeCondition } from '../../../src/key/key-ranges.js';
import { ValidationError } from '../../../src/errors/errors.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';
import { keySchema } from '../../support/key-schema.js';

interface Part {
  options: KeyPartOptions;
  values: fc.Arbitrary<unknown>;
  compare: (a: unknown, b: unknown) => number;
}

const byNumber = (a: unknown, b: unknown): number => Math.sign((a as number) - (b as number));
const byBytes = (a: unknown, b: unknown): number =>
  Math.sign(Buffer.compare(Buffer.from(a as string), Buffer.from(b as string)));
/** Small domains so that keys share prefixes and bounds hit stored values. */
const parts = (descending: readonly boolean[]): Part[] => [
  {
    options: { type: 'string' },
    values: fc.constantFrom(
      'a',
      'b',
      'ab',
      'a&',
      'ba',
      '&',
      'é',
      'a!',
      'a ',
      'a\u0000',
      'a#',
      'a%',
      'a$',
      '#',
      '%',
      '$a',
      ' ',
      'a#b',
    ),
    compare: byBytes,
  },
  {
    options: { type: 'uint', width: 2, descending: descending[0] },
    values: fc.integer({ min: 0, max: 12 }),
    compare: byNumber,
  },
  { options: { type: 'int', descending: descending[1] }, values: fc.integer({ min: -6, max: 6 }), compare: byNumber },
  {
    options: { type: 'timestamp', format: 'epoch-s', descending: descending[2] },
    values: fc.integer({ min: 0, max: 8 }).map((s) => new Date(s * 1000)),
    compare: (a, b) => byNumber((a as Date).getTime(), (b as Date).getTime()),
  },
  {
    options: { type: 'bytes' },
    values: fc
      .constantFrom('00', '0000', '0001', '01', '0a', 'a0', 'ff', 'ff00', 'ffff')
      .map((h) => Buffer.from(h, 'hex')),
    compare: (a, b) => Math.sign(Buffer.compare(a as Buffer, b as Buffer)),
  },
  {
    options: { type: 'float', descending: descending[3] },
    values: fc.constantFrom(0, -1, 1, 0.5, -0.5, 2, -2, Number.MIN_VALUE, -Number.MAX_VALUE),
    compare: byNumber,
  },
  {
    options: { type: 'boolean', descending: descending[4] },
    values: fc.boolean(),
    compare: (a, b) => Number(a) - Number(b),
  },
];

function buildSchema(chosen: readonly Part[], literal: boolean): KeySchema {
  const specs = chosen.map((p, i) => ({ property: `p${i}`, options: p.options }));
  return keySchema('Ranged', literal ? [{ literal: 'r' }, ...specs] : specs);
}

const keyOf = (schema: KeySchema, tuple: readonly unknown[]): Buffer =>
  Buffer.from(
    joinLogicalKey(
      '#',
      encodeKeyComponents(schema, Object.fromEntries(tuple.map((v, i) => [`p${i}`, v])), 'full'),
      true,
    ),
    'utf8',
  );

function inRange(key: Buffer, range: LogicalKeyRange): boolean {
  const fromStart = Buffer.compare(key, range.start.key);
  if (fromStart < 0 || (fromStart === 0 && !range.start.inclusive)) return false;
  if (range.end === undefined) return true;
  const toEnd = Buffer.compare(key, range.end.key);
  return toEnd < 0 || (toEnd === 0 && range.end.inclusive);
}

function satisfies(
  tuple: readonly unknown[],
  chosen: readonly Part[],
  fixed: readonly unknown[],
  range: KeyRangeCondition | undefined,
): boolean {
  for (const [i, value] of fixed.entries()) if ((chosen[i] as Part).compare(tuple[i], value) !== 0) return false;
  if (range === undefined) return true;
  const cmp = (bound: unknown): number => (chosen[fixed.length] as Part).compare(tuple[fixed.length], bound);
  if (range.gt !== undefined && cmp(range.gt) <= 0) return false;
  if (range.gte !== undefined && cmp(range.gte) < 0) return false;
  if (range.lt !== undefined && cmp(range.lt) >= 0) return false;
  if (range.lte !== undefined && cmp(range.lte) > 0) return false;
  return true;
}

const scenario = fc
  .record({
    descending: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1, maxLength: 3 }),
    literal: fc.boolean(),
  })
  .chain(({ descending, order, literal }) => {
    const all = parts(descending);
    const chosen = order.map((i) => all[i] as Part);
    const tuple = fc.tuple(...chosen.map((p) => p.values));
    return fc.record({
      chosen: fc.constant(chosen),
      literal: fc.constant(literal),
      keys: fc.array(tuple, { minLength: 1, maxLength: 25 }),
      source: fc.oneof(fc.nat(), tuple),
      fixedCount: fc.integer({ min: 0, max: chosen.length }),
      lower: fc.option(fc.record({ op: fc.constantFrom('gt', 'gte'), value: tuple })),
      upper: fc.option(fc.record({ op: fc.constantFrom('lt', 'lte'), value: tuple })),
    });
  });

function inverted(part: Part, range: KeyRangeCondition | undefined): boolean {
  const lower = range?.gte ?? range?.gt;
  const upper = range?.lte ?? range?.lt;
  if (lower === undefined || upper === undefined) return false;
  const order = part.compare(lower, upper);
  return order > 0 || (order === 0 && (range?.gt !== undefined || range?.lt !== undefined));
}

describe('planKeyRange', () => {
  it('covers every key whose values satisfy the fixed parts and the bounds, and only those when exact', () => {
    let selected = 0;
    fc.assert(
      fc.property(scenario, ({ chosen, literal, keys, source, fixedCount, lower, upper }) => {
        const schema = buildSchema(chosen, literal);
        const sourceTuple = typeof source === 'number' ? (keys[source % keys.length] as unknown[]) : source;
        const fixed = sourceTuple.slice(0, fixedCount);
        let range: KeyRangeCondition | undefined;
        if (fixedCount < chosen.length && (lower !== null || upper !== null)) {
          range = { property: `p${fixedCount}` };
          if (lower !== null) range = { ...range, [lower.op]: lower.value[fixedCount] };
          if (upper !== null) range = { ...range, [upper.op]: upper.value[fixedCount] };
        }
        const fixedValues = Object.fromEntries(fixed.map((v, i) => [`p${i}`, v]));
        if (inverted(chosen[fixedCount] as Part, range)) {
          expect(() => planKeyRange(schema, fixedValues, range)).toThrow(ValidationError);
          return;
        }
        const { range: computed, exact } = planKeyRange(schema, fixedValues, range);
        for (const tuple of keys) {
          const expected = satisfies(tuple, chosen, fixed, range);
          if (expected) selected += 1;
          const inside = inRange(keyOf(schema, tuple), computed);
          if (expected) expect(inside).toBe(true);
          else if (exact) expect(inside).toBe(false);
        }
      }),
      // Full count in every tier (not propertyRuns): the bound below counts the keys these cases select.
      { numRuns: 3000 },
    );
    expect(selected).toBeGreaterThan(800);
  });
});
