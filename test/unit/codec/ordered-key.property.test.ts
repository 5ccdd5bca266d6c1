import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeySchema } from '../../../src/key/logical-key.js';
import type { LogicalKeyRange } from '../../../src/model/key-range.js';
import { planKeyRange, type KeyRangeCondition } from '../../../src/key/key-ranges.js';
import { decodeRowKey, encodeRowKey, scanSaltSegments } from '../../../src/key/physical-key.js';
import { ValidationError } from '../../../src/errors/errors.js';
import type { KeyPartOptions } from '../../../src/model/declarations.js';
import { orderedKeySchema } from '../../support/ordered-key-schema.js';
import { propertyRuns } from '../../support/property-runs.js';

interface Part {
  options: KeyPartOptions;
  values: fc.Arbitrary<unknown>;
  compare: (a: unknown, b: unknown) => number;
}

const sign = (n: number | bigint): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
const byNumber = (a: unknown, b: unknown): number => sign((a as number) - (b as number));
const byBigint = (a: unknown, b: unknown): number => sign((a as bigint) - (b as bigint));
/** Code point order: the order of UTF-8 bytes. */
const byText = (a: unknown, b: unknown): number =>
  sign(Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8')));
const byTime = (a: unknown, b: unknown): number => byNumber((a as Date).getTime(), (b as Date).getTime());

/** Small domains, so that keys share prefixes and bounds hit stored values, with null and 0xff-heavy bytes and every Int64 length. */
const parts = (descending: readonly boolean[]): Part[] => [
  {
    options: { type: 'string', descending: descending[0] },
    values: fc.constantFrom(
      'a',
      'b',
      'ab',
      'a\u0000',
      'a\u0000b',
      '\u0000',
      'a\u0001',
      'é',
      'ÿ',
      '\u{1F600}',
      'a#',
      '%',
    ),
    compare: byText,
  },
  {
    options: { type: 'int', descending: descending[1] },
    values: fc.constantFrom(0, 1, -1, 63, 64, -64, -65, 255, 256, -2048, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER),
    compare: byNumber,
  },
  {
    options: { type: 'bigint', descending: descending[2] },
    values: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, -1n, 2n ** 63n - 1n)),
    compare: byBigint,
  },
  {
    options: { type: 'timestamp', descending: descending[3] },
    values: fc.integer({ min: -3, max: 3 }).map((s) => new Date(s * 1000)),
    compare: byTime,
  },
  { options: { type: 'uint', descending: descending[4] }, values: fc.integer({ min: 0, max: 70 }), compare: byNumber },
  {
    options: { type: 'bytes', descending: descending[5] },
    values: fc
      .constantFrom('00', '0000', '0001', '01', 'ff', 'ff00', 'ffff', '61', '6100')
      .map((h) => Buffer.from(h, 'hex')),
    compare: (a, b) => sign(Buffer.compare(a as Buffer, b as Buffer)),
  },
  {
    options: { type: 'float', descending: descending[6] },
    values: fc.constantFrom(
      0,
      -1,
      1,
      0.5,
      -0.5,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      1e-300,
    ),
    compare: byNumber,
  },
  {
    options: { type: 'boolean', descending: descending[7] },
    values: fc.boolean(),
    compare: (a, b) => Number(a) - Number(b),
  },
];

const layouts = fc
  .record({
    descending: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 1, maxLength: 3 }),
    literal: fc.boolean(),
  })
  .map(({ descending, order, literal }) => {
    const all = parts(descending);
    return { chosen: order.map((i) => all[i] as Part), literal };
  });

function buildSchema(chosen: readonly Part[], literal: boolean, salted = false): KeySchema {
  const specs = chosen.map((p, i) => ({ property: `p${i}`, options: p.options }));
  return orderedKeySchema(
    'Ordered',
    literal ? [{ literal: 'r' }, ...specs] : specs,
    salted ? { buckets: 4 } : undefined,
  );
}

const record = (tuple: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(tuple.map((v, i) => [`p${i}`, v]));
const keyOf = (schema: KeySchema, tuple: readonly unknown[]): Buffer => encodeRowKey(schema, record(tuple)).key;

function compareTuples(chosen: readonly Part[], a: readonly unknown[], b: readonly unknown[]): number {
  for (const [i, part] of chosen.entries()) {
    const order = part.compare(a[i], b[i]);
    if (order !== 0) return part.options.descending === true ? -order : order;
  }
  return 0;
}

function inRange(key: Buffer, range: LogicalKeyRange): boolean {
  const fromStart = Buffer.compare(key, range.start.key);
  if (fromStart < 0 || (fromStart === 0 && !range.start.inclusive)) return false;
  if (range.end === undefined) return true;
  const toEnd = Buffer.compare(key, range.end.key);
  return toEnd < 0 || (toEnd === 0 && range.end.inclusive);
}

describe("keyFormat 'ordered-code' row keys", () => {
  it('decode back to the values they encode, salted or not', () => {
    fc.assert(
      fc.property(
        layouts.chain(({ chosen, literal }) =>
          fc.record({
            chosen: fc.constant(chosen),
            literal: fc.constant(literal),
            salted: fc.boolean(),
            tuple: fc.tuple(...chosen.map((p) => p.values)),
          }),
        ),
        ({ chosen, literal, salted, tuple }) => {
          const schema = buildSchema(chosen, literal, salted);
          const key = keyOf(schema, tuple);
          expect(decodeRowKey(schema, key)).toEqual(record(tuple));
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('sort as their values do, descending parts reversed', () => {
    fc.assert(
      fc.property(
        layouts.chain(({ chosen, literal }) => {
          const tuple = fc.tuple(...chosen.map((p) => p.values));
          return fc.record({ chosen: fc.constant(chosen), literal: fc.constant(literal), a: tuple, b: tuple });
        }),
        ({ chosen, literal, a, b }) => {
          const schema = buildSchema(chosen, literal);
          expect(sign(Buffer.compare(keyOf(schema, a), keyOf(schema, b)))).toBe(compareTuples(chosen, a, b));
        },
      ),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('a prefix range holds exactly the keys with that prefix, and so does each salt bucket', () => {
    fc.assert(
      fc.property(
        layouts.chain(({ chosen, literal }) => {
          const tuple = fc.tuple(...chosen.map((p) => p.values));
          return fc.record({
            chosen: fc.constant(chosen),
            literal: fc.constant(literal),
            salted: fc.boolean(),
            keys: fc.array(tuple, { minLength: 1, maxLength: 20 }),
            source: fc.nat(),
            fixedCount: fc.integer({ min: 0, max: chosen.length }),
          });
        }),
        ({ chosen, literal, salted, keys, source, fixedCount }) => {
          const schema = buildSchema(chosen, literal, salted);
          const fixedTuple = (keys[source % keys.length] as unknown[]).slice(0, fixedCount);
          const fixed = record(fixedTuple);
          const { range, exact } = planKeyRange(schema, fixed, undefined);
          expect(exact).toBe(true);
          const segments = salted ? scanSaltSegments(schema, fixed).map((s) => s.prefix) : [Buffer.alloc(0)];
          for (const tuple of keys) {
            const key = keyOf(schema, tuple);
            const expected = fixedTuple.every((v, i) => (chosen[i] as Part).compare(tuple[i], v) === 0);
            const inside = segments.some(
              (segment) =>
                key.subarray(0, segment.length).equals(segment) && inRange(key.subarray(segment.length), range),
            );
            expect(inside).toBe(expected);
          }
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('a range on the next part holds exactly the keys within its bounds', () => {
    let selected = 0;
    fc.assert(
      fc.property(
        layouts.chain(({ chosen, literal }) => {
          const tuple = fc.tuple(...chosen.map((p) => p.values));
          return fc.record({
            chosen: fc.constant(chosen),
            literal: fc.constant(literal),
            keys: fc.array(tuple, { minLength: 1, maxLength: 25 }),
            source: fc.nat(),
            fixedCount: fc.integer({ min: 0, max: chosen.length - 1 }),
            lower: fc.option(fc.record({ op: fc.constantFrom('gt', 'gte'), value: tuple })),
            upper: fc.option(fc.record({ op: fc.constantFrom('lt', 'lte'), value: tuple })),
          });
        }),
        ({ chosen, literal, keys, source, fixedCount, lower, upper }) => {
          const schema = buildSchema(chosen, literal);
          const fixedTuple = (keys[source % keys.length] as unknown[]).slice(0, fixedCount);
          let condition: KeyRangeCondition = { property: `p${fixedCount}` };
          if (lower !== null) condition = { ...condition, [lower.op]: lower.value[fixedCount] };
          if (upper !== null) condition = { ...condition, [upper.op]: upper.value[fixedCount] };
          const part = chosen[fixedCount] as Part;
          const within = (value: unknown): boolean =>
            (condition.gt === undefined || part.compare(value, condition.gt) > 0) &&
            (condition.gte === undefined || part.compare(value, condition.gte) >= 0) &&
            (condition.lt === undefined || part.compare(value, condition.lt) < 0) &&
            (condition.lte === undefined || part.compare(value, condition.lte) <= 0);
          const lowerValue = condition.gte ?? condition.gt;
          const upperValue = condition.lte ?? condition.lt;
          if (lowerValue !== undefined && upperValue !== undefined) {
            const order = part.compare(lowerValue, upperValue);
            if (order > 0 || (order === 0 && (condition.gt !== undefined || condition.lt !== undefined))) {
              expect(() => planKeyRange(schema, record(fixedTuple), condition)).toThrow(ValidationError);
              return;
            }
          }
          const { range, exact } = planKeyRange(schema, record(fixedTuple), condition);
          expect(exact).toBe(true);
          for (const tuple of keys) {
            const expected =
              fixedTuple.every((v, i) => (chosen[i] as Part).compare(tuple[i], v) === 0) && within(tuple[fixedCount]);
            if (expected) selected += 1;
            expect(inRange(keyOf(schema, tuple), range)).toBe(expected);
          }
        },
      ),
      // Full count in every tier (not propertyRuns): the bound below counts the keys these cases select.
      { numRuns: 3000 },
    );
    expect(selected).toBeGreaterThan(800);
  });
});
