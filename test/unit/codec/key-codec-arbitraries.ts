import fc from 'fast-check';
import type { KeyPartOptions } from '../../../src/model/declarations.js';

/**
 * A key component configuration with a generator of its valid values and
 * their logical order.
 *
 * @example
 * ```ts
 * const uint = KEY_COMBOS.find((c) => c.name === 'uint')!;
 * ```
 */
export interface KeyCombo {
  name: string;
  options: KeyPartOptions;
  values: fc.Arbitrary<unknown>;
  /** Logical order; undefined for strings (checked separately). */
  compare: ((a: unknown, b: unknown) => number) | undefined;
}

const byNumber = (a: unknown, b: unknown): number => Math.sign((a as number) - (b as number));
const byBigint = (a: unknown, b: unknown): number =>
  (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
const byTime = (a: unknown, b: unknown): number => Math.sign((a as Date).getTime() - (b as Date).getTime());

const uintUpTo = (max: bigint): fc.Arbitrary<unknown> => fc.bigInt({ min: 0n, max }).map(Number);
const epochMs = (max: bigint): fc.Arbitrary<unknown> => fc.bigInt({ min: 0n, max }).map((ms) => new Date(Number(ms)));
const epochS = (max: bigint): fc.Arbitrary<unknown> =>
  fc.bigInt({ min: 0n, max }).map((s) => new Date(Number(s) * 1000));
const isoDates = fc.date({
  min: new Date('0000-01-01T00:00:00.000Z'),
  max: new Date('9999-12-31T23:59:59.999Z'),
  noInvalidDate: true,
});
const MAX_DATE_MS = 8_640_000_000_000_000n;
const byBytes = (a: unknown, b: unknown): number => Buffer.compare(a as Uint8Array, b as Uint8Array);
const byBoolean = (a: unknown, b: unknown): number => Number(a) - Number(b);

/** Byte strings that share prefixes and hold 00 and ff, as Buffers (what the codecs decode to). */
const byteStrings = fc
  .array(fc.oneof(fc.constantFrom(0, 1, 0x7f, 0x80, 0xff), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 10,
  })
  .map((bytes) => Buffer.from(bytes));

/** Finite doubles with the edge cases weighted in: ±0 as 0 (the codecs store -0 as 0), subnormals, extremes. */
const finiteFloats = fc
  .oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1, 0.5, -0.5),
    fc.integer({ min: -3, max: 3 }),
  )
  .map((n) => (n === 0 ? 0 : n));

/**
 * String units that stress escaping: `%`, separators and escape look-alikes.
 *
 * @example
 * ```ts
 * fc.string({ unit: trickyUnit, minLength: 1 });
 * ```
 */
export const trickyUnit = fc.oneof(
  fc.constantFrom('%', '#', '|', '/', '~', '!', ' ', '%23', '%25', '%7C', 'a'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/**
 * Every key type and option combination the codecs support.
 *
 * @example
 * ```ts
 * describe.each(KEY_COMBOS)('key codec $name', ({ options, values }) => {});
 * ```
 */
export const KEY_COMBOS: readonly KeyCombo[] = [
  {
    name: 'string',
    options: { type: 'string' },
    values: fc.string({ unit: trickyUnit, minLength: 1, maxLength: 12 }),
    compare: undefined,
  },
  { name: 'uint', options: { type: 'uint' }, values: fc.maxSafeNat(), compare: byNumber },
  { name: 'uint width 4', options: { type: 'uint', width: 4 }, values: uintUpTo(9999n), compare: byNumber },
  {
    name: 'uint width 4 desc',
    options: { type: 'uint', width: 4, descending: true },
    values: uintUpTo(9999n),
    compare: byNumber,
  },
  { name: 'uint desc', options: { type: 'uint', descending: true }, values: fc.maxSafeNat(), compare: byNumber },
  {
    name: 'uint width 20 desc',
    options: { type: 'uint', width: 20, descending: true },
    values: fc.maxSafeNat(),
    compare: byNumber,
  },
  { name: 'int', options: { type: 'int' }, values: fc.maxSafeInteger(), compare: byNumber },
  { name: 'int desc', options: { type: 'int', descending: true }, values: fc.maxSafeInteger(), compare: byNumber },
  {
    name: 'bigint',
    options: { type: 'bigint' },
    values: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    compare: byBigint,
  },
  {
    name: 'bigint desc',
    options: { type: 'bigint', descending: true },
    values: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    compare: byBigint,
  },
  { name: 'timestamp iso', options: { type: 'timestamp' }, values: isoDates, compare: byTime },
  {
    name: 'timestamp epoch-ms',
    options: { type: 'timestamp', format: 'epoch-ms' },
    values: epochMs(9_999_999_999_999n),
    compare: byTime,
  },
  {
    name: 'timestamp epoch-ms desc',
    options: { type: 'timestamp', format: 'epoch-ms', descending: true },
    values: epochMs(9_999_999_999_999n),
    compare: byTime,
  },
  {
    name: 'timestamp epoch-ms width 16 desc',
    options: { type: 'timestamp', format: 'epoch-ms', width: 16, descending: true },
    values: epochMs(MAX_DATE_MS),
    compare: byTime,
  },
  {
    name: 'timestamp epoch-s',
    options: { type: 'timestamp', format: 'epoch-s' },
    values: epochS(9_999_999_999n),
    compare: byTime,
  },
  {
    name: 'timestamp epoch-s desc',
    options: { type: 'timestamp', format: 'epoch-s', descending: true },
    values: epochS(9_999_999_999n),
    compare: byTime,
  },
  {
    name: 'timestamp epoch-s width 13 desc',
    options: { type: 'timestamp', format: 'epoch-s', width: 13, descending: true },
    values: epochS(MAX_DATE_MS / 1000n),
    compare: byTime,
  },
  { name: 'bytes', options: { type: 'bytes' }, values: byteStrings, compare: byBytes },
  { name: 'bytes maxLength 10', options: { type: 'bytes', maxLength: 10 }, values: byteStrings, compare: byBytes },
  { name: 'float', options: { type: 'float' }, values: finiteFloats, compare: byNumber },
  { name: 'float desc', options: { type: 'float', descending: true }, values: finiteFloats, compare: byNumber },
  { name: 'boolean', options: { type: 'boolean' }, values: fc.boolean(), compare: byBoolean },
  { name: 'boolean desc', options: { type: 'boolean', descending: true }, values: fc.boolean(), compare: byBoolean },
];

/**
 * The orderable combinations (every type but `string`).
 *
 * @example
 * ```ts
 * fc.constantFrom(...ORDERED_COMBOS);
 * ```
 */
export const ORDERED_COMBOS = KEY_COMBOS.filter((c) => c.compare !== undefined);
